import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { MAX_IMAGE_BYTES } from '../../src/tools/builtin/read-file.js';
import { capOutput, DEFAULT_OUTPUT_THRESHOLD } from '../../src/loop/output-cap.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
// Smallest valid PNG (1x1), enough to prove the bytes travel intact.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('read_file', () => {
  const ws = makeWorkspace({
    'small.txt': 'alpha\nbeta\n',
    'no-newline.txt': 'one\ntwo',
    'crlf.txt': 'a\r\nb\r\n',
    'empty.txt': '',
    'big.txt': numbered(5000),
    'long-line.txt': `${'x'.repeat(2500)}\nshort\n`,
    'bin.dat': Buffer.concat([Buffer.from('PK'), Buffer.alloc(10), Buffer.from('zip')]),
    'pic.png': PNG,
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    'dir/inner.txt': 'inner\n',
  });
  const abs = (p: string) => path.join(ws.root, p);

  it.each([
    { name: 'a small file, raw, no note', file: 'small.txt', params: {}, expected: 'alpha\nbeta' },
    { name: 'a last line without newline', file: 'no-newline.txt', params: {}, expected: 'one\ntwo' },
    { name: 'CRLF line endings (not sent)', file: 'crlf.txt', params: {}, expected: 'a\nb' },
    { name: 'an empty file', file: 'empty.txt', params: {}, expected: '[empty file]' },
    { name: 'an SVG, as text', file: 'logo.svg', params: {}, expected: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
    {
      name: 'the default page of a long file, with the next offset',
      file: 'big.txt',
      params: {},
      expected: `${numbered(2000)}[lines 1-2000 of 5000; call again with offset=2000]`,
    },
    {
      name: 'a middle page',
      file: 'big.txt',
      params: { offset: 2000, limit: 3 },
      expected: 'line 2001\nline 2002\nline 2003\n[lines 2001-2003 of 5000; call again with offset=2003]',
    },
    {
      name: 'the last page',
      file: 'big.txt',
      params: { offset: 4998 },
      expected: 'line 4999\nline 5000\n[lines 4999-5000 of 5000]',
    },
    {
      name: 'a cut long line',
      file: 'long-line.txt',
      params: {},
      expected: `${'x'.repeat(2000)} … [line cut: 2500 chars]\nshort\n[line 1 cut at 2,000 characters; no tool you have shows the rest]`,
    },
    { name: 'a binary file, described', file: 'bin.dat', params: {}, expected: 'Binary file bin.dat (15 B); not shown.' },
  ])('reads $name', async ({ file, params, expected }) => {
    const result = await call(ws.tool('read_file'), { absolute_path: abs(file), ...params });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(expected);
  });

  it('returns an image as an inline part', async () => {
    const result = await call(ws.tool('read_file'), { absolute_path: abs('pic.png') });
    expect(result.llmContent).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }]);
  });

  it('sends as an image only what its bytes say is one: a Git LFS pointer named .png is text, a PNG named .jpg is a PNG', async () => {
    const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    ws.write('logo.png', pointer);
    expect((await call(ws.tool('read_file'), { absolute_path: abs('logo.png') })).llmContent).toBe(pointer.trimEnd());
    ws.write('photo.jpg', PNG);
    expect((await call(ws.tool('read_file'), { absolute_path: abs('photo.jpg') })).llmContent).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }]);
  });

  it('describes an image over the size cap instead of sending it', async () => {
    ws.write('huge.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(MAX_IMAGE_BYTES - 3, 1)]));
    const result = await call(ws.tool('read_file'), { absolute_path: abs('huge.jpg') });
    expect(text(result)).toMatch(/^Image huge\.jpg is 4\.0 MB, over the 4\.0 MB limit; not shown\.$/);
  });

  it.each([
    { name: 'a missing file', file: 'nope.txt', params: {}, type: 'file_not_found' },
    { name: 'a directory', file: 'dir', params: {}, type: 'not_a_file' },
    { name: 'an offset past the end', file: 'small.txt', params: { offset: 10 }, type: 'invalid_params' },
    { name: 'a negative offset', file: 'small.txt', params: { offset: -1 }, type: 'invalid_params' },
    { name: 'a zero limit', file: 'small.txt', params: { limit: 0 }, type: 'invalid_params' },
    { name: 'an unknown parameter', file: 'small.txt', params: { path: 'x' }, type: 'invalid_params' },
  ])('fails on $name', async ({ file, params, type }) => {
    const result = await call(ws.tool('read_file'), { absolute_path: abs(file), ...params });
    expect(result.error?.type).toBe(type);
  });

  it('says how many lines a file has when the offset is past its end, in the singular for one', async () => {
    const one = ws.write('one.txt', 'only line\n');
    const past = await call(ws.tool('read_file'), { absolute_path: one, offset: 1 });
    expect(past.error?.type).toBe('invalid_params');
    expect(text(past)).toBe("Error: offset 1 is past the end of 'one.txt' (1 line)");
    const three = ws.write('three.txt', 'a\nb\nc');
    expect(text(await call(ws.tool('read_file'), { absolute_path: three, offset: 5 }))).toBe("Error: offset 5 is past the end of 'three.txt' (3 lines)");
  });

  it('pages a file of 40-256 KB itself, on whole lines, below the loop cap that would cut its middle out', async () => {
    // A 76 KB source file of 1,500 lines: under the default limit of 2,000 lines, over the cap.
    const lines = Array.from({ length: 1500 }, (_, i) => `def func_${String(i).padStart(4, '0')}(x):  # some typical source line here ${'.'.repeat(i % 7)}`);
    const file = ws.write('app.py', `${lines.join('\n')}\n`);
    const seen: string[] = [];
    for (let offset: number | undefined = 0, pages = 0; offset !== undefined; pages++) {
      expect(pages).toBeLessThan(5);
      const result = await call(ws.tool('read_file'), { absolute_path: file, ...(offset ? { offset } : {}) });
      const content = text(result);
      // The loop sends it as it is: no head and tail with the middle cut out.
      expect(content.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_THRESHOLD);
      expect(capOutput(content, 'c1', { threshold: DEFAULT_OUTPUT_THRESHOLD, save: () => 'saved' }).savedPath).toBeNull();
      const note = content.slice(content.lastIndexOf('\n') + 1);
      const page = content.slice(0, content.lastIndexOf('\n')).split('\n');
      expect(note).toBe(`[lines ${seen.length + 1}-${seen.length + page.length} of 1500${/offset=/.test(note) ? ` (a page stops at ${DEFAULT_OUTPUT_THRESHOLD - 4000} characters); call again with offset=${seen.length + page.length}` : ''}]`);
      seen.push(...page);
      offset = /offset=(\d+)/.exec(note) ? Number(/offset=(\d+)/.exec(note)![1]) : undefined;
    }
    // Every line, whole, exactly once.
    expect(seen).toEqual(lines);
  });

  it('pages a large file without reading it whole', async () => {
    // 40 MB: over the size up to which the rest is counted, so only the first page is read.
    const file = ws.write('huge.log', '');
    const block = numbered(1000);
    const fd = fs.openSync(file, 'a');
    for (let written = 0; written < 40 * 1024 * 1024; written += block.length) fs.writeSync(fd, block);
    fs.closeSync(fd);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const result = await call(ws.tool('read_file'), { absolute_path: file, limit: 5 });
    const elapsed = performance.now() - started;
    expect(result.llmContent).toBe('line 1\nline 2\nline 3\nline 4\nline 5\n[lines 1-5 of a 40.0 MB file; call again with offset=5]');
    expect(elapsed).toBeLessThan(500);
    expect(process.memoryUsage().rss - before).toBeLessThan(20 * 1024 * 1024);
  });
});

// The note said "[1 long lines cut at 2000 chars]": no plural agreement, and nothing on how to see
// the rest, which no read_file call can show (every page cuts the line alike) nor grep (it shows
// 250 characters of a line). It names the lines and, when the run offers the shell, a command that
// prints the rest of one: run here as the shell would run it.
describe('read_file with lines cut at 2,000 characters', () => {
  const minified = (tag: string) => `${'a'.repeat(1990)}${tag}${'b'.repeat(500)}THE END ${tag}`;
  const ws = makeWorkspace({
    'dist/app.min.js': `// header\n${minified('one')}\n`,
    "it's -odd.json": `${minified('two')}\n`,
    'many.txt': Array.from({ length: 7 }, (_, i) => (i % 2 ? 'short' : minified(String(i + 1)))).join('\n'),
  });
  const read = (tools: string[], file: string, params: object = {}) => call(createBuiltinTools(ws.ctx, tools).find((tool) => tool.name === 'read_file')!, { absolute_path: path.join(ws.root, file), ...params });
  const lastLine = (result: { llmContent: unknown }) => String(result.llmContent).split('\n').pop()!;
  const rest = (note: string) => execFileSync('sh', ['-c', /: (sed .*)\]$/.exec(note)![1]!], { cwd: ws.root, encoding: 'utf8' });

  it('names the line and the shell command that shows the rest, when the run offers the shell', async () => {
    const note = lastLine(await read(['read_file', 'shell'], 'dist/app.min.js'));
    expect(note).toBe('[line 2 cut at 2,000 characters; see the rest with the shell: sed -n 2p dist/app.min.js | cut -c 2001-]');
    expect(rest(note)).toBe(`${minified('one').slice(2000)}\n`);
  });

  it('quotes a name the shell would read otherwise', async () => {
    const note = lastLine(await read(['shell', 'read_file'], "it's -odd.json"));
    expect(note).toBe(`[line 1 cut at 2,000 characters; see the rest with the shell: sed -n 1p 'it'\\''s -odd.json' | cut -c 2001-]`);
    expect(rest(note)).toContain('THE END two');
  });

  it('names several lines by their number in the file, on a later page too', async () => {
    expect(lastLine(await read(['read_file', 'shell'], 'many.txt'))).toBe('[lines 1, 3, 5 and 7 cut at 2,000 characters; see the rest with the shell, e.g. line 1: sed -n 1p many.txt | cut -c 2001-]');
    const later = await read(['read_file', 'shell'], 'many.txt', { offset: 3, limit: 3 });
    expect(String(later.llmContent)).toMatch(/\nshort\n\[lines 4-6 of 7; call again with offset=6\]\n\[line 5 cut at 2,000 characters; see the rest with the shell: sed -n 5p many.txt \| cut -c 2001-\]$/);
  });

  // The \r of CRLF is no character of the line: a line of exactly 2,000 characters was said to be
  // cut, 'line cut: 2001 chars', and every cut line's length was one too many.
  it.each([{ size: 'small', padding: 0 }, { size: 'over 1 MB, streamed', padding: 40_000 }])('counts a CRLF line without its \\r ($size)', async ({ padding }) => {
    const lines = ['a'.repeat(2000), 'b'.repeat(2500), 'end', ...Array.from({ length: padding }, (_, i) => `padding line ${i} to pass the 1 MB the pager reads at once`)];
    ws.write('crlf.txt', `${lines.join('\r\n')}\r\n`);
    const out = String((await read(['read_file'], 'crlf.txt', { limit: 3 })).llmContent).split('\n');
    expect(out[0]).toBe('a'.repeat(2000));
    expect(out[1]).toBe(`${'b'.repeat(2000)} … [line cut: 2500 chars]`);
    expect(out[2]).toBe('end');
    expect(out.at(-1)).toBe('[line 2 cut at 2,000 characters; no tool you have shows the rest]');
  });

  it('says no tool of the run shows the rest when it offers no shell', async () => {
    expect(lastLine(await read(['read_file', 'grep'], 'many.txt'))).toBe('[lines 1, 3, 5 and 7 cut at 2,000 characters; no tool you have shows the rest]');
  });
});

describe('a FIFO and a socket', () => {
  it('are named for what they are: read_file, edit and write_file refuse them, read_many_files skips them', async () => {
    const ws = makeWorkspace({ 'a.txt': 'a\n' });
    execFileSync('mkfifo', [path.join(ws.root, 'fifo')]);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws.root, 'sock'), resolve));
    try {
      expect((await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'fifo') })).error?.message).toBe("'fifo' is a named pipe, not a regular file");
      expect((await call(ws.tool('read_file'), { absolute_path: path.join(ws.root, 'sock') })).error?.message).toBe("'sock' is a socket, not a regular file");
      expect((await call(ws.tool('edit'), { file_path: 'fifo', old_string: 'a', new_string: 'b' })).error?.message).toBe("'fifo' is a named pipe, not a regular file");
      expect((await call(ws.tool('write_file'), { file_path: 'sock', content: 'x' })).error?.message).toBe("'sock' is a socket, not a regular file");
      const many = await call(ws.tool('read_many_files'), { paths: ['fifo', 'sock', 'a.txt', 'gone.txt'] });
      expect(many.llmContent).toBe('--- a.txt ---\na\n\n[skipped, not regular files: fifo (a named pipe), sock (a socket)]\n[not found: gone.txt]');
      // grep in one: not 'No matches … (searched 0 files …)', which read as an answer. Both engines.
      for (const grepEngine of [undefined, 'javascript'] as const) {
        const grep = createBuiltinTools({ ...ws.ctx, grepEngine }, ['grep'])[0]!;
        expect((await call(grep, { pattern: 'a', path: 'fifo' })).error).toEqual({ type: 'not_a_file', message: "'fifo' is a named pipe, not a regular file" });
        expect((await call(grep, { pattern: 'a', path: 'sock' })).error).toEqual({ type: 'not_a_file', message: "'sock' is a socket, not a regular file" });
      }
    } finally {
      server.close();
    }
  });
});
