// Whether bash brace-expands a word. Most braces in everyday lines are plain text to bash
// (`git log @{u}..HEAD`, `git show stash@{0}`, `echo {a}`, find's `{}`): it expands only a
// `{…}` holding an unquoted `,` or a valid `..` sequence. This is a port of bash's braces.c
// (brace_expand, brace_gobbler, valid_seqterm), whose scanner is the same from 3.2 to 5.3. Where
// versions differ (bash 5.3 skips the `{` of an invalid sequence such as `{1..x}` and looks inside
// it; 5.1 keeps `{1..x}` as text and looks after it), a word either version would expand counts
// as expanding, and so does a sequence that looks valid but would not expand (`{1..2x}`): the
// caller refuses such words, so erring this way only refuses a rare literal.

type BraceKind = 'none' | 'comma' | 'seq';

interface Gobbled {
  /** Index of the character that stopped the scan, or text.length. */
  at: number;
  found: boolean;
  kind: BraceKind;
}

/** bash's brace_whitespace: the end of the text counts as whitespace. */
const isBraceWhitespace = (char: string | undefined) => char === undefined || char === ' ' || char === '\t' || char === '\n';

/**
 * brace_gobbler: from `start`, the first `satisfy` (`{` or `}`) outside quotes, escapes and nested
 * braces; for `}`, only once a `,` or `..` at the same level has been seen (bash's `commas`).
 */
function gobble(text: string, start: number, satisfy: '{' | '}'): Gobbled {
  let level = 0;
  let quoted: string | null = null;
  let commas = satisfy === '}' ? 0 : 1;
  let kind: BraceKind = 'none';
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    // A backslash escapes the next character, also inside double quotes (but not single).
    if (c === '\\' && quoted !== "'") {
      i += 2;
      continue;
    }
    // `${…}` is skipped like `\{…}`: its brace opens no expansion (and, unquoted, nests a level).
    if (c === '$' && text[i + 1] === '{' && quoted !== "'") {
      // bash 5.3's `${ cmd; }` and `${| cmd; }` are scanned as commands.
      if (/[ \t\n|]/.test(text[i + 2] ?? '')) throw new Unreadable();
      if (quoted === null) level++;
      i += 2;
      continue;
    }
    // A command or process substitution is scanned as a command, which this port does not do.
    if (text[i + 1] === '(' && (quoted === null ? c === '$' || c === '<' || c === '>' : quoted === '"' && c === '$')) throw new Unreadable();
    if (quoted !== null) {
      if (c === quoted) quoted = null;
      i++;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quoted = c;
      i++;
      continue;
    }
    if (c === satisfy && level === 0 && commas > 0) {
      // An open brace with whitespace (or nothing) before it and whitespace or `}` after it is text.
      if (c === '{' && isBraceWhitespace(text[i - 1]) && (isBraceWhitespace(text[i + 1]) || text[i + 1] === '}')) {
        i++;
        continue;
      }
      return { at: i, found: true, kind };
    }
    if (c === '{') level++;
    else if (c === '}' && level > 0) level--;
    else if (satisfy === '}' && c === ',' && level === 0) {
      kind = 'comma';
      commas++;
    } else if (satisfy === '}' && text.startsWith('..', i) && text[i + 2] !== '}' && level === 0) {
      if (kind === 'none') kind = 'seq';
      commas++;
    }
    i++;
  }
  return { at: text.length, found: false, kind };
}

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';
const isAlpha = (char: string | undefined) => char !== undefined && /^[A-Za-z]$/.test(char);

/**
 * valid_seqterm (bash 5.3), the looser of bash's two checks of `N..M[..INCR]` (integers) or
 * `a..z` (letters): every sequence bash expands passes it.
 */
function looksLikeSequence(amble: string): boolean {
  const dots = amble.indexOf('..');
  if (dots < 0) return false;
  const lhs = amble.slice(0, dots);
  const rhs = amble.slice(dots + 2);
  if (amble.startsWith('.') || rhs === '') return false;
  const kind = (side: string, charEnd: (next: string | undefined) => boolean) =>
    isDigit(side[0]) || ((side[0] === '+' || side[0] === '-') && isDigit(side[1])) ? 'int' : isAlpha(side[0]) && charEnd(side[1]) ? 'char' : 'bad';
  const left = kind(lhs + '.', (next) => next === '.');
  const right = kind(rhs, (next) => next === undefined || next === '.');
  return left !== 'bad' && left === right;
}

/**
 * True when bash (any version from 3.2 on) may brace-expand `raw`, a word as written (quotes and
 * backslashes in place). A word holding a command substitution outside single quotes is reported
 * as expanding when it holds a brace: the scanner would have to parse the substitution as bash
 * does, and such words are refused anyway.
 */
export function mayBraceExpand(raw: string): boolean {
  try {
    return braceExpands(raw);
  } catch (error) {
    if (error instanceof Unreadable) return raw.includes('{');
    throw error;
  }
}

/** A substitution the scan would have to parse as bash does. */
class Unreadable extends Error {}

function braceExpands(raw: string): boolean {
  const memo = new Map<number, boolean>();
  const from = (offset: number): boolean => {
    const known = memo.get(offset);
    if (known !== undefined) return known;
    memo.set(offset, true);
    const result = scan(raw.slice(offset), offset, from);
    memo.set(offset, result);
    return result;
  };
  return from(0);
}

/** brace_expand's search for the first brace pair that expands, in `text` (at `offset` in the word). */
function scan(text: string, offset: number, fresh: (offset: number) => boolean): boolean {
  let i = 0;
  for (;;) {
    const open = gobble(text, i, '{');
    if (!open.found) return false;
    const close = gobble(text, open.at + 1, '}');
    if (close.found) {
      const amble = text.slice(open.at + 1, close.at);
      // bash 5.1 expands on any comma not after a backslash, even a quoted one; both on an unquoted one.
      if (close.kind === 'comma' || hasUnescapedComma(amble)) return true;
      if (looksLikeSequence(amble)) return true;
      // bash 5.1 keeps the invalid sequence as text and brace-expands what follows it on its own.
      if (close.at + 1 < text.length && fresh(offset + close.at + 1)) return true;
    }
    // bash 5.3 (and every version, when no `}` closes it) goes on after this `{`.
    i = open.at + 1;
  }
}

/** bash 5.1's test of the amble: a comma, skipping only what a backslash escapes (not quotes). */
function hasUnescapedComma(amble: string): boolean {
  for (let i = 0; i < amble.length; i++) {
    if (amble[i] === '\\') i++;
    else if (amble[i] === ',') return true;
  }
  return false;
}
