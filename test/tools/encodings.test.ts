// Text that is not UTF-8. The file tools read and write UTF-8; a Latin-1 file read_file showed
// with U+FFFD and no word, edit refused, and write_file then wrote U+FFFD over every accented
// character without a word. A UTF-16 file (with its byte order mark) was "Binary file".
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const latin1 = Buffer.from('Se\xf1or caf\xe9, ni\xf1o, acci\xf3n\n', 'latin1');
const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hola\r\nseñor\r\n', 'utf16le')]);
const utf16be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('hola\nseñor\n', 'utf16le').swap16()]));
const NOTE = "edit and write_file write only UTF-8 and refuse it; change it with the shell (sed works on its bytes, iconv converts it)]";
/** An agent with the file tools and the shell: the notes name them all. */
const ALL = ['read_file', 'edit', 'write_file', 'shell'];

describe('read_file', () => {
  it('says a file is not valid UTF-8', async () => {
    const ws = makeWorkspace({ 'lat.txt': latin1 });
    expect(text(await call(ws.tool('read_file').forTools(ALL), { absolute_path: path.join(ws.root, 'lat.txt') }))).toBe(
      `Se\ufffdor caf\ufffd, ni\ufffdo, acci\ufffdn\n[lat.txt is not valid UTF-8 (Latin-1 or another encoding?): each byte that is not UTF-8 is shown as \ufffd; ${NOTE}`,
    );
  });

  it('says so of a large file read in pieces too', async () => {
    const ws = makeWorkspace({ 'big.txt': Buffer.concat([Buffer.from('plain line\n'.repeat(200_000)), latin1]) });
    const out = text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'big.txt'), offset: 199_999 }));
    expect(out).toContain('Se\ufffdor caf\ufffd');
    expect(out).toContain('[big.txt is not valid UTF-8');
  });

  it('says nothing of a UTF-8 file, one holding U+FFFD itself included', async () => {
    const ws = makeWorkspace({ 'u.txt': 'señor \ufffd\n' });
    expect(text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'u.txt') }))).toBe('señor \ufffd');
  });

  it.each([
    { name: 'little-endian', bytes: utf16le, order: 'little-endian' },
    { name: 'big-endian', bytes: utf16be, order: 'big-endian' },
  ])('decodes UTF-16 text with a byte order mark ($name) and says what it is', async ({ bytes, order }) => {
    const ws = makeWorkspace({ 'u16.txt': bytes });
    expect(text(await call(ws.tool('read_file').forTools(ALL), { absolute_path: path.join(ws.root, 'u16.txt') }))).toBe(
      `hola\nseñor\n[u16.txt is UTF-16 text (${order}, with a byte order mark), shown decoded; ${NOTE}`,
    );
  });
});

describe('write_file and edit', () => {
  it.each([
    { name: 'Latin-1', bytes: latin1, what: 'not valid UTF-8 (Latin-1 or another encoding, or binary)' },
    { name: 'UTF-16', bytes: utf16le, what: 'UTF-16 text' },
  ])('write_file refuses to rewrite a $name file, which stays as it was', async ({ bytes, what }) => {
    const ws = makeWorkspace({ 'f.txt': bytes });
    const result = await call(ws.tool('write_file').forTools(ALL), { file_path: 'f.txt', content: 'Se\ufffdor caf\ufffd, ni\ufffdo, acci\ufffdn\n' });
    expect(result.error?.type).toBe('invalid_params');
    expect(text(result)).toBe(
      `Error: 'f.txt' is ${what}; the file tools write only UTF-8, and rewriting it would change each of its characters that is not UTF-8 (into U+FFFD, or into UTF-8), so it is left as it is. Change it with the shell (sed works on its bytes, iconv converts it), or remove it first to replace it`,
    );
    expect(fs.readFileSync(path.join(ws.root, 'f.txt'))).toEqual(bytes);
  });

  it('edit refuses a Latin-1 file with the same way on', async () => {
    const ws = makeWorkspace({ 'f.txt': latin1 });
    const result = await call(ws.tool('edit').forTools(ALL), { file_path: 'f.txt', old_string: 'caf', new_string: 'CAF' });
    expect(text(result)).toMatch(/^Error: 'f\.txt' is not valid UTF-8 .* Change it with the shell/);
    expect(fs.readFileSync(path.join(ws.root, 'f.txt'))).toEqual(latin1);
  });
});

describe('the notes name only the tools the calling agent has', () => {
  // A sub-agent given read_file alone (or a run with --tools read_file) was sent to edit,
  // write_file and a shell it could not call.
  it.each([
    { tools: ['read_file'], way: '' },
    { tools: ['read_file', 'edit'], way: '; edit writes only UTF-8 and refuses it' },
    { tools: ['read_file', 'write_file', 'shell'], way: '; write_file writes only UTF-8 and refuses it; change it with the shell (sed works on its bytes, iconv converts it)' },
  ])('read_file on Latin-1 and UTF-16 text, for an agent with $tools', async ({ tools, way }) => {
    const ws = makeWorkspace({ 'lat.txt': latin1, 'u16.txt': utf16le });
    const tool = ws.tool('read_file').forTools(tools);
    expect(text(await call(tool, { absolute_path: path.join(ws.root, 'lat.txt') }))).toBe(
      `Se\ufffdor caf\ufffd, ni\ufffdo, acci\ufffdn\n[lat.txt is not valid UTF-8 (Latin-1 or another encoding?): each byte that is not UTF-8 is shown as \ufffd${way}]`,
    );
    expect(text(await call(tool, { absolute_path: path.join(ws.root, 'u16.txt') }))).toBe(`hola\nseñor\n[u16.txt is UTF-16 text (little-endian, with a byte order mark), shown decoded${way}]`);
  });

  it('read_file on UTF-16 text too large to decode names the shell only to an agent with one', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a line of UTF-16 text\n'.repeat(40_000), 'utf16le')]);
    const ws = makeWorkspace({ 'big16.txt': big });
    const read = (tools: string[]) => call(ws.tool('read_file').forTools(tools), { absolute_path: path.join(ws.root, 'big16.txt') }).then(text);
    expect(await read(['read_file', 'shell'])).toMatch(/^big16\.txt is UTF-16 text \([\d.]+ MB\), too large to decode here; convert it with the shell: iconv -f UTF-16 -t UTF-8$/);
    expect(await read(['read_file'])).toMatch(/^big16\.txt is UTF-16 text \([\d.]+ MB\), too large to decode here$/);
  });

  it('read_file on a directory points at ls, else glob, else nothing', async () => {
    const ws = makeWorkspace({ 'd/a.txt': 'a\n' });
    const read = (tools: string[]) => call(ws.tool('read_file').forTools(tools), { absolute_path: path.join(ws.root, 'd') }).then(text);
    expect(await read(['read_file', 'ls', 'glob'])).toBe("Error: 'd' is a directory; use ls");
    expect(await read(['read_file', 'glob'])).toBe("Error: 'd' is a directory; use glob");
    expect(await read(['read_file'])).toBe("Error: 'd' is a directory");
  });

  it.each(['edit', 'write_file'])('%s refuses a Latin-1 file without sending an agent with no shell to one', async (name) => {
    const ws = makeWorkspace({ 'f.txt': latin1 });
    const params = name === 'edit' ? { file_path: 'f.txt', old_string: 'caf', new_string: 'CAF' } : { file_path: 'f.txt', content: 'Senor\n' };
    const result = await call(ws.tool(name).forTools(['read_file', 'edit', 'write_file']), params);
    expect(result.error?.type).toBe('invalid_params');
    expect(text(result)).toMatch(/, so it is left as it is; no tool you have can change it$/);
    expect(fs.readFileSync(path.join(ws.root, 'f.txt'))).toEqual(latin1);
  });

  it("edit's empty old_string on an existing file names write_file only to an agent that has it", async () => {
    const ws = makeWorkspace({ 'f.txt': 'old\n' });
    const create = (tools: string[]) => call(ws.tool('edit').forTools(tools), { file_path: 'f.txt', old_string: '', new_string: 'new\n' }).then(text);
    expect(await create(['edit', 'write_file'])).toBe("Error: 'f.txt' already exists: give the text to replace as old_string, or use write_file");
    expect(await create(['edit'])).toBe("Error: 'f.txt' already exists: give the text to replace as old_string");
    expect(ws.read('f.txt')).toBe('old\n');
  });
});

describe('read_many_files', () => {
  it('says which files are not UTF-8, and names a UTF-16 one instead of calling it binary', async () => {
    const ws = makeWorkspace({ 'a.txt': latin1, 'b.txt': 'fine\n', 'c.txt': utf16le });
    expect(text(await call(ws.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['a.txt', 'b.txt', 'c.txt'] }))).toBe(
      `--- a.txt ---\nSe\ufffdor caf\ufffd, ni\ufffdo, acci\ufffdn\n[a.txt is not valid UTF-8: each byte that is not is shown as \ufffd; read_file says more]\n--- b.txt ---\nfine\n\n[skipped: c.txt (UTF-16 text: use read_file)]`,
    );
  });
});
