// grep's pattern language is one, whichever engine runs (src/tools/builtin/grep-pattern.ts): a
// JavaScript regular expression, matched against each line without its line break. Syntax of
// other dialects that JavaScript would silently read as something else is refused with what to
// write instead, the same through ripgrep and through the JavaScript walk.
import { afterAll, describe, expect, it } from 'vitest';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { cleanupAll, loggedRipgrep, makeWorkspace } from './helpers.js';

const realRg = findRipgrep(process.env.PATH);
afterAll(cleanupAll);

const ws = makeWorkspace({
  'notes.txt': 'alpha beta\np{L} literally\nxxxxx\nend.\n',
  'crlf.txt': 'first line;\r\nsecond line \r\nthird\r\n',
});
const { grep } = loggedRipgrep(ws, realRg ?? '/bin/false');
const engines = realRg ? ([undefined, 'javascript'] as const) : (['javascript'] as const);

describe('grep refuses syntax JavaScript would read as something else', () => {
  it.each([
    { pattern: '\\p{L}+', says: "'\\p' (a Unicode property, in other dialects); use a class such as [A-Za-z\\u00C0-\\u024F]" },
    { pattern: '[[:alpha:]]+', says: 'the POSIX class [:alpha:]; write [A-Za-z]' },
    { pattern: '[:space:]', says: 'the POSIX class [:space:]; write \\s' },
    { pattern: '\\Aalpha', says: "'\\A', which JavaScript reads as the letter A; use ^ (a line start)" },
    { pattern: 'end\\.\\z', says: "'\\z', which JavaScript reads as the letter z; use $ (a line end)" },
    { pattern: 'x\\x{41}', says: "'\\x{…}'; write \\xHH or \\uHHHH (four hex digits)" },
    { pattern: '(?s)alpha.beta', says: "the inline flags '(?s)': only (?i), at the very start, is read (ignore case)" },
    { pattern: 'alpha(?i)BETA', says: "the inline flags '(?i)': only (?i), at the very start, is read (ignore case)" },
    { pattern: '(?i:alpha)', says: "the inline flags '(?i:': only (?i), at the very start, is read (ignore case)" },
    { pattern: '(?P<w>alpha)', says: "the named group '(?P<'; write (?<name>…)" },
    { pattern: 'x{,3}', says: "'{,3}', which JavaScript reads as text; write {0,n}" },
    { pattern: '(a)\\2', says: "'\\2' refers to no group (the pattern has 1); JavaScript would read an octal escape" },
    { pattern: '[\\1]', says: "the octal escape '\\1'; write \\xHH or \\uHHHH" },
  ])('$pattern', async ({ pattern, says }) => {
    for (const engine of engines) {
      const result = await grep(engine, { pattern });
      expect(result.error?.type).toBe('invalid_params');
      expect(result.error?.message).toBe(`unsupported in the pattern (a JavaScript regular expression): ${says}`);
    }
  });

  it.each(['\\bbeta\\b', '(?i)ALPHA', '(a)l\\1?pha', '(?<w>x)\\k<w>', '\\x41|\\u0041|\\cJ|\\0', '[\\b\\-\\]]', 'end\\.$', '(?<=alpha )beta', '\\/|\\-'])('%s is read as JavaScript reads it', async (pattern) => {
    for (const engine of engines) expect((await grep(engine, { pattern })).error).toBeUndefined();
  });
});

describe('a line ends before its \\r\\n as before its \\n', () => {
  it.each([
    { pattern: ';$', shows: ['crlf.txt:1: first line;'] },
    { pattern: 'line\\s+$', shows: ['crlf.txt:2: second line'] },
    { pattern: '^third$', shows: ['crlf.txt:3: third'] },
    { pattern: '\\r', shows: [] },
  ])('$pattern', async ({ pattern, shows }) => {
    for (const engine of engines) {
      const { text } = await grep(engine, { pattern });
      expect(text.startsWith('No matches') ? [] : text.split('\n')).toEqual(shows);
    }
  });
});
