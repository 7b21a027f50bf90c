// ls, glob, grep and read_many_files over one project tree with nested .gitignore files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GLOB_MAX_PATHS } from '../../src/tools/builtin/glob.js';
import { GREP_MAX_MATCHES } from '../../src/tools/builtin/grep.js';
import { READ_MANY_MAX_FILES } from '../../src/tools/builtin/read-many-files.js';
import { capOutput, DEFAULT_OUTPUT_THRESHOLD } from '../../src/loop/output-cap.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const ws = makeWorkspace({
  '.gitignore': 'dist/\n*.log\n',
  'README.md': 'TODO: write docs\n',
  'app.log': 'TODO in a log\n',
  'src/a.ts': 'export const a = 1; // TODO a\n',
  'src/b.ts': 'import { a } from "./a";\nexport const b = a; // todo b\n',
  'src/.gitignore': 'generated/\n!keep.log\n',
  'src/keep.log': 'TODO kept log\n',
  'src/generated/g.ts': '// TODO generated\n',
  'src/nested/deep/c.ts': 'const TODO_C = 3;\n',
  'dist/out.js': 'TODO built\n',
  'node_modules/pkg/index.js': 'TODO dependency\n',
  '.git/config': 'TODO git\n',
  'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
  'blob.bin': Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1]),
});

describe('ls', () => {
  it.each([
    { path: undefined, expected: '.gitignore\nREADME.md\nblob.bin\nimg.png\nsrc/\n[4 hidden: .git, node_modules and 2 gitignored]' },
    { path: 'src', expected: '.gitignore\na.ts\nb.ts\nkeep.log\nnested/\n[1 hidden: gitignored]' },
    { path: 'src/nested/deep', expected: 'c.ts' },
    { path: 'dist', expected: 'out.js' }, // asked for by name: listed although ignored
  ])('lists $path', async ({ path: p, expected }) => {
    expect(text(await call(ws.tool('ls'), p === undefined ? {} : { path: p }))).toBe(expected);
  });

  // .unattended (this runner's own runs) is hidden too: the note said only "gitignored, .git or node_modules".
  it('names the always-hidden directories it left out, .unattended among them', async () => {
    const own = makeWorkspace({ '.unattended/runs/r1/transcript.jsonl': '{}\n', 'main.c': 'int main;\n' });
    expect(text(await call(own.tool('ls'), {}))).toBe('main.c\n[1 hidden: .unattended]');
    const only = makeWorkspace({ '.unattended/runs/r1/transcript.jsonl': '{}\n', '.gitignore': 'x.o\n', 'x.o': '', 'node_modules/p/i.js': '' });
    expect(text(await call(only.tool('ls'), {}))).toBe('.gitignore\n[3 hidden: .unattended, node_modules and 1 gitignored]');
  });

  it("grep's note on a search that found nothing names .unattended, which it skipped", async () => {
    const own = makeWorkspace({ '.unattended/runs/r1/transcript.jsonl': '{"t":"FIXME"}\n', 'main.c': 'int main;\n' });
    expect(text(await call(own.tool('grep'), { pattern: 'FIXME' }))).toBe('No matches for /FIXME/ in . (searched 1 file; gitignored paths, .git, node_modules and .unattended are not searched).');
  });

  it('says when a directory is empty', async () => {
    fs.mkdirSync(path.join(ws.root, 'empty'), { recursive: true });
    expect(text(await call(ws.tool('ls'), { path: 'empty' }))).toBe('(empty directory)');
    fs.rmdirSync(path.join(ws.root, 'empty'));
  });

  it('pages a flat directory past its 500 entries with offset, every name once', async () => {
    const names = Array.from({ length: 1200 }, (_, i) => `f${String(i).padStart(4, '0')}.json`);
    const flat = makeWorkspace(Object.fromEntries(names.map((name) => [`data/${name}`, '{}'])));
    const seen: string[] = [];
    const notes: string[] = [];
    for (let offset: number | undefined = undefined; ; ) {
      const out = text(await call(flat.tool('ls'), { path: 'data', ...(offset === undefined ? {} : { offset }) })).split('\n');
      notes.push(out.at(-1)!);
      seen.push(...out.slice(0, -1));
      const next = /call again with offset=(\d+)/.exec(out.at(-1)!);
      if (!next) break;
      offset = Number(next[1]);
    }
    expect(seen).toEqual(names);
    expect(notes).toEqual([
      '[truncated: 500 of 1200 entries shown, in name order; call again with offset=500 for the next ones, or list a subdirectory]',
      '[truncated: 500 of 1200 entries shown (entries 501-1000), in name order; call again with offset=1000 for the next ones, or list a subdirectory]',
      '[200 of 1200 entries shown (entries 1001-1200), in name order: the last ones]',
    ]);
    const past = await call(flat.tool('ls'), { path: 'data', offset: 1200 });
    expect(past.error?.type).toBe('invalid_params');
    expect(text(past)).toBe("Error: offset 1200 is past the end of the listing of 'data' (1200 entries shown by ls)");
  });

  it.each([
    { path: 'nope', type: 'file_not_found' },
    { path: 'README.md', type: 'not_a_directory' },
  ])('fails on $path', async ({ path: p, type }) => {
    expect((await call(ws.tool('ls'), { path: p })).error?.type).toBe(type);
  });
});

describe('glob', () => {
  it.each([
    { params: { pattern: '**/*.ts' }, expected: 'src/a.ts\nsrc/b.ts\nsrc/nested/deep/c.ts' },
    { params: { pattern: '*.ts', path: 'src' }, expected: 'src/a.ts\nsrc/b.ts' },
    { params: { pattern: 'src/**/c.ts' }, expected: 'src/nested/deep/c.ts' },
    { params: { pattern: '**/*.log' }, expected: 'src/keep.log' },
    { params: { pattern: '**/*.js', path: 'dist' }, expected: 'dist/out.js' },
    { params: { pattern: 'README.md' }, expected: 'README.md' },
    { params: { pattern: '**/*.py' }, expected: "No files match '**/*.py' in . (searched 9 files; gitignored paths, .git, node_modules and .unattended are not searched)." },
    // A name pattern matches at the top only: the answer of none says the names are deeper down
    // (it read as 'this repository has no TypeScript').
    {
      params: { pattern: '*.ts' },
      expected: "No files match '*.ts' in . (searched 9 files; gitignored paths, .git, node_modules and .unattended are not searched). A pattern without '/' matches names at the top of . only: 3 files deeper down have such a name; '**/*.ts' matches at any depth.",
    },
    { params: { pattern: 'c.ts', path: 'src' }, expected: "No files match 'c.ts' in src (searched 5 files; gitignored paths, .git, node_modules and .unattended are not searched). A pattern without '/' matches names at the top of src only: 1 file deeper down has such a name; '**/c.ts' matches at any depth." },
    { params: { pattern: '*.rs' }, expected: "No files match '*.rs' in . (searched 9 files; gitignored paths, .git, node_modules and .unattended are not searched)." },
  ])('$params.pattern in $params.path', async ({ params, expected }) => {
    expect(text(await call(ws.tool('glob'), params))).toBe(expected);
  });

  it.each([
    { pattern: '/etc/*' },
    { pattern: '../outside/*' },
    { pattern: 'src/../../outside/*' },
    { pattern: '' },
  ])('refuses the pattern $pattern', async ({ pattern }) => {
    expect((await call(ws.tool('glob'), { pattern })).error?.type).toBe('invalid_params');
  });

  it('bounds the result with a truncation note', async () => {
    const many = makeWorkspace(Object.fromEntries(Array.from({ length: GLOB_MAX_PATHS + 20 }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, ''])));
    const lines = text(await call(many.tool('glob'), { pattern: '**/*.txt' })).split('\n');
    expect(lines).toHaveLength(GLOB_MAX_PATHS + 1);
    expect(lines[0]).toBe('f/0000.txt');
    expect(lines.at(-1)).toBe(`[truncated: ${GLOB_MAX_PATHS} of ${GLOB_MAX_PATHS + 20} matching paths shown; narrow the pattern or the path]`);
  });
});

describe('grep', () => {
  it.each([
    {
      name: 'everywhere not ignored, in path order',
      params: { pattern: 'TODO' },
      expected: 'README.md:1: TODO: write docs\nsrc/a.ts:1: export const a = 1; // TODO a\nsrc/keep.log:1: TODO kept log\nsrc/nested/deep/c.ts:1: const TODO_C = 3;\n[2 binary files skipped]',
    },
    { name: 'case-insensitively with (?i)', params: { pattern: '(?i)todo b' }, expected: 'src/b.ts:2: export const b = a; // todo b\n[2 binary files skipped]' },
    { name: 'with an include glob', params: { pattern: 'TODO', include: '*.log' }, expected: 'src/keep.log:1: TODO kept log' },
    { name: 'in one file', params: { pattern: 'import', path: 'src/b.ts' }, expected: 'src/b.ts:1: import { a } from "./a";' },
    { name: 'a pattern that looks like a flag', params: { pattern: '--help', path: 'src' }, expected: 'No matches for /--help/ in src (searched 5 files; gitignored paths, .git, node_modules and .unattended are not searched).' },
    { name: 'with no match', params: { pattern: 'zzz', path: 'src' }, expected: 'No matches for /zzz/ in src (searched 5 files; gitignored paths, .git, node_modules and .unattended are not searched).' },
  ])('searches $name', async ({ params, expected }) => {
    const result = await call(ws.tool('grep'), params);
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(expected);
  });

  it.each([
    { params: { pattern: '(' }, type: 'invalid_params', message: /invalid regular expression/ },
    { params: { pattern: 'a', include: '../*.ts' }, type: 'invalid_params', message: /must not contain '\.\.'/ },
    { params: { pattern: 'a', path: 'nope' }, type: 'file_not_found', message: /does not exist/ },
  ])('fails on $params', async ({ params, type, message }) => {
    const result = await call(ws.tool('grep'), params);
    expect(result.error?.type).toBe(type);
    expect(result.error?.message).toMatch(message);
  });

  it('bounds matches with a truncation note', async () => {
    const many = makeWorkspace({ 'big.txt': 'hit\n'.repeat(GREP_MAX_MATCHES + 5) });
    const lines = text(await call(many.tool('grep'), { pattern: 'hit' })).split('\n');
    expect(lines).toHaveLength(GREP_MAX_MATCHES + 1);
    expect(lines.at(-1)).toBe(`[truncated: first ${GREP_MAX_MATCHES} matches; narrow the pattern, path or include]`);
  });

  it('skips files over 1 MB, names them and says a search without a match may have missed one', async () => {
    const big = makeWorkspace({ 'big.txt': `needle\n${'x'.repeat(1024 * 1024)}`, 'small.txt': 'hay\n' });
    const result = await call(big.tool('grep'), { pattern: 'needle' });
    expect(text(result)).toBe(
      'No matches for /needle/ in the 1 file searched under .; 1 file over 1 MB was not searched (see below), so there may be matches.\n[1 file over 1 MB not searched: big.txt]',
    );
    expect(result.truncated).toBe(true);
  });

  it('stops a catastrophically backtracking pattern when cancelled, and the run goes on', async () => {
    const evil = makeWorkspace({ 'a.txt': `${'a'.repeat(40)}!\n` });
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 300);
    // `|!` lets ripgrep (which never backtracks) pass the file on to the JavaScript match; a
    // look-around keeps it from V8's linear engine (regexp-fallback.ts), which would answer at once.
    const result = await call(evil.tool('grep'), { pattern: '^(a+)+(?=$)|!' }, controller.signal);
    expect(result.error?.type).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('grep with a line break in the pattern', () => {
  it.each(['javascript' as const, undefined])('says a pattern spanning lines matches no line, not that the text is not there (%s)', async (engine) => {
    const lines = makeWorkspace({ 'a.ts': 'foo\nbar\n' });
    const grep = (pattern: string) => call(createBuiltinTools({ ...lines.ctx, grepEngine: engine }, ['grep'])[0]!, { pattern });
    const note = '[grep matches one line at a time, without its line break: the \\n in the pattern matches no line; search for one line of the text]';
    for (const pattern of ['foo\\nbar', 'foo\\r?\\nbar', 'foo\nbar', '(?i)FOO\\x0aBAR']) {
      expect(text(await grep(pattern)), pattern).toBe(`No matches for /${pattern}/ in . (searched 1 file; gitignored paths, .git, node_modules and .unattended are not searched).\n${note}`);
    }
    // A class that holds \n matches the line's other characters: no such note.
    expect(text(await grep('foo[\\na]'))).not.toContain(note);
    expect(text(await grep('[\\n]|foo'))).toBe('a.ts:1: foo');
  });
});

describe('read_many_files', () => {
  it('reads paths, directories and globs in order, once each, skipping binaries and images', async () => {
    const result = await call(ws.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['README.md', 'src/nested', 'src/*.ts', 'README.md', '*.bin', 'img.png'] });
    expect(result.llmContent).toBe(
      [
        '--- README.md ---\nTODO: write docs\n',
        '--- src/nested/deep/c.ts ---\nconst TODO_C = 3;\n',
        '--- src/a.ts ---\nexport const a = 1; // TODO a\n',
        '--- src/b.ts ---\nimport { a } from "./a";\nexport const b = a; // todo b\n',
        '[skipped: blob.bin (binary), img.png (image: use read_file)]',
      ].join('\n'),
    );
  });

  it('shows a CRLF file without its \\r, as read_file does', async () => {
    const crlf = makeWorkspace({ 'win.txt': 'line1\r\nline2\r\n', 'last.txt': 'a\r\nb' });
    const many = text(await call(crlf.tool('read_many_files'), { paths: ['win.txt', 'last.txt'] }));
    expect(many).toBe('--- win.txt ---\nline1\nline2\n\n--- last.txt ---\na\nb');
    expect(text(await call(crlf.tool('read_file'), { absolute_path: path.join(crlf.root, 'win.txt') }))).toBe('line1\nline2');
  });

  it('says where the names of a name pattern that matches nothing at the top are', async () => {
    // '[not found: *.ts]' read as 'no TypeScript here'.
    const result = await call(ws.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['*.ts', '*.rs'] });
    expect(result.llmContent).toBe("No files read.\n[not found: *.ts (at the top; 3 files deeper down match '**/*.ts'), *.rs]");
  });

  it('applies exclude globs and reports what was not found', async () => {
    const result = await call(ws.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['src', 'missing.txt', '**/*.rs'], exclude: ['b.ts', 'src/nested/**', '*.log', '.gitignore'] });
    expect(result.llmContent).toBe('--- src/a.ts ---\nexport const a = 1; // TODO a\n\n[not found: missing.txt, **/*.rs]');
  });

  it('stops at the file limit with a note', async () => {
    const many = makeWorkspace(Object.fromEntries(Array.from({ length: READ_MANY_MAX_FILES + 3 }, (_, i) => [`f/${String(i).padStart(3, '0')}.txt`, `${i}\n`])));
    const out = text(await call(many.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['f'] }));
    expect(out.match(/^--- /gm)).toHaveLength(READ_MANY_MAX_FILES);
    expect(out.endsWith(`[truncated: ${READ_MANY_MAX_FILES} of ${READ_MANY_MAX_FILES + 3} files taken (the limit is ${READ_MANY_MAX_FILES} per call); name fewer paths, a subdirectory or a narrower glob, or add exclude]`)).toBe(true);
  });

  it('stays below the loop cap: cuts a file after a whole line, says where to read on, and names the files not read', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => `line ${i + 1} of a typical source file, long enough to count`);
    const many = makeWorkspace({ 'a.txt': 'a\n', 'b.py': `${lines.join('\n')}\n`, 'c.txt': 'c\n', 'd.txt': 'd\n' });
    const out = text(await call(many.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['*.txt', 'b.py'] }));
    // The loop sends it as it is: no head and tail with whole files cut out of the middle.
    expect(out.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_THRESHOLD);
    expect(capOutput(out, 'c1', { threshold: DEFAULT_OUTPUT_THRESHOLD, save: () => 'saved' }).savedPath).toBeNull();
    expect(out.startsWith('--- a.txt ---\na\n\n--- c.txt ---\nc\n\n--- d.txt ---\nd\n\n--- b.py ---\nline 1 of')).toBe(true);
    const cut = /\n\[b\.py cut after line (\d+): the (\d+)-character limit of one call; read_file with offset=(\d+) reads on\]$/.exec(out);
    expect(cut).not.toBeNull();
    expect(cut![1]).toBe(cut![3]);
    const shown = out.slice(out.indexOf('--- b.py ---\n') + 13, cut!.index).split('\n');
    expect(shown).toEqual(lines.slice(0, Number(cut![1])));

    const two = makeWorkspace({ 'a.py': `${lines.join('\n')}\n`, 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const out2 = text(await call(two.tool('read_many_files').forTools(['read_many_files', 'read_file']), { paths: ['a.py', 'b.txt', 'c.txt'] }));
    expect(out2.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_THRESHOLD);
    expect(out2).toMatch(/\n\[a\.py cut after line \d+: [^\]]*\]\n\[not read, past the \d+-character limit of one call: b\.txt, c\.txt; read them with another call, or with read_file\]$/);
  });
});

describe('grep stopped by its time limit', () => {
  // 2 s, not less: starting the workers takes a good part of a second on a loaded 2-core machine,
  // and a limit that passes before they start has nothing to show.
  // The JavaScript walk hands files over 256 at a time; ripgrep's few candidates go one at a time,
  // and the 299 files it found nothing in count as searched.
  it.each([
    { engine: 'javascript' as const, searched: 256 },
    { engine: undefined, searched: 300 },
  ])('returns what the finished batches found, says it is partial and how far it got ($engine)', async ({ engine, searched }) => {
    // 300 ordinary files (one with a match), then one whose line makes the pattern backtrack for
    // ages (with a look-around, which V8's linear engine does not take): the first batch of files is answered, the batch with the bad file never is.
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`f/${String(i).padStart(3, '0')}.txt`] = i === 5 ? 'a hit here\n' : 'nothing\n';
    files['zz/evil.txt'] = `${'a'.repeat(40)}!\n`;
    const ws = makeWorkspace(files);
    const tool = createBuiltinTools({ ...ws.ctx, grepTimeLimitMs: 2000, grepEngine: engine }, ['grep'])[0]!;
    const started = performance.now();
    const result = await call(tool, { pattern: '^(a+)+(?=$)|hit|!' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.error).toBeUndefined();
    const out = text(result);
    expect(out).toMatch(/^f\/005\.txt:1: a hit here\n/);
    expect(out).toContain(`[partial: grep stopped at its time limit of 2 s after searching ${searched} files; the rest was NOT searched; narrow it: `);
  });

  it.each(['javascript' as const, undefined])('keeps the matches found beside the file it is stuck in, in the same batch (%s)', async (engine) => {
    // The bad file sorts between two with a match: both engines answer with the first one.
    const ws = makeWorkspace({ 'a.txt': 'a hit here\n', 'b.txt': `${'a'.repeat(40)}!\n`, 'c.txt': 'a hit there\n' });
    const tool = createBuiltinTools({ ...ws.ctx, grepTimeLimitMs: 2000, grepEngine: engine }, ['grep'])[0]!;
    const result = await call(tool, { pattern: '^(a+)+(?=$)|hit|!' });
    expect(result.error).toBeUndefined();
    const out = text(result);
    expect(out).toMatch(/^a\.txt:1: a hit here\n/);
    expect(out).not.toContain('c.txt');
    expect(out).toMatch(/\[partial: grep stopped at its time limit of 2 s after searching 1 file; the rest was NOT searched/);
  });
});
