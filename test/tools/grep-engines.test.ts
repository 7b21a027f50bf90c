// Issue 13 §3: grep through ripgrep and grep through the JavaScript walk give the same answer,
// byte for byte, on a tree that has everything the two could read differently: nested and negated
// .gitignore files, a nested repository, hidden, binary (a NUL early, after 8 KB, after 64 KB),
// empty and over-1 MB files, huge lines, Unicode and Latin-1 text, CRLF, odd names, symbolic
// links in and out of the workspace, and patterns whose JavaScript and Rust readings differ.
// ripgrep is reached through a logging wrapper on PATH, so each case also proves which path ran.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { toRustRegex } from '../../src/tools/builtin/grep-regex.js';
import { lineForms, withChangeableLines } from '../../src/tools/builtin/grep-unicode-forms.js';
import { call, cleanupAll, loggedRipgrep, makeWorkspace, text, type TempWorkspace } from './helpers.js';

const realRg = findRipgrep(process.env.PATH);
afterAll(cleanupAll);

const latin1 = Buffer.from('caf\xe9 cr\xe8me au lait\n', 'latin1');
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n';

function tree(): TempWorkspace {
  const ws = makeWorkspace({
    '.gitignore': 'dist/\n*.log\n/secret.txt\n',
    'README.md': '# Title\nTODO: write the docs\nsee https://example.com/a/b?x=1&y=2\n\n   \ntrailing space   \n',
    'secret.txt': 'TODO ignored at the root\n',
    'app.log': 'TODO in an ignored log\n',
    'dist/out.js': 'TODO built\n',
    'src/.gitignore': 'generated/\n!keep.log\n',
    'src/keep.log': 'TODO kept log (negated in src)\n',
    'src/generated/g.ts': '// TODO generated\n',
    'src/main.ts': 'export function main(): number {\n  const value = 42; // TODO main\n  return value * 1000;\n}\nfunction helper_2(a, b) { return a && b; }\n',
    'src/words.txt': 'word wordy sword\n[[:alpha:]] literally\na&&b and a--b and a~~b\n#hash x{,2} x{2} {}\nback\\slash and a/b\n',
    'src/unicode.txt': 'café crème\n日本語のテキスト\nnaïve résumé\nemoji 😀 here\nΣίσυφος\néfoo and foo\n\u00a0nbsp\u00a0 and \ufeffbom\n',
    'src/decomposed.txt': 'cafe\u0301 cre\u0300me (as macOS writes them)\nCAFE\u0301 in capitals\ncafe alone\n',
    'src/latin1.txt': latin1,
    'src/crlf.txt': 'first line\r\nTODO second\r\nend$\r\n',
    'src/empty.txt': '',
    'src/long.txt': `short TODO\n${'x'.repeat(300)} TODO after 300\n${'y'.repeat(200_000)}TODO at the end of a 200 KB line\n`,
    'src/many.txt': lines(150, (i) => `match line ${i}`),
    'src/more.txt': lines(100, (i) => `match again ${i}`),
    'src/-dash.txt': 'TODO in a file named with a dash\n',
    'src/with space/ünï cödé.txt': 'TODO in an odd name\n',
    '.hidden/h.ts': 'TODO hidden dir\n',
    '.env': 'TODO_SECRET=1\n',
    'node_modules/pkg/index.js': 'TODO dependency\n',
    '.git/config': 'TODO git\n',
    '.unattended/runs/x.txt': 'TODO runner output\n',
    'vendor/lib/.git/HEAD': 'ref: TODO\n',
    'vendor/lib/code.ts': 'TODO vendored\n',
    'vendor/lib/x.log': 'TODO vendored log, ignored by the root .gitignore\n',
    'bin/early.bin': Buffer.concat([Buffer.from('TODO before a NUL\n'), Buffer.from([0, 1, 2]), Buffer.from('\nTODO after\n')]),
    'bin/late8k.txt': Buffer.concat([Buffer.from(lines(1200, (i) => `pad ${i}`)), Buffer.from('TODO then\n\0NUL after 8 KB\n')]),
    'bin/late64k.txt': Buffer.concat([Buffer.from(lines(9000, (i) => `pad ${i}`)), Buffer.from('TODO then\n\0NUL after 64 KB\n')]),
    'big/exact.txt': `TODO at 1 MB exactly\n${'z'.repeat(1024 * 1024 - 21)}`,
    'big/over.txt': `TODO over 1 MB\n${'z'.repeat(1024 * 1024)}`,
  });
  fs.symlinkSync(path.join(ws.root, 'src'), path.join(ws.root, 'link-dir'));
  fs.symlinkSync(path.join(ws.root, 'src/main.ts'), path.join(ws.root, 'link-file.ts'));
  fs.symlinkSync(path.join(ws.root, '..', 'outside'), path.join(ws.root, 'link-out'));
  return ws;
}

// Each case is one call of each engine; the regex cases are the constructs the two dialects read
// differently (Rust classes and escapes, ASCII versus Unicode shorthands, look-arounds and
// backreferences Rust lacks, undecodable bytes, Unicode case folding).
const cases: Array<{ pattern: string; path?: string; include?: string }> = [
  { pattern: 'TODO' },
  { pattern: '(?i)todo', path: 'src' },
  { pattern: 'NOT_ANYWHERE_AT_ALL' },
  { pattern: 'match' }, // 250 matches: the cap
  { pattern: 'TODO', path: 'vendor' },
  { pattern: 'TODO', path: 'dist' }, // ignored, asked for by name
  { pattern: 'TODO', include: '*.ts' },
  { pattern: 'TODO', include: 'src/**/*.{txt,log}' },
  { pattern: 'TODO', path: 'src/long.txt' },
  { pattern: '\\bfoo\\b|\\bword\\b' },
  { pattern: '\\D\\d{3}\\D|\\W\\W' },
  { pattern: '\\s+$|^\\S+$|^$' },
  { pattern: '[[]:alpha:]]|[a&&b]{3}|a~~b' }, // [[:alpha:]] itself is refused (grep-pattern.test.ts)
  { pattern: '#hash x\\{,2}|x{2} {}|a\\/b|back\\\\slash' }, // x{,2} unescaped is refused (grep-pattern.test.ts)
  { pattern: '(?<=a)&&|word(?!y)' },
  { pattern: '(wor)d\\1|(?<w>o)\\k<w>' },
  { pattern: 'caf.|cr.me|[^\\x00-\\x7f]{3}' },
  { pattern: '(?i)ΣΊΣΥΦΟΣ|日本|😀' },
  { pattern: '\\x41|\\cI|end\\$|second$' },
  { pattern: '--b' }, // a pattern and an include that start with '-' never read as flags
  { pattern: 'TODO', include: '-dash.txt' },
  { pattern: 'a\\nb' },
  { pattern: 'x{300}' },
  // An accented letter in either Unicode form finds it in the other (grep-unicode-forms.ts).
  { pattern: 'café|crème' },
  { pattern: '(?i)CAFÉ' },
  { pattern: 'cafe\u0301' },
  { pattern: 'caf[éè]|r.sum\u00e9' },
];

describe.skipIf(!realRg)('grep through ripgrep and through the JavaScript walk', () => {
  let ws: TempWorkspace;
  let log: string;
  let grep: ReturnType<typeof loggedRipgrep>['grep'];
  beforeAll(() => {
    ws = tree();
    ({ log, grep } = loggedRipgrep(ws, realRg!));
  });

  it.each(cases)('$pattern in $path ($include)', async (params) => {
    const viaRg = await grep(undefined, params);
    const viaJs = await grep('javascript', params);
    expect(viaRg).toEqual(viaJs);
    // Each match line is attributed to its file (the history drops lines of files changed since).
    const shown = viaRg.text.split('\n');
    viaRg.linesOf?.forEach((file, i) => expect(shown[i]!.startsWith(`${file}:`), shown[i]).toBe(true));
    expect(viaRg.linesOf?.length ?? 0).toBe(/^No matches/.test(viaRg.text) ? 0 : shown.filter((line) => !line.startsWith('[')).length);
    // ripgrep counted matches with this very argv, unless the path is a file (read directly) or
    // the pattern has no sound Rust form.
    const source = params.pattern.replace(/^\(\?i\)/, '');
    const rust = toRustRegex(source, params.pattern.startsWith('(?i)'));
    const regex = rust === null ? null : withChangeableLines(rust, lineForms(source));
    // The include glob comes before the directories never searched: ripgrep's last matching glob wins.
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const include = params.include ? `--glob=${escape(params.include)} ` : '';
    const argv = new RegExp(`--max-filesize 1048576 ${include}(--glob=!\\S+/ )*--regexp=${escape(regex ?? '')} -- ${escape(params.path ?? '.')}\n`);
    expect(argv.test(fs.readFileSync(log, 'utf8'))).toBe(regex !== null && !params.path?.endsWith('.txt'));
  });

  it('falls back to the JavaScript walk when rg fails to run', async () => {
    const broken = path.join(path.dirname(ws.root), 'broken-bin');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'rg'), "#!/bin/sh\necho 'rg: something is wrong' >&2\nexit 2\n", { mode: 0o755 });
    const tool = createBuiltinTools({ ...ws.ctx, env: { PATH: `${broken}:/usr/bin:/bin` } }, ['grep'])[0]!;
    expect(text(await call(tool, { pattern: 'TODO' }))).toBe((await grep('javascript', { pattern: 'TODO' })).text);
  });

  it('kills ripgrep when the call is cancelled, or gives it up at half the time limit', async () => {
    const slow = path.join(path.dirname(ws.root), 'slow-bin');
    fs.mkdirSync(slow);
    const pids = path.join(slow, 'pids');
    fs.writeFileSync(path.join(slow, 'rg'), `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 30\n`, { mode: 0o755 });
    const ctx = { ...ws.ctx, env: { PATH: `${slow}:/usr/bin:/bin` } };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    const cancelled = await call(createBuiltinTools(ctx, ['grep'])[0]!, { pattern: 'TODO' }, controller.signal);
    expect(cancelled.error?.type).toBe('aborted');
    // ripgrep that has not answered in half the time is killed; the JavaScript walk answers with the rest.
    const givenUp = await call(createBuiltinTools({ ...ctx, grepTimeLimitMs: 2000 }, ['grep'])[0]!, { pattern: 'TODO' });
    expect(text(givenUp)).toBe((await grep('javascript', { pattern: 'TODO' })).text);
    expect(performance.now() - started).toBeLessThan(10_000);
    const alive = fs.readFileSync(pids, 'utf8').trim().split('\n').filter((pid) => {
      try {
        process.kill(Number(pid), 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });

  it('answers like the JavaScript walk on the cases that show the tree is read the same way', async () => {
    const all = (await grep(undefined, { pattern: 'TODO' })).text;
    for (const found of ['README.md:2:', 'src/keep.log:1:', 'src/-dash.txt:1:', 'src/with space/ünï cödé.txt:1:', '.hidden/h.ts:1:', 'vendor/lib/code.ts:1:', 'bin/late8k.txt:1201: TODO then', 'bin/late64k.txt:9001: TODO then', 'big/exact.txt:1:', `src/long.txt:3: ${'y'.repeat(250)}…`]) {
      expect(all).toContain(found);
    }
    for (const absent of ['secret.txt', 'app.log', 'dist/', 'generated', 'node_modules', '.git/', '.unattended', 'vendor/lib/x.log', 'early.bin', 'over.txt:', 'link-', 'TOP SECRET']) {
      expect(all).not.toContain(absent);
    }
    expect(all).toMatch(/\[1 file over 1 MB not searched: big\/over\.txt\]\n\[1 binary file skipped\]$/);
  });
});

// Found by a differential fuzz of the two engines (18,000 random trees and calls), each cut down to
// its smallest tree; `shows` is the right answer, which git agrees with where ignore rules decide.
describe.skipIf(!realRg)('the two engines agree where they once did not', () => {
  const pad = 'pad\n'.repeat(2300);
  it.each<{ name: string; files: Record<string, string | Buffer>; params: { pattern: string; include?: string; path?: string }; shows: string | null }>([
    { name: '.gitignore rules are case-sensitive, as git reads them', files: { '.gitignore': '*.log\n', 'BUILD.LOG': 'TODO uppercase log\n' }, params: { pattern: 'TODO' }, shows: 'BUILD.LOG:1: TODO uppercase log' },
    { name: 'an include of * does not bring node_modules back', files: { 'node_modules/pkg/index.js': 'x\n', 'notes.txt': `${pad}\0\nTODO after the NUL\n` }, params: { pattern: 'TODO', include: '*' }, shows: 'notes.txt:2302: TODO after the NUL' },
    { name: 'a UTF-8 byte-order mark is a character of the line, not stripped', files: { 'config.ini': '\ufeff[section]\nkey=value\n' }, params: { pattern: '[^\\x00-\\x7F]' }, shows: 'config.ini:1:' },
    { name: 'a UTF-16 file is binary to both', files: { 'win.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\r\n', 'utf16le')]) }, params: { pattern: 'TODO' }, shows: null },
    { name: 'a .git file (a linked work tree) that the .gitignore beside it ignores is not searched', files: { '.git': 'gitdir: /home/me/repo/.git/worktrees/feature\n', '.gitignore': '.*\n!.gitignore\n', 'a.txt': 'x\n' }, params: { pattern: 'gitdir' }, shows: null },
    // ripgrep's include glob overrides .gitignore: its count held the ignored file, as many files as
    // the listing, and the file it left out as binary (a NUL after 8 KB: text to grep) went unread.
    { name: 'an include glob does not count ignored files in place of a left-out one', files: { '.gitignore': 'ignored.txt\n.gitignore\n', 'ignored.txt': 'TODO ignored\n', 'late.txt': `${pad}TODO after 8 KB\n\0\n` }, params: { pattern: 'TODO', include: '*.txt' }, shows: 'late.txt:2301: TODO after 8 KB' },
    // JavaScript reads a byte that is not UTF-8 as U+FFFD; ripgrep was given U+FFFD's own bytes.
    { name: 'U+FFFD in the pattern matches a byte that is not UTF-8', files: { 'latin1.txt': Buffer.from('caf\xe9 au lait\n', 'latin1') }, params: { pattern: 'caf\ufffd|[\ufffd]x' }, shows: 'latin1.txt:1: caf\ufffd au lait' },
    { name: 'a .gitignore that ignores itself, above a nested repository', files: { 'packages/app/.gitignore': '.*\n*.log\n', 'packages/app/vendor/.git/HEAD': 'ref: x\n', 'packages/app/vendor/debug.log': 'TODO from an ignored log\n', 'packages/app/main.ts': 'nothing\n' }, params: { pattern: 'TODO' }, shows: null },
    // The pattern is JavaScript's: a character beyond U+FFFF is two of its `.`, and a run of bytes
    // that is not UTF-8 one U+FFFD; ripgrep's form covered neither count exactly.
    { name: 'a character beyond U+FFFF is two characters to the pattern', files: { 'emoji.txt': '😀\n' }, params: { pattern: '^..$|^[^a]{2}$' }, shows: 'emoji.txt:1: 😀' },
    { name: 'a class range across the surrogates matches half a character beyond U+FFFF', files: { 'emoji.txt': 'x😀\n' }, params: { pattern: 'x[\\u0000-\\uffff]{2}$' }, shows: 'emoji.txt:1: x😀' },
    { name: 'two bytes that are not UTF-8 are one U+FFFD', files: { 'cut.txt': Buffer.from([0x61, 0xf0, 0x9f, 0x0a]) }, params: { pattern: '^a.$' }, shows: 'cut.txt:1: a\ufffd' },
    { name: 'a class range that holds U+FFFD matches a byte that is not UTF-8', files: { 'latin1.txt': Buffer.from('caf\xe9\n', 'latin1') }, params: { pattern: 'caf[\\uf000-\\uffff]' }, shows: 'latin1.txt:1: caf\ufffd' },
    // Under (?i) JavaScript pairs letters by its own Unicode tables, newer than ripgrep's may be.
    { name: '(?i) pairs the letters JavaScript pairs', files: { 'lambda.txt': 'barred \ua7dc\n' }, params: { pattern: '(?i)barred \u019b' }, shows: 'lambda.txt:1: barred \ua7dc' },
    // The tools read .gitignore files, as git does, and nothing else: ripgrep reads .rgignore
    // files whatever its flags, and reads some .gitignore lines otherwise than git.
    { name: 'a .rgignore is not read', files: { '.rgignore': 'notes.txt\n', 'notes.txt': 'TODO in notes\n' }, params: { pattern: 'TODO' }, shows: 'notes.txt:1: TODO in notes' },
    { name: 'a .rgignore is not read, with an include glob', files: { 'sub/.rgignore': '*.txt\n', 'sub/notes.txt': 'TODO in notes\n' }, params: { pattern: 'TODO', include: '*.txt' }, shows: 'sub/notes.txt:1: TODO in notes' },
    { name: 'a .ignore is not read', files: { '.ignore': 'notes.txt\n', 'notes.txt': 'TODO in notes\n' }, params: { pattern: 'TODO' }, shows: 'notes.txt:1: TODO in notes' },
    { name: 'braces in a .gitignore are literal', files: { '.gitignore': '*.{js,ts}\n', 'app.js': 'TODO in js\n' }, params: { pattern: 'TODO' }, shows: 'app.js:1: TODO in js' },
    { name: 'a trailing tab in a .gitignore is part of the pattern', files: { '.gitignore': '*.log\t\n', 'app.log': 'TODO in a log\n' }, params: { pattern: 'TODO' }, shows: 'app.log:1: TODO in a log' },
    { name: 'a negated class in a .gitignore never matches a slash', files: { '.gitignore': '/b*[!.]*\n', 'b/x.txt': 'TODO in b\n' }, params: { pattern: 'TODO' }, shows: 'b/x.txt:1: TODO in b' },
    { name: 'an escaped character in a .gitignore', files: { '.gitignore': '\\#notes.txt\n', 'src/#notes.txt': 'TODO hashed\n', 'other.txt': 'TODO\n' }, params: { pattern: 'TODO', path: 'src' }, shows: null },
    { name: 'a byte-order mark before a .gitignore\'s first line', files: { '.gitignore': '\ufeffapp.log\n', 'app.log': 'TODO in a log\n', 'keep.txt': 'TODO kept\n' }, params: { pattern: 'TODO' }, shows: 'keep.txt:1: TODO kept' },
    // Other agents' grep reads an include from the searched directory: with path 'src', 'deep/*.ts'
    // found nothing ('searched 0 files'); the workspace root's reading still holds.
    { name: 'an include with a / is read from the searched directory', files: { 'src/deep/b.ts': 'TODO deep\n', 'src/a.ts': 'TODO top\n' }, params: { pattern: 'TODO', path: 'src', include: 'deep/*.ts' }, shows: 'src/deep/b.ts:1: TODO deep' },
    // A file that writes é as e + U+0301 (macOS) answered "No matches" for café, on both engines.
    { name: 'a composed pattern finds the letter written decomposed', files: { 'notes.md': '# Menu\ncafe\u0301 au lait\n' }, params: { pattern: 'café' }, shows: 'notes.md:2: cafe\u0301 au lait' },
    { name: 'a decomposed pattern finds the letter written composed', files: { 'notes.md': 'café au lait\n' }, params: { pattern: 'cafe\u0301' }, shows: 'notes.md:1: café au lait' },
    { name: 'a regular expression with an accented letter, ignoring case', files: { 'a.txt': 'plain\n', 'sub/notes.md': 'x\nLe CAFE\u0301 est pre\u0302t\n' }, params: { pattern: '(?i)café.*prêt$' }, shows: 'sub/notes.md:2: Le CAFE\u0301 est pre\u0302t' },
    { name: 'an accented letter in a class', files: { 'notes.md': 'cre\u0300me\n' }, params: { pattern: 'cr[éè]me' }, shows: 'notes.md:1: cre\u0300me' },
    { name: 'both forms in one file, in line order', files: { 'notes.md': 'cafe\u0301 one\ncafé two\ncafe three\n' }, params: { pattern: 'café' }, shows: 'notes.md:1: cafe\u0301 one\nnotes.md:2: café two' },
    { name: 'a letter without its accent is no match', files: { 'notes.md': 'cafe au lait\ncafe\u0300 noir\n' }, params: { pattern: 'café' }, shows: null },
    // An include naming a directory matched no file: "searched 0 files matching src" read as "nothing in src".
    { name: 'an include that names a directory says what to write', files: { 'src/a.ts': 'TODO a\n' }, params: { pattern: 'TODO', include: 'src' }, shows: "No matches for /TODO/ in . (searched 0 files matching src; gitignored paths, .git, node_modules and .unattended are not searched). include is a file glob, and 'src' names the directory src/: give it as path ('src'), or write the include as 'src/**'." },
    { name: 'an include that names a directory below the path', files: { 'src/deep/b.ts': 'TODO b\n', 'src/a.ts': 'x\n' }, params: { pattern: 'TODO', path: 'src', include: 'deep/' }, shows: "include is a file glob, and 'deep/' names the directory src/deep/: give it as path ('src/deep'), or write the include as 'src/deep/**'." },
    // An include inside a directory a search leaves out: "searched 0 files matching build/*.js" read as "none there".
    { name: 'an include inside a gitignored directory says it was not searched', files: { '.gitignore': 'build/\n', 'build/out.js': 'TODO built\n', 'src/a.js': 'x\n' }, params: { pattern: 'TODO', include: 'build/*.js' }, shows: "build/ was not searched (it is gitignored): give it as path ('build') to search it." },
    { name: 'the path it suggests finds the files', files: { '.gitignore': 'build/\n', 'build/out.js': 'TODO built\n', 'src/a.js': 'x\n' }, params: { pattern: 'TODO', include: 'build/*.js', path: 'build' }, shows: 'build/out.js:1: TODO built' },
    { name: 'an include inside node_modules says it was not searched', files: { 'node_modules/m/i.js': 'TODO dep\n', 'src/gen/x.js': 'x\n' }, params: { pattern: 'TODO', include: 'node_modules/**/*.js' }, shows: "node_modules/ was not searched (node_modules is searched only when named): give it as path ('node_modules') to search it." },
    { name: 'an include below the path, inside a gitignored directory', files: { 'src/.gitignore': 'gen/\n', 'src/gen/x.ts': 'TODO gen\n', 'src/a.ts': 'x\n' }, params: { pattern: 'TODO', path: 'src', include: 'gen/*.ts' }, shows: "src/gen/ was not searched (it is gitignored): give it as path ('src/gen') to search it." },
    { name: 'the include it suggests finds the files', files: { 'src/deep/b.ts': 'TODO b\n', 'src/a.ts': 'x\n' }, params: { pattern: 'TODO', path: 'src', include: 'src/deep/**' }, shows: 'src/deep/b.ts:1: TODO b' },
    { name: 'an include with a / is read from the workspace root', files: { 'src/deep/b.ts': 'TODO deep\n', 'src/a.ts': 'TODO top\n' }, params: { pattern: 'TODO', path: 'src', include: 'src/deep/*.ts' }, shows: 'src/deep/b.ts:1: TODO deep' },
  ])('$name', async ({ files, params, shows }) => {
    const ws = makeWorkspace(files);
    const { grep } = loggedRipgrep(ws, realRg!);
    const viaRg = await grep(undefined, params);
    expect(viaRg).toEqual(await grep('javascript', params));
    if (shows === null) expect(viaRg.text).toMatch(/^No matches/);
    else expect(viaRg.text).toContain(shows);
  });

  // git reads no .gitignore through a link; ripgrep does. Both ways ripgrep searches: in one pass,
  // and in two (an include glob).
  it.each([{ pattern: 'TODO' }, { pattern: 'TODO', include: '*.log' }])('a .gitignore that is a link is not read ($include)', async (params) => {
    const ws = makeWorkspace({ 'rules.txt': '*.log\n!keep.log\n', 'sub/app.log': 'TODO in a log\n', 'top.log': 'TODO at the top\n', '.gitignore': 'keep.log\n', 'sub/keep.log': 'TODO kept\n' });
    fs.symlinkSync('../rules.txt', path.join(ws.root, 'sub/.gitignore'));
    const { grep } = loggedRipgrep(ws, realRg!);
    const viaRg = await grep(undefined, params);
    expect(viaRg).toEqual(await grep('javascript', params));
    expect(viaRg.text).toContain('sub/app.log:1: TODO in a log');
    expect(viaRg.text).not.toContain('keep.log');
  });
});

describe('toRustRegex', () => {
  it.each([
    ['a\\nb', null],
    ['[]', null],
    ['[^]', null],
    ['\ud83d\ude00', null],
    ['a.b', 'a(?:[^\\n]|(?-u:[\\x80-\\xFF]{1,3}))b'],
    ['\\bx\\b', 'x'],
    ['(?=a)b', '(?:)b'],
    ['a&&b', 'a\\x{26}\\x{26}b'],
    ['[a-c&]', '[\\x{61}-\\x{63}\\x{26}]'],
    ['x{2,}y{', 'x{2,}y\\x{7b}'],
    ['(?<n>a)', '(?:a)'],
  ])('%s → %s', (source, expected) => {
    expect(toRustRegex(source, false)).toBe(expected);
  });
});
