// One word of a command, reduced to the exact string bash would pass, or refused. Only shapes
// whose value is certain are accepted: unquoted words made of characters bash never expands
// (a backslash makes the next character plain, as bash's quote removal does), single-quoted
// strings, ANSI-C strings (shell-ansi-c.ts), and double-quoted strings with nothing to expand.
// Braces are text unless bash would brace-expand the word (shell-braces.ts).
import type { Node } from 'web-tree-sitter';
import { UNQUOTED_WORD_CHAR } from '../recipe/rules.js';
import { mayBraceExpand } from './shell-braces.js';
import { ansiCValue, singleQuoted } from './shell-ansi-c.js';

export interface ShellWord {
  value: string;
  /** Any part was quoted or escaped: bash then never reads the word as a keyword. */
  quoted: boolean;
  /**
   * When the word holds an unquoted `*`, `?` or `[…]` and globs were asked for: the pattern bash
   * matches file names against, every other character a literal (a `\` before each that is special
   * to a pattern). `value` is then what bash passes when nothing matches: the word as written.
   */
  glob?: string;
}

export type WordResult =
  | { ok: true; word: ShellWord }
  /** `construct` is the node to name in the reason when the word holds a refused construct. */
  | { ok: false; reason: string; construct?: Node };

/**
 * Characters an unquoted, unescaped word may hold, shared with the rule grammar, and braces
 * (checked for brace expansion on the whole word). Everything else is refused: glob (`* ? [ ]`),
 * quoting (a lone `\` at the end of a piece), expansion (`$` and backquote), history and
 * extglob (`!`), operators, and any whitespace (tree-sitter-bash reads `{ }` as one word): where
 * tree-sitter-bash keeps in a word what bash would end it at, the character shows here.
 * Non-ASCII letters, marks and digits are plain bytes to bash.
 */
const UNQUOTED_CHAR = UNQUOTED_WORD_CHAR;

/** `globs`: an unquoted `*`, `?` or `[…]` makes a pattern (ShellWord.glob) instead of a refusal. */
export function literalWord(node: Node, globs = false): WordResult {
  const pieces = node.type === 'concatenation' ? node.children : [node];
  if (pieces.length === 0) return { ok: false, reason: `the word '${node.text}' is empty`, construct: node };
  let value = '';
  let pattern = '';
  let globbed = false;
  let quoted = false;
  // The word as bash brace-expands it: as written, but an ANSI-C string already single-quoted.
  let braceText = '';
  // Unquoted pieces in a row are read as one text (tree-sitter splits `x{}.bak` at each brace).
  let unquoted = '';
  const flush = (): WordResult | null => {
    const read = unquotedValue(unquoted, value, globs);
    if ('problem' in read) return { ok: false, reason: `the unquoted word '${node.text}' ${read.problem}${read.problem.includes('quote it') ? '' : '; quote it'}` };
    value += read.value;
    pattern += read.pattern;
    globbed ||= read.globbed;
    quoted ||= read.escaped;
    unquoted = '';
    return null;
  };
  for (const piece of pieces) {
    braceText += piece.type === 'ansi_c_string' ? '' : piece.text;
    if ((piece.type === 'word' || piece.type === 'number') && piece.childCount === 0) {
      unquoted += piece.text;
      continue;
    }
    const refused = unquoted ? flush() : null;
    if (refused) return refused;
    switch (piece.type) {
      case 'word':
      case 'number':
        return { ok: false, reason: '', construct: piece.child(0)! };
      case 'raw_string': {
        const text = piece.text;
        if (piece.childCount !== 0 || text.length < 2 || !text.startsWith("'") || !text.endsWith("'")) {
          return { ok: false, reason: `the quoted word '${node.text}' is malformed` };
        }
        value += text.slice(1, -1);
        pattern += escapeGlob(text.slice(1, -1));
        quoted = true;
        break;
      }
      case 'ansi_c_string': {
        const read = ansiCValue(piece.text);
        if ('problem' in read) return { ok: false, reason: `the ANSI-C string '${piece.text}' ${read.problem}: write the characters themselves, in single quotes` };
        value += read.value;
        braceText += singleQuoted(read.value);
        quoted = true;
        break;
      }
      case 'string': {
        const content = doubleQuoted(piece);
        if (!content.ok) return content;
        value += content.value;
        pattern += escapeGlob(content.value);
        quoted = true;
        break;
      }
      default:
        return { ok: false, reason: '', construct: piece };
    }
  }
  const refused = unquoted ? flush() : null;
  if (refused) return refused;
  // Bash brace-expands the word as written, quotes and backslashes in place, before anything else.
  if (mayBraceExpand(braceText)) {
    return {
      ok: false,
      reason: `the unquoted word '${node.text}' is a brace expansion ('{' and '}' around a ',' or a '..' sequence), which bash turns into several words: write each word out, or quote the braces if they are meant literally`,
    };
  }
  return { ok: true, word: globbed ? { value, quoted, glob: pattern } : { value, quoted } };
}

/** Characters a glob pattern reads as more than themselves. */
const GLOB_SPECIAL = /[*?[\]\\]/g;

function escapeGlob(text: string): string {
  return text.replace(GLOB_SPECIAL, '\\$&');
}

/**
 * A bracket expression at `text[i]` (`[abc]`, `[!a-z]`, `[[:digit:]]`), or null when the `[` is
 * not one (no closing `]` in the same unquoted text: the word is then refused).
 */
function bracketAt(text: string, i: number): string | null {
  let j = i + 1;
  if (text[j] === '!' || text[j] === '^') j++;
  if (text[j] === ']') j++;
  for (; j < text.length; j++) {
    if (text.startsWith('[:', j)) {
      const end = text.indexOf(':]', j + 2);
      if (end < 0) return null;
      j = end + 1;
      continue;
    }
    // A backslash inside a bracket escapes as bash reads it there: not read here, so refused.
    if (text[j] === '\\') return null;
    if (text[j] === ']') return text.slice(i, j + 1);
  }
  return null;
}

/**
 * The value of an unquoted text, or why it is refused. `before` is the part of the word already
 * read (a tilde or hash is special only at some places). `escaped`: a backslash made a
 * character plain.
 */
function unquotedValue(text: string, before: string, globs: boolean): { value: string; pattern: string; globbed: boolean; escaped: boolean } | { problem: string } {
  let value = '';
  let pattern = '';
  let globbed = false;
  let escaped = false;
  for (let i = 0; i < text.length; ) {
    if (text[i] === '\\') {
      const next = text.codePointAt(i + 1);
      // bash would have read the next character with it; tree-sitter-bash ended the word here.
      if (next === undefined) return { problem: "ends in a backslash that escapes nothing the parser kept in the word; quote it" };
      const char = String.fromCodePoint(next);
      // A continuation inside a word (which continuationProblem refuses first): bash deletes it.
      if (char !== '\n') {
        value += char;
        pattern += escapeGlob(char);
      }
      escaped = true;
      i += 1 + char.length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    // Where the caller can expand it against the files (shell-globs.ts), a glob is its pattern.
    const bracket = globs && char === '[' ? bracketAt(text, i) : null;
    if (globs && (char === '*' || char === '?' || bracket !== null)) {
      const piece = bracket ?? char;
      value += piece;
      pattern += piece;
      globbed = true;
      i += piece.length;
      continue;
    }
    // Quoting a glob changes what it means (no file is named `*.ts`): the way on is the names.
    if (char === '*' || char === '?' || char === '[') {
      return { problem: `is a glob ('${char}'), which bash expands to file names the policy cannot see before the line runs; name the files (the glob tool or \`find\` lists them), or quote it if it is meant literally` };
    }
    // Whether braces expand is decided on the whole word (literalWord); unexpanded, they are text.
    if (char !== '{' && char !== '}' && !UNQUOTED_CHAR.test(char)) return { problem: `contains '${char}', which bash would expand or interpret` };
    const previous = (before + value).at(-1);
    // `~` expands at the start of a word and after `=` or `:` in assignment-like arguments.
    if (char === '~' && (previous === undefined || previous === '=' || previous === ':')) {
      return { problem: "starts a tilde expansion ('~')" };
    }
    if (char === '#' && previous === undefined) return { problem: "starts a comment ('#')" };
    value += char;
    pattern += escapeGlob(char);
    i += char.length;
  }
  return { value, pattern, globbed, escaped };
}

/** Inside double quotes a backslash quotes only these; before anything else it is itself. */
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);

function doubleQuoted(node: Node): { ok: true; value: string } | { ok: false; reason: string; construct?: Node } {
  const text = node.text;
  const children = node.children;
  const first = children[0];
  const last = children.at(-1);
  if (children.length < 2 || first?.type !== '"' || last?.type !== '"' || !text.startsWith('"') || !text.endsWith('"')) {
    return { ok: false, reason: `the quoted word '${node.text}' is malformed` };
  }
  for (const child of children.slice(1, -1)) {
    // `$?`, the last status, is digits whatever it is: no path, option or command can come of it.
    if (child.type === 'simple_expansion' && child.text === '$?') continue;
    if (child.type !== 'string_content') {
      return { ok: false, reason: `the double-quoted word '${node.text}' is not literal`, construct: child };
    }
  }
  // Read from the source, not the children: tree-sitter splits content at newlines and drops them.
  const inner = text.slice(1, -1);
  let value = '';
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i]!;
    if (char === '\\' && i + 1 < inner.length && DOUBLE_QUOTE_ESCAPES.has(inner[i + 1]!)) {
      // A backslash-newline is deleted; `\$`, `\``, `\"`, `\\` leave the character.
      if (inner[i + 1] !== '\n') value += inner[i + 1];
      i++;
      continue;
    }
    // A status stands as 0 (`echo "exit: $?"`): digits in, digits out.
    if (char === '$' && inner[i + 1] === '?') {
      value += '0';
      i++;
      continue;
    }
    if (char === '$' || char === '`') {
      return {
        ok: false,
        reason: `the double-quoted word '${node.text}' contains an unescaped '${char}', which bash expands there; use single quotes, or escape it (\\${char})`,
      };
    }
    value += char;
  }
  return { ok: true, value };
}
