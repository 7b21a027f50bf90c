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

describe('read_file', () => {
  it('says a file is not valid UTF-8', async () => {
    const ws = makeWorkspace({ 'lat.txt': latin1 });
    expect(text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'lat.txt') }))).toBe(
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
    expect(text(await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'u16.txt') }))).toBe(
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
    const result = await call(ws.tool('write_file'), { file_path: 'f.txt', content: 'Se\ufffdor caf\ufffd, ni\ufffdo, acci\ufffdn\n' });
    expect(result.error?.type).toBe('invalid_params');
    expect(text(result)).toBe(
      `Error: 'f.txt' is ${what}; the file tools write only UTF-8, and rewriting it would change each of its characters that is not UTF-8 (into U+FFFD, or into UTF-8), so it is left as it is. Change it with the shell (sed works on its bytes, iconv converts it), or remove it first to replace it`,
    );
    expect(fs.readFileSync(path.join(ws.root, 'f.txt'))).toEqual(bytes);
  });

  it('edit refuses a Latin-1 file with the same way on', async () => {
    const ws = makeWorkspace({ 'f.txt': latin1 });
    const result = await call(ws.tool('edit'), { file_path: 'f.txt', old_string: 'caf', new_string: 'CAF' });
    expect(text(result)).toMatch(/^Error: 'f\.txt' is not valid UTF-8 .* Change it with the shell/);
    expect(fs.readFileSync(path.join(ws.root, 'f.txt'))).toEqual(latin1);
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
