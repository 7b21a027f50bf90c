import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileDiff } from '../../src/tools/tools.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const diffOf = (display: unknown) => display as FileDiff;
/** Names in a directory that are not the given ones: stray temp files would show here. */
const strays = (dir: string, expected: string[]) => fs.readdirSync(dir).filter((n) => !expected.includes(n));

describe('write_file', () => {
  it('creates a file and its parent directories, with a diff from nothing', async () => {
    const ws = makeWorkspace();
    const result = await call(ws.tool('write_file'), { file_path: 'deep/er/new.ts', content: 'a\nb\n' });
    expect(result.llmContent).toBe('Created deep/er/new.ts (2 lines).');
    expect(ws.read('deep/er/new.ts')).toBe('a\nb\n');
    expect(diffOf(result.returnDisplay)).toEqual({
      fileName: 'deep/er/new.ts',
      fileDiff: '--- /dev/null\n+++ b/deep/er/new.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n',
      originalContent: null,
      newContent: 'a\nb\n',
    });
  });

  it('overwrites atomically, keeping the mode, leaving no temp file', async () => {
    const ws = makeWorkspace({ 'run.sh': 'echo old\n' });
    fs.chmodSync(path.join(ws.root, 'run.sh'), 0o751);
    const inode = fs.statSync(path.join(ws.root, 'run.sh')).ino;
    const result = await call(ws.tool('write_file'), { file_path: path.join(ws.root, 'run.sh'), content: 'echo new\n' });
    expect(result.llmContent).toBe('Wrote run.sh (1 line).');
    const stat = fs.statSync(path.join(ws.root, 'run.sh'));
    expect(stat.mode & 0o777).toBe(0o751);
    // A new inode: the content was renamed into place, not written over the old file.
    expect(stat.ino).not.toBe(inode);
    expect(ws.read('run.sh')).toBe('echo new\n');
    expect(strays(ws.root, ['run.sh'])).toEqual([]);
    expect(diffOf(result.returnDisplay).fileDiff).toBe('--- a/run.sh\n+++ b/run.sh\n@@ -1,1 +1,1 @@\n-echo old\n+echo new\n');
  });

  it('writes nothing, and reports no change, when the file already holds exactly that content', async () => {
    const ws = makeWorkspace({ 'same.txt': 'same\n' });
    const file = path.join(ws.root, 'same.txt');
    const before = fs.statSync(file);
    const result = await call(ws.tool('write_file'), { file_path: 'same.txt', content: 'same\n' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('same.txt already has this content; nothing was written.');
    // Not a FileDiff: no change for the history (a read of it stays) or the report.
    expect(result.returnDisplay).toBe('Unchanged same.txt');
    expect(fs.statSync(file).ino).toBe(before.ino);
    // Bytes, not decoded text: a file that is not UTF-8 is not "unchanged" when its lossy reading
    // matches; it is refused (test/tools/encodings.test.ts).
    fs.writeFileSync(file, Buffer.from([0xff, 0x0a]));
    const lossy = await call(ws.tool('write_file'), { file_path: 'same.txt', content: '\ufffd\n' });
    expect(lossy.error?.type).toBe('invalid_params');
    expect(fs.readFileSync(file)).toEqual(Buffer.from([0xff, 0x0a]));
  });

  it('keeps the CRLF line endings of the file it writes over; new files and LF files get the text as given', async () => {
    const ws = makeWorkspace({ 'crlf.txt': 'a\r\nb\r\n', 'lf.txt': 'a\nb\n' });
    expect((await call(ws.tool('write_file'), { file_path: 'crlf.txt', content: 'x\ny\nz\n' })).llmContent).toBe('Wrote crlf.txt (3 lines, CRLF line endings kept).');
    expect(ws.read('crlf.txt')).toBe('x\r\ny\r\nz\r\n');
    await call(ws.tool('write_file'), { file_path: 'lf.txt', content: 'x\ny\n' });
    expect(ws.read('lf.txt')).toBe('x\ny\n');
    await call(ws.tool('write_file'), { file_path: 'new.txt', content: 'x\ny\n' });
    expect(ws.read('new.txt')).toBe('x\ny\n');
    // The same text, read back without \r and written again, is no change.
    expect((await call(ws.tool('write_file'), { file_path: 'crlf.txt', content: 'x\ny\nz\n' })).llmContent).toBe('crlf.txt already has this content; nothing was written.');
  });

  it('keeps the CRLF line endings of a file too large to keep for the diff (over 16 MB)', async () => {
    const ws = makeWorkspace({ 'big.csv': 'id,name\r\n' + '1,abcdefghijklmnopqrstuvwxyz\r\n'.repeat(600_000), 'big-lf.csv': 'id,name\n' + '1,x\n'.repeat(4_300_000) });
    expect(fs.statSync(path.join(ws.root, 'big.csv')).size).toBeGreaterThan(16 * 1024 * 1024);
    expect(fs.statSync(path.join(ws.root, 'big-lf.csv')).size).toBeGreaterThan(16 * 1024 * 1024);
    expect((await call(ws.tool('write_file'), { file_path: 'big.csv', content: 'id,name\n1,a\n' })).llmContent).toBe('Wrote big.csv (2 lines, CRLF line endings kept).');
    expect(ws.read('big.csv')).toBe('id,name\r\n1,a\r\n');
    await call(ws.tool('write_file'), { file_path: 'big-lf.csv', content: 'id,name\n1,a\n' });
    expect(ws.read('big-lf.csv')).toBe('id,name\n1,a\n');
  });

  it("keeps the UTF-8 byte-order mark of the file it writes over, as edit does (Windows PowerShell reads a script without one as ANSI)", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const ws = makeWorkspace({ 'run.ps1': Buffer.concat([bom, Buffer.from('Write-Host "café"\r\n')]), 'plain.txt': 'a\n' });
    expect((await call(ws.tool('write_file'), { file_path: 'run.ps1', content: 'Write-Host "thé"\n' })).llmContent).toBe('Wrote run.ps1 (1 line, CRLF line endings and byte-order mark kept).');
    expect(fs.readFileSync(path.join(ws.root, 'run.ps1'))).toEqual(Buffer.concat([bom, Buffer.from('Write-Host "thé"\r\n')]));
    // Content that has its own mark is written as given; the same text again is no change.
    expect((await call(ws.tool('write_file'), { file_path: 'run.ps1', content: '\ufeffWrite-Host "thé"\r\n' })).llmContent).toBe('run.ps1 already has this content; nothing was written.');
    expect((await call(ws.tool('write_file'), { file_path: 'run.ps1', content: 'Write-Host "thé"\n' })).llmContent).toBe('run.ps1 already has this content; nothing was written.');
    // A file without one gets none.
    await call(ws.tool('write_file'), { file_path: 'plain.txt', content: 'b\n' });
    expect(fs.readFileSync(path.join(ws.root, 'plain.txt'))).toEqual(Buffer.from('b\n'));
  });

  it('writes through a symlink inside the workspace to its real target', async () => {
    const ws = makeWorkspace({ 'real.txt': 'old\n' });
    fs.symlinkSync('real.txt', path.join(ws.root, 'alias.txt'));
    const result = await call(ws.tool('write_file'), { file_path: 'alias.txt', content: 'new\n' });
    expect(result.llmContent).toBe('Wrote real.txt (1 line).');
    expect(fs.lstatSync(path.join(ws.root, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(ws.read('real.txt')).toBe('new\n');
  });

  it.each<{ name: string; setup: Record<string, string>; params: object; type: string }>([
    { name: 'a directory', setup: { 'd/x': '' }, params: { file_path: 'd', content: '' }, type: 'not_a_file' },
    { name: 'a missing content', setup: {}, params: { file_path: 'a' }, type: 'invalid_params' },
    { name: 'a parent that is a file', setup: { f: 'x' }, params: { file_path: 'f/child.txt', content: '' }, type: 'not_a_directory' },
  ])('fails on $name', async ({ setup, params, type }) => {
    const ws = makeWorkspace(setup);
    const result = await call(ws.tool('write_file'), params);
    expect(result.error?.type).toBe(type);
  });
});

describe('edit', () => {
  const source = 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n';

  it('replaces one exact occurrence and tells the model where the new text is, with the diff for people', async () => {
    const ws = makeWorkspace({ 'src/a.ts': source });
    const result = await call(ws.tool('edit'), { file_path: 'src/a.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(result.error).toBeUndefined();
    // The call names the file and the text; the result adds only what the call cannot say.
    expect(result.llmContent).toBe('Replaced at line 2.');
    expect(ws.read('src/a.ts')).toBe('const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
    const diff = diffOf(result.returnDisplay);
    expect(diff.fileDiff).toContain('-const b = 2;\n+const b = 3;\n');
    expect(diff.originalContent).toBe(source);
    expect(diff.newContent).toBe(ws.read('src/a.ts'));
  });

  it('replaces every occurrence when the expected count matches', async () => {
    const ws = makeWorkspace({ 'a.ts': source });
    const result = await call(ws.tool('edit'), { file_path: 'a.ts', old_string: '= 1', new_string: '= $&1', expected_replacements: 2 });
    expect(result.llmContent).toBe('Replaced 2 times, at lines 1, 3.');
    // `$&` stays literal: no regex replacement semantics leak in.
    expect(ws.read('a.ts')).toBe('const a = $&1;\nconst b = 2;\nconst a2 = $&1;\n');
  });

  it.each([
    { name: 'a multi-line new text', old_string: 'const b = 2;\n', new_string: '// b\n// is\nconst b = 3;\n', says: 'Replaced at lines 2-4.' },
    { name: 'lines added before a later occurrence', old_string: 'const a', new_string: '// x\nconst a', says: 'Replaced 2 times, at lines 1-2, 4-5.' },
    { name: 'a deletion', old_string: 'const b = 2;\n', new_string: '', says: 'Replaced at line 2.' },
  ])('gives the lines of the edited file for $name', async ({ old_string, new_string, says }) => {
    const ws = makeWorkspace({ 'a.ts': source });
    const result = await call(ws.tool('edit'), { file_path: 'a.ts', old_string, new_string, expected_replacements: old_string === 'const a' ? 2 : 1 });
    expect(result.llmContent).toBe(says);
  });

  it('says what to do when old_string occurs fewer times than expected, not to add context', async () => {
    const ws = makeWorkspace({ 'a.ts': source });
    const result = await call(ws.tool('edit'), { file_path: 'a.ts', old_string: '= 1', new_string: '= 9', expected_replacements: 3 });
    expect(result.error?.type).toBe('edit_count_mismatch');
    expect(result.llmContent).toBe('Error: old_string occurs 2 times in a.ts, expected 3; nothing was changed: set expected_replacements=2 to replace those 2, or check old_string');
    const more = await call(ws.tool('edit'), { file_path: 'a.ts', old_string: '= 1', new_string: '= 9' });
    expect(more.llmContent).toBe('Error: old_string occurs 2 times in a.ts, expected 1; add context to make it unique, or set expected_replacements=2');
    expect(ws.read('a.ts')).toBe(source);
  });

  it.each([
    {
      name: 'a line break after the last line, which the file lacks',
      file: 'x = 1\ny = 2',
      old_string: 'y = 2\n',
      says: 'old_string not found in f.txt as written: the file does not end with a line break, and old_string does',
    },
    {
      name: 'spaces where the file has tabs',
      file: 'if (a) {\n\treturn 1;\n}\n',
      old_string: 'if (a) {\n    return 1;\n}',
      says: 'old_string not found in f.txt as written, but it is there with other spaces or tabs (tabs for spaces, or trailing spaces)',
    },
    { name: 'text that is not there', file: 'x = 1\n', old_string: 'y = 1', says: 'old_string not found in f.txt' },
  ])('says why old_string nearly matched: $name', async ({ file, old_string, says }) => {
    const ws = makeWorkspace({ 'f.txt': file });
    const result = await call(ws.tool('edit'), { file_path: 'f.txt', old_string, new_string: 'z' });
    expect(result.error?.type).toBe('edit_no_match');
    expect(result.llmContent).toBe(`Error: ${says}; read the file and copy the exact text, whitespace included`);
    expect(ws.read('f.txt')).toBe(file);
  });

  it('answers a miss at once in a file with a long run of spaces before text', async () => {
    // The near-miss check once ran a regexp that backtracked over such a run: quadratic, on the
    // run's own thread (50,000 spaces took some 10 s, 200,000 nearly five minutes).
    const ws = makeWorkspace({ 'pad.txt': `${' '.repeat(50_000)}x\n` });
    const started = performance.now();
    const result = await call(ws.tool('edit'), { file_path: 'pad.txt', old_string: 'y', new_string: 'z' });
    expect(result.error?.type).toBe('edit_no_match');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('lists the first ten places of many replacements and counts the rest', async () => {
    const ws = makeWorkspace({ 'n.txt': 'x\n'.repeat(12) });
    const result = await call(ws.tool('edit'), { file_path: 'n.txt', old_string: 'x', new_string: 'y', expected_replacements: 12 });
    expect(result.llmContent).toBe('Replaced 12 times, at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more.');
  });

  it('matches text the file holds in the other Unicode form (e + U+0301 for é), and writes the new text in the file\'s form', async () => {
    // Written on macOS, or pasted from a PDF: read_file shows 'café' alike; the model writes it composed.
    const ws = makeWorkspace({ 'menu.txt': 'cafe\u0301 au lait\nthe\u0301\n', 'nfc.txt': 'caf\u00e9\n' });
    const result = await call(ws.tool('edit'), { file_path: 'menu.txt', old_string: 'caf\u00e9 au lait\nth\u00e9', new_string: 'caf\u00e9 cr\u00e8me\nth\u00e9' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toMatch(/^Replaced at lines 1-2\. old_string matched as the file writes it, in Unicode form NFD/);
    expect(ws.read('menu.txt')).toBe('cafe\u0301 cre\u0300me\nthe\u0301\n');
    // And the other way round.
    expect((await call(ws.tool('edit'), { file_path: 'nfc.txt', old_string: 'cafe\u0301', new_string: 'the\u0301' })).error).toBeUndefined();
    expect(ws.read('nfc.txt')).toBe('th\u00e9\n');
    // Text that is not there in either form is still not found.
    expect((await call(ws.tool('edit'), { file_path: 'nfc.txt', old_string: 'caf\u00e9', new_string: 'x' })).error?.type).toBe('edit_no_match');
  });

  it('matches a CRLF file from LF text and keeps its line endings', async () => {
    const ws = makeWorkspace({ 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
    const result = await call(ws.tool('edit'), { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'one\n2' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('Replaced at lines 1-2.');
    expect(ws.read('w.txt')).toBe('one\r\n2\r\nthree\r\n');
  });

  it.each([
    { name: 'text added after a match on one line', old_string: 'foo', new_string: 'foo\nbar', expected: 'line1\r\nfoo\r\nbar\r\nline3\r\n' },
    { name: 'a new line replacing a word', old_string: 'line3', new_string: 'line3\nline4\n', expected: 'line1\r\nfoo\r\nline3\r\nline4\r\n\r\n' },
  ])('writes $name into a CRLF file with CRLF endings, never a bare LF', async ({ old_string, new_string, expected }) => {
    const ws = makeWorkspace({ 'crlf.txt': 'line1\r\nfoo\r\nline3\r\n' });
    const result = await call(ws.tool('edit'), { file_path: 'crlf.txt', old_string, new_string });
    expect(result.error).toBeUndefined();
    expect(ws.read('crlf.txt')).toBe(expected);
  });

  it.each([
    { name: 'LF lines of a mostly CRLF file stay LF', file: 'a\r\nb\r\nc\r\nx\ny\n', old_string: 'x\ny', new_string: 'x\nz', expected: 'a\r\nb\r\nc\r\nx\nz\n' },
    { name: 'CRLF lines of a mostly LF file are found from LF text and stay CRLF', file: 'a\nb\nc\nx\r\ny\r\n', old_string: 'x\ny', new_string: 'x\nz', expected: 'a\nb\nc\nx\r\nz\r\n' },
    { name: 'a line added to a CRLF line of a mostly LF file', file: 'a\nb\nc\nx\r\ny\r\n', old_string: 'y', new_string: 'y\nw', expected: 'a\nb\nc\nx\r\ny\r\nw\r\n' },
    { name: 'a line added to an LF line of a mostly CRLF file', file: 'a\r\nb\r\nc\r\nx\n', old_string: 'x', new_string: 'x\nw', expected: 'a\r\nb\r\nc\r\nx\nw\n' },
  ])('keeps each line ending of a file that mixes CRLF and LF: $name', async ({ file, old_string, new_string, expected }) => {
    const ws = makeWorkspace({ 'mixed.txt': file });
    const result = await call(ws.tool('edit'), { file_path: 'mixed.txt', old_string, new_string });
    expect(result.error).toBeUndefined();
    expect(ws.read('mixed.txt')).toBe(expected);
  });

  it('finds old_string written with CRLF in an LF file, and writes new_string with the file\'s LF', async () => {
    const ws = makeWorkspace({ 'lf.txt': 'a\nb\nc\n' });
    const result = await call(ws.tool('edit'), { file_path: 'lf.txt', old_string: 'b\r\nc', new_string: 'B\r\nC' });
    expect(result.error).toBeUndefined();
    expect(ws.read('lf.txt')).toBe('a\nB\nC\n');
  });

  it('says an edit that changes nothing but line endings the file keeps changed nothing', async () => {
    const ws = makeWorkspace({ 'c.txt': 'x\r\ny\r\n' });
    const result = await call(ws.tool('edit'), { file_path: 'c.txt', old_string: 'x\ny', new_string: 'x\r\ny' });
    expect(result.error?.type).toBe('edit_no_change');
    expect(result.llmContent).toBe('Error: replacing old_string by new_string leaves c.txt as it is (they differ only in line endings, and the file keeps its CRLF ones): nothing was changed');
    expect(ws.read('c.txt')).toBe('x\r\ny\r\n');
  });

  it('leaves a binary file that is valid UTF-8 (a tar of text files) alone, as read_file does not show it', async () => {
    // A tar header: the name, NUL padding, and an octal checksum of the header's bytes.
    const tar = Buffer.concat([Buffer.from('notes.txt'), Buffer.alloc(91), Buffer.from('0000644\0'), Buffer.alloc(400), Buffer.from('version = 1\n'), Buffer.alloc(500)]);
    const ws = makeWorkspace({ 'notes.tar': tar });
    expect(text(await call(ws.tool('read_file'), { absolute_path: `${ws.root}/notes.tar` }))).toMatch(/^Binary file notes.tar/);
    const result = await call(ws.tool('edit'), { file_path: 'notes.tar', old_string: 'version = 1', new_string: 'version = 22' });
    expect(result.error?.type).toBe('invalid_params');
    expect(text(result)).toMatch(/'notes.tar' is binary .*edit changes text files only/);
    expect(fs.readFileSync(path.join(ws.root, 'notes.tar'))).toEqual(tar);
  });

  it('keeps a UTF-8 byte order mark', async () => {
    const ws = makeWorkspace({ 'bom.txt': '\uFEFFhello\n' });
    await call(ws.tool('edit'), { file_path: 'bom.txt', old_string: 'hello', new_string: 'bye' });
    expect(fs.readFileSync(path.join(ws.root, 'bom.txt'))).toEqual(Buffer.from('\uFEFFbye\n'));
  });

  it('creates a missing file from an empty old_string', async () => {
    const ws = makeWorkspace();
    const result = await call(ws.tool('edit'), { file_path: 'new/file.md', old_string: '', new_string: '# hi\n' });
    expect(result.llmContent).toBe('Created new/file.md.');
    expect(ws.read('new/file.md')).toBe('# hi\n');
    expect(diffOf(result.returnDisplay).originalContent).toBeNull();
  });

  it('fills an empty file from an empty old_string, keeping its mode (the text it holds is all of nothing)', async () => {
    // A touched __init__.py: no old_string could name text in it, so an agent without write_file
    // could not write into it at all ('already exists: give the text to replace as old_string').
    const ws = makeWorkspace({ 'pkg/__init__.py': '' });
    fs.chmodSync(path.join(ws.root, 'pkg/__init__.py'), 0o640);
    const result = await call(ws.tool('edit').forTools(['edit']), { file_path: 'pkg/__init__.py', old_string: '', new_string: 'from .a import b\n' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('Wrote pkg/__init__.py, which was empty.');
    expect(ws.read('pkg/__init__.py')).toBe('from .a import b\n');
    expect(fs.statSync(path.join(ws.root, 'pkg/__init__.py')).mode & 0o777).toBe(0o640);
    expect(diffOf(result.returnDisplay).fileDiff).toContain('+from .a import b');
  });

  it.each([
    { name: 'no match', params: { old_string: 'nope', new_string: 'x' }, type: 'edit_no_match', message: /not found in a\.ts/ },
    {
      name: 'more matches than expected',
      params: { old_string: '= 1', new_string: '= 9' },
      type: 'edit_count_mismatch',
      message: /occurs 2 times in a\.ts, expected 1.*expected_replacements=2/,
    },
    {
      name: 'fewer matches than expected',
      params: { old_string: 'b = 2', new_string: 'b', expected_replacements: 3 },
      type: 'edit_count_mismatch',
      message: /occurs 1 time in a\.ts, expected 3/,
    },
    { name: 'identical strings', params: { old_string: 'b', new_string: 'b' }, type: 'invalid_params', message: /identical/ },
    { name: 'empty old_string on an existing file', params: { old_string: '', new_string: 'x' }, type: 'invalid_params', message: /already exists/ },
    { name: 'a zero expected count', params: { old_string: 'b', new_string: 'c', expected_replacements: 0 }, type: 'invalid_params', message: /expected_replacements/ },
  ])('leaves the file untouched on $name', async ({ params, type, message }) => {
    const ws = makeWorkspace({ 'a.ts': source });
    const mtime = fs.statSync(path.join(ws.root, 'a.ts')).mtimeMs;
    const result = await call(ws.tool('edit'), { file_path: 'a.ts', ...params });
    expect(result.error?.type).toBe(type);
    expect(result.error?.message).toMatch(message);
    expect(ws.read('a.ts')).toBe(source);
    expect(fs.statSync(path.join(ws.root, 'a.ts')).mtimeMs).toBe(mtime);
  });

  it.each<{ name: string; setup: Record<string, Buffer>; type: string }>([
    { name: 'a missing file', setup: {}, type: 'file_not_found' },
    { name: 'a file that is not UTF-8', setup: { 'a.ts': Buffer.from([0x63, 0xe9, 0x0a]) }, type: 'invalid_params' },
  ])('fails on $name', async ({ setup, type }) => {
    const ws = makeWorkspace(setup);
    const result = await call(ws.tool('edit'), { file_path: 'a.ts', old_string: 'c', new_string: 'd' });
    expect(result.error?.type).toBe(type);
  });

  it('does not write when cancelled before writing', async () => {
    const ws = makeWorkspace({ 'a.ts': source });
    const controller = new AbortController();
    controller.abort();
    const result = await ws.tool('edit').execute({ file_path: 'a.ts', old_string: 'b = 2', new_string: 'x' }, controller.signal);
    expect(result.error?.type).toBe('aborted');
    expect(ws.read('a.ts')).toBe(source);
  });
});

describe('a path ending in a slash', () => {
  // It names a directory: the kernel refuses it for a file (ENOTDIR), but resolving drops the slash.
  it.each([
    { tool: 'write_file', params: { file_path: 'a.txt/', content: 'clobber' } },
    { tool: 'write_file', params: { file_path: 'newdir/', content: 'x' } },
    { tool: 'write_file', params: { file_path: 'sub/new.txt/.', content: 'x' } },
    { tool: 'edit', params: { file_path: 'a.txt/', old_string: 'a', new_string: 'b' } },
    { tool: 'edit', params: { file_path: 'newdir/', old_string: '', new_string: 'x' } },
  ])('is refused by $tool $params.file_path, and nothing is written', async ({ tool, params }) => {
    const ws = makeWorkspace({ 'a.txt': 'a\n' });
    const result = await call(ws.tool(tool), params);
    expect(result.error?.type).toBe('invalid_params');
    expect(result.error?.message).toMatch(new RegExp(`^'${params.file_path.replace(/\./g, '\\.')}' ends in '/\\.?', which names a directory; ${tool} takes a file: give its path without that$`));
    expect(ws.read('a.txt')).toBe('a\n');
    expect(fs.readdirSync(ws.root)).toEqual(['a.txt']);
  });

  it('is refused by read_file, and read_many_files says the path is a file', async () => {
    const ws = makeWorkspace({ 'a.txt': 'a\n' });
    const read = await call(ws.tool('read_file'), { absolute_path: `${ws.root}/a.txt/` });
    expect(read.error?.message).toBe(`'${ws.root}/a.txt/' ends in '/', which names a directory; read_file takes a file: give its path without that`);
    const many = await call(ws.tool('read_many_files'), { paths: ['a.txt/'] });
    expect(many.llmContent).toBe('No files read.\n[not found: a.txt/ (a file, not a directory)]');
  });
});

// Under a file, nothing can be created or found: the kernel says only ENOTDIR, with the full path.
describe('a path that runs through a file', () => {
  it.each([
    ['write_file', { file_path: 'a.txt/b.txt', content: 'y' }, 'a.txt/b.txt'],
    ['write_file', { file_path: 'a.txt/c/b.txt', content: 'y' }, 'a.txt/c/b.txt'],
    ['edit', { file_path: 'a.txt/b.txt', old_string: '', new_string: 'y' }, 'a.txt/b.txt'],
  ])('%s %j: says a.txt is a file, without the workspace path', async (tool, params, name) => {
    const ws = makeWorkspace({ 'a.txt': 'x\n' });
    const result = await call(ws.tool(tool), params);
    expect(result.error?.type).toBe('not_a_directory');
    expect(result.error?.message).toBe(`'a.txt' is a file, not a directory, so '${name}' cannot be created in it`);
    expect(text(result)).not.toContain(ws.root);
    expect(ws.read('a.txt')).toBe('x\n');
  });

  it('edit of text in it, and read_file, say it does not exist because a.txt is a file', async () => {
    const ws = makeWorkspace({ 'a.txt': 'x\n' });
    const edit = await call(ws.tool('edit'), { file_path: 'a.txt/b.txt', old_string: 'q', new_string: 'y' });
    // Not "use an empty old_string to create it": that cannot create it either.
    expect(edit.error?.message).toBe("'a.txt/b.txt' does not exist: 'a.txt' is a file, not a directory");
    const read = await call(ws.tool('read_file'), { absolute_path: `${ws.root}/a.txt/b.txt` });
    expect(read.error).toEqual({ type: 'file_not_found', message: "'a.txt/b.txt' does not exist: 'a.txt' is a file, not a directory" });
  });

  it('a missing directory is still created', async () => {
    const ws = makeWorkspace({ 'a.txt': 'x\n' });
    const result = await call(ws.tool('write_file'), { file_path: 'a/b.txt', content: 'y' });
    expect(result.llmContent).toBe('Created a/b.txt (1 line).');
  });
});
