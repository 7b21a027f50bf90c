// Issue 10 §6: binary content that follows text in a file (past the first 8 KB that decide
// "binary file"), and binary shell output, are described to the model, never sent raw.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

/** Random bytes with NULs and invalid UTF-8, as in an archive or a core dump. */
const blob = (n: number) => Buffer.concat([Buffer.from([0, 0xff, 0xfe, 1, 2, 3]), randomBytes(n)]);
const textLines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} of a shell script with an archive appended`).join('\n');

function expectNoRawBinary(out: string): void {
  expect(out).not.toContain('\u0000');
  expect(out).not.toContain('\ufffd');
}

describe('binary after text', () => {
  // 400 lines of ~50 chars: 20 KB of text, past the 8 KB sniff, then the binary.
  const script = Buffer.concat([Buffer.from(`${textLines(400)}\n`), blob(4096)]);

  it('read_file shows the text and describes the binary', async () => {
    const ws = makeWorkspace({ 'installer.sh': script });
    const out = text(await call(ws.tool('read_file'), { absolute_path: `${ws.root}/installer.sh` }));
    expectNoRawBinary(out);
    expect(out).toContain('line 400 of a shell script');
    expect(out).toMatch(/\[binary content from line 401 on \(\d+\.\d KB file\): not shown\]$/);
  });

  it('read_file paged into the binary part describes it instead of sending it', async () => {
    const ws = makeWorkspace({ 'installer.sh': script });
    const out = text(await call(ws.tool('read_file'), { absolute_path: `${ws.root}/installer.sh`, offset: 400 }));
    expect(out).toMatch(/^\[binary content from line 401 on/);
    expectNoRawBinary(out);
  });

  it('read_many_files shows the text and describes the binary', async () => {
    const ws = makeWorkspace({ 'installer.sh': script, 'plain.txt': 'plain\n' });
    const out = text(await call(ws.tool('read_many_files'), { paths: ['installer.sh', 'plain.txt'] }));
    expectNoRawBinary(out);
    expect(out).toContain('line 400 of a shell script');
    expect(out).toContain('[binary content from line 401 on: not shown]');
    expect(out).toContain('--- plain.txt ---\nplain');
  });

  it('a Latin-1 text file is still text', async () => {
    const ws = makeWorkspace({ 'notes.txt': Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n'.repeat(3), 'latin1') });
    const out = text(await call(ws.tool('read_file'), { absolute_path: `${ws.root}/notes.txt` }));
    expect(out).toContain('caf');
    expect(out).not.toContain('binary');
  });
});

describe('grep with path naming a binary file', () => {
  // ripgrep and grep answer 'binary file matches' for a file named on their command line; 'No
  // matches … searched 0 files, [1 binary file skipped]' read as 'it is not in there'.
  it.each([{ engine: 'javascript' as const }, { engine: undefined }])('says whether it matches, never shows its bytes (engine: $engine)', async ({ engine }) => {
    const ws = makeWorkspace({ 'app.bin': Buffer.concat([blob(64), Buffer.from('\nversion=4.2.1\n'), blob(64)]), 'src/a.txt': 'version=1\n' });
    const grep = createBuiltinTools({ ...ws.ctx, grepEngine: engine }, ['grep'])[0]!;
    for (const pattern of ['version=4', '(?i)VERSION=\\d']) {
      const out = text(await call(grep, { pattern, path: 'app.bin' }));
      expect(out).toBe(`Binary file app.bin matches /${pattern}/ (the lines of a binary file are not shown).`);
      expectNoRawBinary(out);
    }
    expect(text(await call(grep, { pattern: 'version=9', path: 'app.bin' }))).toBe('No matches for /version=9/ in app.bin (a binary file, searched whole).');
    // In a directory, binary files are still skipped, and counted.
    expect(text(await call(grep, { pattern: 'version=', path: '.' }))).toBe('src/a.txt:1: version=1\n[1 binary file skipped]');
  });

  it.each([{ engine: 'javascript' as const }, { engine: undefined }])('says a UTF-16 file was not searched, rather than that it holds no match (engine: $engine)', async ({ engine }) => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Write-Host "version=4"\r\n', 'utf16le')]);
    const ws = makeWorkspace({ 'setup.ps1': utf16 });
    const grep = createBuiltinTools({ ...ws.ctx, grepEngine: engine }, ['grep', 'read_file']).find((tool) => tool.name === 'grep')!;
    expect(text(await call(grep, { pattern: 'version=4', path: 'setup.ps1' }))).toBe('setup.ps1 is UTF-16LE text, which grep does not search (it searches UTF-8 text): it was not searched; read it with read_file, which decodes it.');
    expect(text(await call(grep.forTools(['grep']), { pattern: 'version=4', path: 'setup.ps1' }))).toBe('setup.ps1 is UTF-16LE text, which grep does not search (it searches UTF-8 text): it was not searched.');
  });
});

describe('binary shell output', () => {
  it('text then binary: the text is kept, the binary described with its size', async () => {
    // Without a newline byte in the blob, so the binary part starts at a known line.
    const ws = makeWorkspace({ 'blob.bin': Buffer.from(blob(3000).filter((b) => b !== 10)) });
    const out = text(await call(ws.tool('shell'), { command: "echo 'header line'; cat blob.bin; printf '\\0\\0\\0'" }));
    expectNoRawBinary(out);
    expect(out).toMatch(/Stdout:\nheader line\n\[binary output from line 2 on \(\d+ bytes in all\): not shown\]/);
  });

  it('binary only (cat of an image): described, exit code kept', async () => {
    const ws = makeWorkspace({ 'img.bin': blob(5000) });
    const out = text(await call(ws.tool('shell'), { command: 'cat img.bin' }));
    expectNoRawBinary(out);
    expect(out).toMatch(/^Exit code: 0\nStdout:\n\[binary output from line 1 on \(5006 bytes in all\): not shown\]$/);
  });

  it.each([
    { name: 'a backspace spinner', command: "printf 'Installing |\\b/\\b-\\b\\\\\\b|\\b/\\b-\\b done\\n'; echo 'RESULT: 3 tests FAILED'", shown: 'Installing |\b/\b-\b\\\b|\b/\b-\b done\nRESULT: 3 tests FAILED' },
    { name: 'a bar drawn back with backspaces', command: "printf 'progress: [\\b\\b\\b\\b\\b\\b] 50%%\\n'; echo important line", shown: 'progress: [\b\b\b\b\b\b] 50%\nimportant line' },
    // The title's escape sequence is removed (a count says so); the bells are text.
    { name: 'a bell and a terminal title', command: "printf '\\033]0;building\\007\\a\\a\\a\\a done\\n'", shown: '\u0007\u0007\u0007\u0007 done\n[1 terminal escape sequence (colours, cursor moves) removed]' },
  ])('terminal progress output is text: $name', async ({ command, shown }) => {
    const ws = makeWorkspace();
    const result = await call(ws.tool('shell'), { command });
    expect(text(result)).toBe(`Exit code: 0\nStdout:\n${shown}`);
    expect(result.fullOutput).toBeUndefined();
  });
});

