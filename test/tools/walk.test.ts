import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walk, type WalkStats } from '../../src/tools/walk.js';
import { cleanupAll, makeWorkspace } from './helpers.js';

afterAll(cleanupAll);

async function paths(ws: ReturnType<typeof makeWorkspace>, start = ws.root, options: Parameters<typeof walk>[2] = {}) {
  const out: string[] = [];
  for await (const entry of walk(ws.ctx.workspace, start, options)) out.push(entry.relative + (entry.isDirectory ? '/' : ''));
  return out;
}

describe('walk', () => {
  it('yields canonical relative paths depth first, names sorted at each level', async () => {
    const ws = makeWorkspace({ 'b.txt': '', 'a/z.txt': '', 'a.txt': '', 'a/b/c.txt': '', 'B.txt': '' });
    expect(await paths(ws, ws.root, { directories: true })).toEqual(['B.txt', 'a/', 'a/b/', 'a/b/c.txt', 'a/z.txt', 'a.txt', 'b.txt']);
  });

  it("applies git's precedence: a deeper .gitignore can re-include, an ignored directory is never entered", async () => {
    const ws = makeWorkspace({
      '.gitignore': '*.tmp\nbuild/\n/only-root.txt\n',
      'x.tmp': '',
      'only-root.txt': '',
      'sub/only-root.txt': '',
      'sub/.gitignore': '!keep.tmp\n',
      'sub/keep.tmp': '',
      'sub/drop.tmp': '',
      'build/.gitignore': '!*\n',
      'build/out.js': '',
    });
    expect(await paths(ws)).toEqual(['.gitignore', 'sub/.gitignore', 'sub/keep.tmp', 'sub/only-root.txt']);
  });

  it('walks a start directory asked for by name even when it is ignored or skipped', async () => {
    const ws = makeWorkspace({ '.gitignore': 'build/\n', 'build/out.js': '', 'node_modules/p/i.js': '', 'node_modules/p/node_modules/q/i.js': '' });
    expect(await paths(ws, path.join(ws.root, 'build'))).toEqual(['build/out.js']);
    expect(await paths(ws, path.join(ws.root, 'node_modules'))).toEqual(['node_modules/p/i.js']);
  });

  it('skips symbolic links, also ones pointing inside', async () => {
    const ws = makeWorkspace({ 'real/f.txt': '' });
    fs.symlinkSync('real', path.join(ws.root, 'alias'));
    fs.symlinkSync('real/f.txt', path.join(ws.root, 'f-link.txt'));
    expect(await paths(ws)).toEqual(['real/f.txt']);
  });

  it('stops at the entry cap and says so', async () => {
    const ws = makeWorkspace(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d/${String(i).padStart(2, '0')}`, ''])));
    const stats: WalkStats = { visited: 0, limitHit: false };
    const found = await paths(ws, ws.root, { maxEntries: 10, stats });
    expect(found).toEqual(Array.from({ length: 9 }, (_, i) => `d/0${i}`));
    expect(stats.limitHit).toBe(true);
  });

  it('stops when aborted', async () => {
    const ws = makeWorkspace({ 'a/b.txt': '' });
    const controller = new AbortController();
    controller.abort();
    await expect(paths(ws, ws.root, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
