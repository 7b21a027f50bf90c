// Links in a git directory: those there when the run started (Android's `repo` links objects and
// refs) are kept; one a tool left since is removed, with a note, before the runner's git runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { linksIn, removePlantedLinks } from '../../src/git/planted-links.js';

afterAll(removeTempDirs);

it('keeps the links a repository had, removes the ones added since, and never touches what they point to', () => {
  const dir = tempDir();
  const git = path.join(dir, '.git');
  const shared = path.join(dir, 'shared-objects');
  const victim = path.join(dir, 'victim');
  fs.mkdirSync(path.join(git, 'logs/refs/heads'), { recursive: true });
  fs.mkdirSync(shared);
  fs.writeFileSync(victim, 'original\n');
  fs.symlinkSync(shared, path.join(git, 'objects'));
  const start = linksIn([git]);
  fs.symlinkSync(victim, path.join(git, 'logs/refs/heads/main'));
  const notes = removePlantedLinks([git], start);
  expect(notes).toEqual([expect.stringContaining(`a tool left a symbolic link at ${path.join(git, 'logs/refs/heads/main')} (to ${victim})`)]);
  expect(fs.existsSync(path.join(git, 'logs/refs/heads/main'))).toBe(false);
  expect(fs.readlinkSync(path.join(git, 'objects'))).toBe(shared);
  expect(fs.readFileSync(victim, 'utf8')).toBe('original\n');
  // Repointed: a link that now leads elsewhere counts as new.
  fs.unlinkSync(path.join(git, 'objects'));
  fs.symlinkSync(victim, path.join(git, 'objects'));
  expect(removePlantedLinks([git], start)).toHaveLength(1);
});

// The walk runs before every git command of the runner. Change tracking's git (add, write-tree in a
// temporary index) writes objects only: walking refs and logs there cost 8.5 ms a command in a
// repository with 3,000 loose tags, a dozen times a run, for nothing it could write through.
it("change tracking's git looks for links where it writes, objects, not in 3,000 loose tags; the hand-off's git still looks everywhere", async () => {
  const { makeRepo } = await import('./repos.js');
  const { pinRepositoryLayout } = await import('../../src/git/pinned-layout.js');
  const { snapshotTree } = await import('../../src/git/snapshot.js');
  const { git } = await import('../../src/git/git-exec.js');
  const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
  const head = fs.readFileSync(path.join(ws, '.git/refs/heads/main'), 'utf8');
  fs.mkdirSync(path.join(ws, '.git/refs/tags/v1'), { recursive: true });
  for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(ws, `.git/refs/tags/v1/t${i}`), head);
  const layout = pinRepositoryLayout(ws)!;
  const victim = path.join(tempDir(), 'victim');
  fs.writeFileSync(victim, 'original\n');
  const planted = path.join(ws, '.git/logs/refs/heads/unattended-x');
  fs.mkdirSync(path.dirname(planted), { recursive: true });
  fs.symlinkSync(victim, planted);
  const read: string[] = [];
  const readdir = fs.readdirSync;
  const spy = vi.spyOn(fs, 'readdirSync').mockImplementation(((dir: fs.PathLike, options?: unknown) => {
    read.push(String(dir));
    return (readdir as (d: fs.PathLike, o?: unknown) => unknown)(dir, options);
  }) as typeof fs.readdirSync);
  try {
    expect(await snapshotTree(ws, [], process.env)).toMatch(/^[0-9a-f]{40}$/);
    expect(read.filter((dir) => dir.includes(`${path.sep}refs`) || dir.includes(`${path.sep}logs`))).toEqual([]);
    // Before a git that writes refs and reflogs (update-ref), the link is found and removed.
    await git(['rev-parse', 'HEAD'], { cwd: ws });
    expect(fs.existsSync(planted)).toBe(false);
    expect(layout.restore()).toEqual([expect.stringContaining(`a tool left a symbolic link at ${fs.realpathSync(path.dirname(planted))}`)]);
  } finally {
    spy.mockRestore();
  }
  expect(fs.readFileSync(victim, 'utf8')).toBe('original\n');
});
