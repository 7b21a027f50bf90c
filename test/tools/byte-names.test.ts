// File names are bytes (src/tools/path-bytes.ts): a name that is not UTF-8 is shown with \xHH for
// each byte that is not, by ls, glob, grep (through ripgrep and in JavaScript alike) and
// read_many_files, and its own content is what is read. Node reads such a name with U+FFFD in
// it, which named no file: grep in JavaScript read the file whose name really holds U+FFFD twice
// instead, ripgrep's listing lost both files of a non-UTF-8 directory, glob listed one name twice.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { call, cleanupAll, loggedRipgrep, makeWorkspace, text } from './helpers.js';

const realRg = findRipgrep(process.env.PATH);
afterAll(cleanupAll);

const ws = makeWorkspace({ 'ok.txt': 'TODO ok\n', 'caf\ufffd.txt': 'TODO a real U+FFFD in the name\n', 'a\\x41.txt': 'TODO a backslash, an x and 41\n', '.gitignore': 'skip?.log\n' });
const at = (...parts: Array<string | Buffer>) => Buffer.concat([Buffer.from(ws.root), ...parts.map((part) => Buffer.concat([Buffer.from('/'), Buffer.from(part)]))]);
let bytesNamed = true;
try {
  fs.writeFileSync(at(Buffer.from('caf\xe9.txt', 'latin1')), 'TODO a Latin-1 name\n');
  fs.mkdirSync(at(Buffer.from('d\xff', 'latin1')));
  fs.writeFileSync(at(Buffer.from('d\xff', 'latin1'), 'inner.txt'), 'TODO inside a Latin-1 directory\n');
  // git's `?` is one byte: it matches the Latin-1 é (one byte) as it would not match a UTF-8 é (two).
  fs.writeFileSync(at(Buffer.from('skip\xe9.log', 'latin1')), 'TODO ignored\n');
} catch {
  bytesNamed = false; // a file system that takes UTF-8 names only
}
const { grep } = loggedRipgrep(ws, realRg ?? '/bin/false');

describe.skipIf(!bytesNamed)('names that are not UTF-8', () => {
  it('grep shows each name once, as \\xHH, with its own lines, through either engine', async () => {
    const expected = [
      '.gitignore:1: skip?.log',
      'a\\x5Cx41.txt:1: TODO a backslash, an x and 41',
      'caf\\xE9.txt:1: TODO a Latin-1 name',
      'caf\ufffd.txt:1: TODO a real U+FFFD in the name',
      'd\\xFF/inner.txt:1: TODO inside a Latin-1 directory',
      'ok.txt:1: TODO ok',
    ];
    expect((await grep('javascript', { pattern: 'TODO|skip' })).text.split('\n')).toEqual(expected);
    if (realRg) expect(await grep(undefined, { pattern: 'TODO|skip' })).toEqual(await grep('javascript', { pattern: 'TODO|skip' }));
    if (realRg) expect(await grep(undefined, { pattern: 'Latin-1' })).toEqual(await grep('javascript', { pattern: 'Latin-1' }));
  });

  it('glob, ls and read_many_files show the same names, and read the right file', async () => {
    expect(text(await call(ws.tool('glob'), { pattern: '**/*' })).split('\n')).toEqual(['.gitignore', 'a\\x5Cx41.txt', 'caf\\xE9.txt', 'caf\ufffd.txt', 'd\\xFF/inner.txt', 'ok.txt']);
    expect(text(await call(ws.tool('ls'), {})).split('\n')).toEqual(['.gitignore', 'a\\x5Cx41.txt', 'caf\\xE9.txt', 'caf\ufffd.txt', 'd\\xFF/', 'ok.txt', '[1 hidden: gitignored, .git or node_modules]']);
    const read = text(await call(ws.tool('read_many_files'), { paths: ['.'] }));
    expect(read).toContain('--- caf\\xE9.txt ---\nTODO a Latin-1 name\n');
    expect(read).toContain('--- d\\xFF/inner.txt ---\nTODO inside a Latin-1 directory\n');
    expect(read).toContain('--- a\\x5Cx41.txt ---\nTODO a backslash, an x and 41\n');
  });
});

describe('names that are UTF-8', () => {
  it('are shown as they are', async () => {
    const plain = makeWorkspace({ 'naïve/日本.txt': 'TODO\n', 'a\\b.txt': 'TODO\n' });
    expect(text(await call(plain.tool('glob'), { pattern: '**/*' })).split('\n')).toEqual(['a\\b.txt', 'naïve/日本.txt']);
    expect(fs.existsSync(path.join(plain.root, 'a\\b.txt'))).toBe(true);
  });
});
