// The programs the runner runs outside the sandbox (git, ripgrep, bwrap) are never taken from inside
// the workspace, where `npx` puts node_modules/.bin on PATH and a repository (or a command the
// policy allowed) can plant its own: each planted program here would leave a marker if it ran.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { hostPathVariable, hostProgram, plantFreePath } from '../../src/util/host-program.js';
import { git } from '../../src/git/git-exec.js';
import { snapshotTree } from '../../src/git/snapshot.js';
import { findRipgrep } from '../../src/tools/builtin/grep-rg.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

/** A git repository whose node_modules/.bin holds a `git`, `rg` and `bwrap` that each leave a marker. */
async function plantedRepo(): Promise<{ dir: string; bin: string; marker: string; PATH: string }> {
  const dir = fs.realpathSync(tempDir('unattended-planted-'));
  const marker = path.join(tempDir('unattended-marker-'), 'ran');
  const bin = path.join(dir, 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  for (const name of ['git', 'rg', 'bwrap']) {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho ${name} >> '${marker}'\nexit 0\n`, { mode: 0o755 });
  }
  await execa('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  return { dir, bin, marker, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
}

describe('programs the runner runs on the host', () => {
  it('are looked up on PATH without the entries inside the workspace (through a link too) or relative ones', async () => {
    const { dir, bin, PATH } = await plantedRepo();
    const link = path.join(tempDir('unattended-link-'), 'ws');
    fs.symlinkSync(dir, link);
    const variable = [bin, path.join(link, 'node_modules/.bin'), 'node_modules/.bin', ...process.env.PATH!.split(path.delimiter)].join(path.delimiter);
    expect(hostPathVariable(variable, dir).split(path.delimiter)).toEqual(process.env.PATH!.split(path.delimiter).filter((d) => d !== '' && path.isAbsolute(d)));
    expect(hostProgram('git', PATH, dir)).not.toBe(path.join(bin, 'git'));
    expect(hostProgram('git', PATH, dir)).toMatch(/\/git$/);
    expect(hostProgram('git', bin, dir)).toBeNull();
    // The same directory is fine for another workspace: only the workspace's own are refused.
    expect(hostProgram('git', PATH, tempDir())).toBe(path.join(bin, 'git'));
  });

  it("the runner's git, its snapshots and ripgrep never run the planted ones", async () => {
    const { dir, marker, PATH } = await plantedRepo();
    const env = { ...process.env, PATH };
    expect((await git(['status', '--porcelain'], { cwd: dir, parentEnv: env })).stdout).toContain('a.txt');
    expect(await snapshotTree(dir, [], env)).toMatch(/^[0-9a-f]{40}$/);
    expect(findRipgrep(PATH, dir) ?? '').not.toContain(dir);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('the PATH a host program is looked up on', () => {
  it('leaves out the working directory, each root, the repository around it (through links too), node_modules and relative entries', async () => {
    const repo = fs.realpathSync(tempDir('unattended-plant-free-'));
    await execa('git', ['init', '-q'], { cwd: repo });
    const workspace = path.join(repo, 'packages', 'app');
    const outsideDir = fs.realpathSync(tempDir('unattended-outside-'));
    const linked = path.join(outsideDir, 'into-repo');
    for (const dir of [workspace, path.join(repo, 'tools', 'bin'), path.join(outsideDir, 'bin'), path.join(outsideDir, 'node_modules', '.bin')]) fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(repo, 'tools'), linked);
    const entries = [path.join(repo, 'tools', 'bin'), path.join(linked, 'bin'), path.join(outsideDir, 'node_modules', '.bin'), 'bin', '', path.join(outsideDir, 'bin'), '/usr/bin'];
    // The workspace is a subdirectory: the repository around it holds tools/bin, and so does the link into it.
    expect(plantFreePath(entries.join(path.delimiter), [workspace]).split(path.delimiter)).toEqual([path.join(outsideDir, 'bin'), '/usr/bin']);
    // Run from / (a container's default), with no workspace inside a repository: only relative entries go.
    const cwd = process.cwd();
    process.chdir('/');
    try {
      expect(plantFreePath(['bin', '/usr/bin', path.join(outsideDir, 'bin')].join(path.delimiter), []).split(path.delimiter)).toEqual(['/usr/bin', path.join(outsideDir, 'bin')]);
    } finally {
      process.chdir(cwd);
    }
  });
});
