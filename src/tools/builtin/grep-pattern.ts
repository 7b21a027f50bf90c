// grep's pattern language, one for both engines: a JavaScript regular expression without flags
// (a leading (?i) ignores case), matched against each line without its line break (`\n`, or
// `\r\n`). Its lines are always matched in JavaScript (ripgrep only picks the files: see
// grep-regex.ts), so the language is JavaScript's whatever engine runs, and `\d`, `\w`, `\b` are
// ASCII, `.` is one UTF-16 unit.
//
// Some other dialects' syntax is valid JavaScript that means something else: `\p{L}` is the
// letter p and a `{L}`, `[[:alpha:]]` a class of `[:alph` and a `]`, `\z` the letter z, `\x{41}`
// an x 41 times, `a{,3}` the text `a{,3}`. A model used to ripgrep or PCRE writes these and would get a silent "no matches";
// they are refused here with what to write instead, before either engine starts, so both answer
// alike. So are inline flags other than the leading (?i) (JavaScript refuses them on Node 20 and
// reads (?i:...) on newer Node: refused on every Node alike), and a backreference to a group that
// does not exist (JavaScript reads \2 then as the octal escape U+0002).

import { lineForms, type NormalForm } from './grep-unicode-forms.js';

export interface SearchPattern {
  source: string;
  flags: string;
  /** The Unicode forms each line is also matched in, when the pattern spells an accented letter (grep-unicode-forms.ts). */
  forms?: NormalForm[];
}

/** The pattern as JavaScript compiles it, or why it is refused. */
export function compileSearchPattern(pattern: string): SearchPattern | string {
  const caseless = pattern.startsWith('(?i)');
  const source = caseless ? pattern.slice(4) : pattern;
  const flags = caseless ? 'i' : '';
  if (source === '') return 'pattern is empty';
  // First: (?s) is no valid JavaScript on Node 20, and "Invalid group" would not say why.
  const foreign = foreignSyntax(source);
  if (foreign) return `unsupported in the pattern (a JavaScript regular expression): ${foreign}`;
  try {
    new RegExp(source, flags);
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`;
  }
  const forms = lineForms(source);
  return forms.length ? { source, flags, forms } : { source, flags };
}

/** `[:alpha:]`, alone or inside a class (`[[:alpha:]]`): no POSIX class in JavaScript. */
const POSIX_CLASS = /^\[:(alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]/;

/** Escapes JavaScript reads as the letter itself, with what was likely meant. */
const LETTER_HINTS: Record<string, string> = {
  A: 'use ^ (a line start)',
  z: 'use $ (a line end)',
  Z: 'use $ (a line end)',
  Q: 'escape each special character with \\ instead',
  E: 'escape each special character with \\ instead',
  h: 'use [ \\t]',
  e: 'use \\x1b',
  p: 'use a class such as [A-Za-z\\u00C0-\\u024F]',
  P: 'use a negated class such as [^A-Za-z]',
};

/** Why `source` (valid JavaScript) is refused, or null; see the file comment. */
export function foreignSyntax(source: string): string | null {
  const groups = capturingGroups(source);
  const named = /\(\?<[^=!]/.test(source);
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const problem = escapeProblem(source, i, inClass, groups, named);
      if (problem) return problem;
      i++;
    } else if (ch === '[' && POSIX_CLASS.test(source.slice(i))) {
      return posixProblem(source.slice(i));
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
    } else if (ch === '{' && /^\{,\d+\}/.test(source.slice(i))) {
      return `'${/^\{,\d+\}/.exec(source.slice(i))![0]}', which JavaScript reads as text; write {0,n}`;
    } else if (ch === '(' && source.startsWith('?P<', i + 1)) {
      return `the named group '(?P<'; write (?<name>…)`;
    } else if (ch === '(' && source[i + 1] === '?' && /[A-Za-z-]/.test(source[i + 2] ?? '')) {
      const flags = /^\(\?[A-Za-z-]*[:)]?/.exec(source.slice(i))![0];
      return `the inline flags '${flags}': only (?i), at the very start, is read (ignore case)`;
    }
  }
  return null;
}

function posixProblem(rest: string): string {
  const name = POSIX_CLASS.exec(rest)![1]!;
  const spelled: Record<string, string> = { alpha: '[A-Za-z]', digit: '\\d or [0-9]', alnum: '[A-Za-z0-9]', space: '\\s', upper: '[A-Z]', lower: '[a-z]', word: '\\w', xdigit: '[0-9A-Fa-f]' };
  return `the POSIX class [:${name}:]; write ${spelled[name] ?? 'a class of the characters meant'}`;
}

/** The problem with the escape at `source[i]` (a backslash), or null when JavaScript reads it as meant. */
function escapeProblem(source: string, i: number, inClass: boolean, groups: number, named: boolean): string | null {
  const c = source[i + 1];
  if (c === undefined) return null; // JavaScript refused it already
  const rest = source.slice(i + 2);
  if (/[0-9]/.test(c)) {
    const digits = /^[0-9]*/.exec(source.slice(i + 1))![0];
    if (c === '0' && digits.length === 1) return null; // NUL
    if (!inClass && c !== '0' && Number(digits) <= groups) return null; // a backreference
    return inClass || c === '0'
      ? `the octal escape '\\${digits}'; write \\xHH or \\uHHHH`
      : `'\\${digits}' refers to no group (the pattern has ${groups}); JavaScript would read an octal escape`;
  }
  if (!/[A-Za-z]/.test(c)) return null; // \. \- \/ \\ \  ...: the character itself, as meant
  if ('bdDsSwWfnrtv'.includes(c) || (c === 'B' && !inClass)) return null;
  if (c === 'c' && (inClass ? /^[A-Za-z0-9_]/ : /^[A-Za-z]/).test(rest)) return null;
  if (c === 'x' && /^[0-9A-Fa-f]{2}/.test(rest)) return null;
  if (c === 'u' && /^[0-9A-Fa-f]{4}/.test(rest)) return null;
  if (c === 'k' && named && !inClass) return null; // \k<name>: JavaScript checked the name
  if ((c === 'x' || c === 'u') && rest.startsWith('{')) return `'\\${c}{…}'; write \\xHH or \\uHHHH (four hex digits)`;
  if (c === 'p' || c === 'P') return `'\\${c}' (a Unicode property, in other dialects); ${LETTER_HINTS[c]}`;
  return `'\\${c}', which JavaScript reads as the letter ${c}${LETTER_HINTS[c] ? `; ${LETTER_HINTS[c]}` : ''}`;
}

/** The capturing groups of `source`: `(` not followed by `?`, and named groups. */
function capturingGroups(source: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(' && (source[i + 1] !== '?' || /^\?<[^=!]/.test(source.slice(i + 1)))) count++;
  }
  return count;
}

/**
 * Whether `source` spells a line break outside a class (`\n`, `\x0a`, `\u000a`, `\cJ`, or the
 * character itself): grep matches each line without its line break, so that part of a pattern
 * matches no line. ripgrep refuses such a pattern without --multiline; here the answer of no match
 * says why, or it reads as "the text is not there".
 */
export function spellsLineBreak(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const rest = source.slice(i + 1, i + 6);
      if (!inClass && (/^n/.test(rest) || /^x0a/i.test(rest) || /^u000a/i.test(rest) || /^cj/i.test(rest))) return true;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
    } else if (ch === '\n') {
      return true;
    }
  }
  return false;
}
