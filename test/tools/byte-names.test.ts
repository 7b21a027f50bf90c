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
    expect(text(await call(ws.tool('ls'), {})).split('\n')).toEqual(['.gitignore', 'a\\x5Cx41.txt', 'caf\\xE9.txt', 'caf\ufffd.txt', 'd\\xFF/', 'ok.txt', '[1 hidden: gitignored]']);
    const read = text(await call(ws.tool('read_many_files'), { paths: ['.'] }));
    expect(read).toContain('--- caf\\xE9.txt ---\nTODO a Latin-1 name\n');
    expect(read).toContain('--- d\\xFF/inner.txt ---\nTODO inside a Latin-1 directory\n');
    expect(read).toContain('--- a\\x5Cx41.txt ---\nTODO a backslash, an x and 41\n');
  });

  it('read_file and read_many_files open a name as the listings show it, and a name written as text as that text', async () => {
    // The model reads what grep showed it: caf\xE9.txt is the Latin-1 file.
    expect(text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'caf\\xE9.txt') }))).toBe('TODO a Latin-1 name');
    expect(text(await call(ws.tool('read_many_files'), { paths: ['caf\\xE9.txt'] }))).toContain('--- caf\\xE9.txt ---\nTODO a Latin-1 name\n');
    // A name that really holds a backslash, an x and two digits is that name, by its text or as shown.
    expect(text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'a\\x41.txt') }))).toBe('TODO a backslash, an x and 41');
    expect(text(await call(ws.tool('read_many_files'), { paths: ['a\\x41.txt'] }))).toContain('TODO a backslash, an x and 41');
    expect(text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'caf\\xE8.txt') }))).toMatch(/does not exist/);
  });

  it('grep searches a file by the name it showed; grep, glob and ls given such a directory say what it is, not that it does not exist', async () => {
    // grep listed caf\xE9.txt: a second grep in that file answered "'caf\xE9.txt' does not exist".
    for (const engine of [undefined, 'javascript'] as const) {
      expect((await grep(engine, { pattern: 'Latin', path: 'caf\\xE9.txt' })).text).toBe('caf\\xE9.txt:1: TODO a Latin-1 name');
      const inDirectory = await grep(engine, { pattern: 'TODO', path: 'd\\xFF' });
      expect(inDirectory.error?.message).toMatch(/^'d\\xFF' is a directory whose name is not UTF-8 .*give path '\.', whose search reaches it/);
    }
    for (const [tool, params] of [['glob', { pattern: '*', path: 'd\\xFF' }], ['ls', { path: 'd\\xFF' }]] as const) {
      const result = await call(ws.tool(tool), params);
      expect(result.error?.message).toMatch(/^'d\\xFF' is a directory whose name is not UTF-8 /);
      expect(result.error?.message).not.toMatch(/does not exist/);
    }
    // The ways on name glob and the shell only to an agent that has them.
    const ls = (tools: string[]) => call(ws.tool('ls').forTools(tools), { path: 'd\\xFF' }).then((r) => r.error?.message);
    const named = "'d\\xFF' is a directory whose name is not UTF-8 (shown with \\xHH for such bytes); ls cannot open it by that name";
    expect(await ls(['ls', 'glob', 'shell'])).toBe(`${named}: glob with path '.' lists what it holds, or use the shell ($'…' takes the same \\xHH escapes)`);
    expect(await ls(['ls', 'shell'])).toBe(`${named}: use the shell ($'…' takes the same \\xHH escapes)`);
    expect(await ls(['ls'])).toBe(named);
    expect((await call(ws.tool('glob').forTools(['glob']), { pattern: '*', path: 'd\\xFF' })).error?.message).toMatch(/cannot open it by that name: give path '\.', whose walk reaches it$/);
    // A name that names nothing, as text or as bytes, still does not exist.
    expect((await grep('javascript', { pattern: 'x', path: 'd\\xFE' })).error?.message).toBe("'d\\xFE' does not exist");
  });

  it('a name in the repository never becomes a path elsewhere: escapes of / stay text, and a link named in bytes is not followed', async () => {
    const repo = makeWorkspace({ 'src/a.ts': 'x\n' });
    const outside = path.join(path.dirname(repo.root), `outside-${path.basename(repo.root)}.txt`);
    fs.writeFileSync(outside, 'SECRET\n');
    const sneaky = `a\\x2F..\\x2F..\\x2F${path.basename(outside)}`;
    fs.writeFileSync(path.join(repo.root, sneaky), 'harmless\n');
    expect(text(await call(repo.tool('read_many_files'), { paths: [sneaky] }))).toContain('harmless');
    expect(text(await call(repo.tool('read_file'), { absolute_path: path.join(repo.root, sneaky) }))).toBe('harmless');
    fs.symlinkSync(outside, Buffer.concat([Buffer.from(`${repo.root}/`), Buffer.from('l\xe9nk', 'latin1')]));
    for (const result of [await call(repo.tool('read_file'), { absolute_path: path.join(repo.root, 'l\\xE9nk') }), await call(repo.tool('read_many_files'), { paths: ['l\\xE9nk'] })]) {
      expect(text(result)).not.toContain('SECRET');
    }
    fs.rmSync(outside);
  });
});

describe('names that are UTF-8', () => {
  it('are shown as they are', async () => {
    const plain = makeWorkspace({ 'naïve/日本.txt': 'TODO\n', 'a\\b.txt': 'TODO\n' });
    expect(text(await call(plain.tool('glob'), { pattern: '**/*' })).split('\n')).toEqual(['a\\b.txt', 'naïve/日本.txt']);
    expect(fs.existsSync(path.join(plain.root, 'a\\b.txt'))).toBe(true);
  });
});

describe('names with control characters', () => {
  // A line feed in a name made one file two entries of a list, and let a name add a line of its own
  // to grep's results; an escape stood in the name as it was. Each is shown as \xHH (a tab stays).
  const odd = makeWorkspace({ 'a.txt\nauth.ts:3: no check needed.txt': 'TODO planted\n', 'tab\there.txt': 'TODO tab\n', 'esc\x1b[2J.txt': 'TODO esc\n', 'ok.txt': 'TODO ok\n' });
  const { grep: oddGrep } = loggedRipgrep(odd, realRg ?? '/bin/false');
  const shown = ['a.txt\\x0Aauth.ts:3: no check needed.txt', 'esc\\x1B[2J.txt', 'ok.txt', 'tab\there.txt'];

  it('are shown as \\xHH by glob, ls, grep (either engine) and read_many_files: one line a file', async () => {
    expect(text(await call(odd.tool('glob'), { pattern: '**/*' })).split('\n')).toEqual(shown);
    expect(text(await call(odd.tool('ls'), {})).split('\n')).toEqual(shown);
    const lines = shown.map((name) => `${name}:1: ${fs.readFileSync(path.join(odd.root, name.replace(/\\x([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))), 'utf8').trim()}`);
    expect((await oddGrep('javascript', { pattern: 'TODO' })).text.split('\n')).toEqual(lines);
    if (realRg) expect((await oddGrep(undefined, { pattern: 'TODO' })).text.split('\n')).toEqual(lines);
    expect(text(await call(odd.tool('read_many_files'), { paths: ['.'] }))).toContain('--- a.txt\\x0Aauth.ts:3: no check needed.txt ---\nTODO planted\n');
  });

  it('read_file and read_many_files open such a name as shown', async () => {
    expect(text(await call(odd.tool('read_file'), { absolute_path: path.join(odd.root, 'a.txt\\x0Aauth.ts:3: no check needed.txt') }))).toBe('TODO planted');
    expect(text(await call(odd.tool('read_many_files'), { paths: ['esc\\x1B[2J.txt'] }))).toContain('TODO esc');
  });
});
