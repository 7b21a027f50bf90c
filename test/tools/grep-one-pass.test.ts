// Issue 13 §3: grep's single ripgrep pass (no include glob, no .gitignore above the searched
// directory, no nested repository) gives the JavaScript walk's answer byte for byte, counts and
// notes included: binary files early and late, over-1 MB files (also ignored ones), a `.git`
// file (a worktree's), ignored and hidden paths, the 200-match cap. And where it cannot tell the
// whole story (a nested repository) the two passes take over. ripgrep is reached through a
// logging wrapper on PATH, so each case also shows which path ran.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { cleanupAll, loggedRipgrep, makeWorkspace, type TempWorkspace } from './helpers.js';

const realRg = findRipgrep(process.env.PATH);
afterAll(cleanupAll);

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n';
/** The searching passes: not the one beside them that lists the ignore files (grep-rg-ignore-files.ts). */
const searches = (argvs: string[]) => argvs.filter((argv) => !argv.includes('--glob=.gitignore'));

describe.skipIf(!realRg)('grep in one ripgrep pass', () => {
  let ws: TempWorkspace;
  let grep: ReturnType<typeof loggedRipgrep>['grep'];
  let calls: ReturnType<typeof loggedRipgrep>['calls'];
  beforeAll(() => {
    ws = makeWorkspace({
      '.git': 'gitdir: /elsewhere/worktrees/x TODO\n',
      '.gitignore': 'dist/\n*.log\n',
      'README.md': 'TODO: docs\n',
      'app.log': 'TODO ignored\n',
      'big.log': `TODO ignored and over 1 MB\n${'z'.repeat(1024 * 1024)}`,
      'dist/out.js': 'TODO built\n',
      'src/main.ts': 'export const x = 1; // TODO main\n',
      'src/many.txt': lines(250, (i) => `match line ${i}`),
      'src/empty.txt': '',
      '.hidden/h.ts': 'TODO hidden\n',
      'node_modules/p/i.js': 'TODO dependency\n',
      'bin/early.bin': Buffer.concat([Buffer.from('TODO before a NUL\n'), Buffer.from([0, 1, 2])]),
      'bin/zeros.bin': Buffer.alloc(4000),
      'bin/late8k.txt': Buffer.concat([Buffer.from(lines(1200, (i) => `pad ${i}`)), Buffer.from('TODO then\n\0NUL after 8 KB\n')]),
      'big/exact.txt': `TODO at 1 MB exactly\n${'z'.repeat(1024 * 1024 - 21)}`,
      'big/over.txt': `TODO over 1 MB\n${'z'.repeat(1024 * 1024)}`,
    });
    ({ grep, calls } = loggedRipgrep(ws, realRg!));
  });

  it.each(['TODO', 'NOT_ANYWHERE_AT_ALL', 'match', 'NUL|then', 'gitdir'])('/%s/ as the JavaScript walk answers it, in one pass', async (pattern) => {
    let viaRg: Awaited<ReturnType<typeof grep>> | undefined;
    const argvs = searches(await calls(async () => (viaRg = await grep(undefined, { pattern }))));
    expect(argvs).toHaveLength(1);
    expect(argvs[0]).toContain('--debug --stats --text --count');
    expect(viaRg).toEqual(await grep('javascript', { pattern }));
  });

  it('reads the tree as the walk does (the notes and counts say so)', async () => {
    const all = (await grep(undefined, { pattern: 'TODO' })).text;
    for (const found of ['.git:1:', 'README.md:1:', 'src/main.ts:1:', '.hidden/h.ts:1:', 'bin/late8k.txt:1201: TODO then', 'big/exact.txt:1:']) expect(all).toContain(found);
    for (const absent of ['app.log', 'big.log', 'dist/', 'node_modules', 'early.bin', 'over.txt:']) expect(all).not.toContain(absent);
    // early.bin, zeros.bin binary, over.txt over 1 MB (named): not big.log (ignored), not late8k.txt (its NUL is past 8 KB).
    const notes = '[1 file over 1 MB not searched: big/over.txt]\n[2 binary files skipped]';
    expect(all.endsWith(`\n${notes}`)).toBe(true);
    expect((await grep(undefined, { pattern: 'NOT_ANYWHERE_AT_ALL' })).text).toBe(
      `No matches for /NOT_ANYWHERE_AT_ALL/ in the 9 files searched under .; 1 file over 1 MB was not searched (see below), so there may be matches.\n${notes}`,
    );
  });

  it('gives way to the JavaScript walk when --debug logs too much: a line per gitignored file', async () => {
    // 3,000 files left out by a `*.o` rule: each is a --debug line (~55 µs of ripgrep's time, in
    // some 60 writes), which made a search of 20,000 such files take 1.6-2.7 s instead of 0.2 s.
    // The two passes' listing logs the same lines (it names the rules' files: grep-rg-ignore-files.ts).
    const objects = path.join(ws.root, 'objects');
    fs.mkdirSync(objects);
    fs.writeFileSync(path.join(objects, '.gitignore'), '*.o\n');
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(objects, `unit-${i}.o`), 'TODO compiled\n');
    fs.writeFileSync(path.join(objects, 'unit.c'), 'int x; // TODO source\n');
    try {
      for (const pattern of ['TODO', 'NOT_ANYWHERE_AT_ALL']) {
        let viaRg: Awaited<ReturnType<typeof grep>> | undefined;
        const argvs = searches(await calls(async () => (viaRg = await grep(undefined, { pattern }))));
        expect(argvs).toHaveLength(1);
        expect(argvs[0]).toContain('--debug --stats');
        expect(viaRg).toEqual(await grep('javascript', { pattern }));
      }
    } finally {
      fs.rmSync(objects, { recursive: true, force: true });
    }
  });

  it('leaves a tree with a nested repository to the two passes, with the same answer', async () => {
    fs.mkdirSync(path.join(ws.root, 'vendor/lib/.git'), { recursive: true });
    fs.writeFileSync(path.join(ws.root, 'vendor/lib/x.log'), 'TODO vendored log, ignored by the root .gitignore\n');
    try {
      let viaRg: Awaited<ReturnType<typeof grep>> | undefined;
      const argvs = await calls(async () => (viaRg = await grep(undefined, { pattern: 'TODO' })));
      expect(argvs.some((argv) => argv.includes('--files'))).toBe(true);
      expect(viaRg).toEqual(await grep('javascript', { pattern: 'TODO' }));
      expect(viaRg!.text).not.toContain('x.log');
    } finally {
      fs.rmSync(path.join(ws.root, 'vendor'), { recursive: true, force: true });
    }
  });
});
