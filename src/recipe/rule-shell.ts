// Shell rule patterns: one simple command of literal words, optionally ending in a bare `*` that
// stands for any further arguments. Words are written as in bash (plain, 'single-quoted' or
// "double-quoted" with nothing to expand), and mean exactly the argv bash would build from them;
// anything bash would expand or treat as an operator is refused, so no pattern can mean one thing
// here and another to the parser that reads the commands (test/recipe/rule-grammar.test.ts checks
// every accepted pattern against tree-sitter-bash).

import { isBuiltinToolName } from '../tools/names.js';

export interface ShellPattern {
  /** The words as bash would pass them (quotes removed); the first is the program. */
  words: string[];
  /** Ends in `*`: any further arguments (including none). */
  trailing: boolean;
}

/**
 * Characters an unquoted word may hold: the ones bash never expands or reads as operators. The
 * policy's command analysis (policy/shell-words.ts) accepts the same set.
 */
export const UNQUOTED_WORD_CHAR = /^(?:[A-Za-z0-9_\-./:=,+@%^#~\p{L}\p{M}\p{N}]|(?![\x00-\x7f])[\p{S}\p{P}])$/u;

/** Words bash reads as keywords in command position: a rule starting with one could never match. */
export const SHELL_KEYWORDS: ReadonlySet<string> = new Set([
  '!', '[[', ']]', '{', '}', 'case', 'coproc', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for',
  'function', 'if', 'in', 'select', 'then', 'until', 'while',
]);

type Compiled = { ok: true; matcher: ShellPattern } | { ok: false; reason: string };

interface Word {
  value: string;
  quoted: boolean;
  /** Holds an unquoted `*`, which bash would glob. */
  star: boolean;
}

export function compileShellPattern(pattern: string): Compiled {
  const text = pattern.trim();
  if (text === '') return { ok: false, reason: 'the pattern is empty: write `- shell` for any command' };
  const read = readWords(text);
  if (typeof read === 'string') return { ok: false, reason: `'${pattern}' ${read}` };
  const last = read.at(-1)!;
  const trailing = !last.quoted && last.value === '*';
  const words = trailing ? read.slice(0, -1) : read;
  if (words.length === 0) return { ok: false, reason: "'*' alone matches every command: write the bare `- shell` if that is meant" };
  const starAt = words.findIndex((w) => w.star);
  if (starAt >= 0) {
    // `npm run test:*` (Claude Code's prefix marker) or `rm*`: a star glued to the last word meant
    // "and any further arguments", which here is its own word.
    const glued = starAt === words.length - 1 && !trailing ? /^([^*]+?)(:?)\*$/.exec(words[starAt]!.value) : null;
    const meant = glued ? ` (${glued[2] ? "Claude Code's ':*' is" : 'for any further arguments, write'} a '*' word of its own here: "${text.replace(/:?\*$/, '')} *")` : '';
    return { ok: false, reason: `'${pattern}': '*' may only be the last word, standing for any further arguments (e.g. "git diff *"); quote it ('*') for a literal star${meant}` };
  }
  const never = neverMatches(pattern, words);
  if (never) return { ok: false, reason: never };
  const first = words[0]!;
  if (!first.quoted && SHELL_KEYWORDS.has(first.value)) {
    return { ok: false, reason: `'${pattern}' starts with '${first.value}', which bash reads as a keyword: no command would ever match` };
  }
  if (!first.quoted && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first.value)) {
    return { ok: false, reason: `'${pattern}' starts with a variable assignment, which the policy never allows in a command: name the program first` };
  }
  return { ok: true, matcher: { words: words.map((w) => w.value), trailing } };
}

/**
 * Why no command can ever give these words, or null. Such a rule would pass silently and then
 * refuse nothing as a deny rule (fail open), or approve nothing as an allow rule.
 */
function neverMatches(pattern: string, words: readonly Word[]): string | null {
  const first = words[0]!;
  if (first.value === '') return `'${pattern}' starts with an empty word, which names no program`;
  // `'git push *'` is one word, a program named "git push *". A path may hold a space (a
  // directory "My Tools"); a bare name never does in practice.
  if (first.quoted && /\s/.test(first.value) && !first.value.includes('/')) {
    return `'${pattern}': the program '${first.value}' holds a space inside quotes, so it is one word and no command runs a program of that name: write the words without those quotes (${first.value}), quoting a word on its own only where it needs it`;
  }
  // `git push, shell:curl *`: rules listed on one line (as --tools takes names, or an Action input
  // written across), read as one command that no one runs, so a deny rule refused neither.
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const after = i > 0 && !word.quoted && !words[i - 1]!.quoted && words[i - 1]!.value.endsWith(',') && isBuiltinToolName(word.value.split(':')[0]!);
    const inside = !word.quoted && word.value.split(',').slice(1).some((part) => /^[a-z_]+:/.test(part) && isBuiltinToolName(part.split(':')[0]!));
    if (after || inside) {
      return `'${pattern}' reads as a list of rules ('${after ? `${words[i - 1]!.value} ` : ''}${word.value}'), which is one command no one runs: write one rule for each command`;
    }
  }
  for (const word of words) {
    if (word.value.includes('\0')) return `'${pattern}' holds a NUL character, which no command's words can hold`;
    // `git "push *"`: the '*' meant "any further arguments" but, quoted, it is a literal star.
    if (word.quoted && /\s\*$/.test(word.value)) {
      return `'${pattern}': the '*' at the end of the quoted word '${word.value}' is a literal star inside quotes, not "any further arguments": close the quote before it ("${word.value.replace(/\s*\*$/, '')}" *)`;
    }
  }
  return null;
}

/** The words of `text`, or why it is not a sequence of literal words. */
function readWords(text: string): Word[] | string {
  const words: Word[] = [];
  let current: Word | null = null;
  let i = 0;
  while (i < text.length) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    if (char === ' ' || char === '\t') {
      if (current) words.push(current);
      current = null;
      i++;
      continue;
    }
    current ??= { value: '', quoted: false, star: false };
    if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return 'has an unterminated single quote';
      current.value += text.slice(i + 1, end);
      current.quoted = true;
      i = end + 1;
    } else if (char === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return 'has an unterminated double quote';
      const inner = text.slice(i + 1, end);
      if (/[\\$`]/.test(inner)) return `has '\\', '$' or a backquote inside double quotes, which bash would interpret: use single quotes`;
      current.value += inner;
      current.quoted = true;
      i = end + 1;
    } else if (char === '*') {
      current.value += char;
      current.star = true;
      i++;
    } else {
      const problem = unquotedProblem(char, current.value, current.quoted);
      if (problem) return problem;
      current.value += char;
      i += char.length;
    }
  }
  if (current) words.push(current);
  return words;
}

function unquotedProblem(char: string, before: string, quotedBefore: boolean): string | null {
  const atStart = before === '' && !quotedBefore;
  if (!UNQUOTED_WORD_CHAR.test(char)) {
    // A no-break or zero-width space pasted from a web page prints as a space or as nothing: named
    // by its code point, or the message would say the rule "contains ' '".
    if (OPERATOR_NAMES[char] === undefined && /^[\p{Z}\p{Cf}\p{Cc}]$/u.test(char)) {
      const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      return `contains ${code}, an invisible or space-like character that bash does not read as a space (pasted from a web page?): retype the rule with plain spaces`;
    }
    const what = OPERATOR_NAMES[char] ?? `'${char}'`;
    return `contains ${what}, which bash would expand or interpret: a rule is one command of literal words (quote the word, or write one rule per command)`;
  }
  if (char === '~' && (atStart || before.endsWith('=') || before.endsWith(':'))) return "starts a tilde expansion ('~'): quote it or write the path out";
  if (char === '#' && atStart) return "starts a comment ('#'): quote it";
  return null;
}

const OPERATOR_NAMES: Record<string, string> = {
  ';': "';'",
  '&': "'&'",
  '|': "'|'",
  '<': "a redirection '<'",
  '>': "a redirection '>'",
  $: "'$' (an expansion)",
  '`': 'a backquote (command substitution)',
  '\\': "a backslash (write the word in single quotes instead)",
  '(': "'('",
  ')': "')'",
  '{': "'{' (brace expansion)",
  '}': "'}'",
  '?': "'?' (a glob)",
  '[': "'[' (a glob)",
  ']': "']'",
  '!': "'!' (history expansion)",
  '\n': 'a line break',
  '\r': 'a carriage return',
};
