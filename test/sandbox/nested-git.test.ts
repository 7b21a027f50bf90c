// Git metadata a command could repoint at a config it wrote, for the next git run by a person.
// A linked work tree (`git worktree add ../side`) finds its repository's config, hooks and refs
// through .git/worktrees/<name>/commondir, which lies in the workspace. Repointed by a sandboxed
// command at a directory holding a config with an fsmonitor, the next `git status` in the linked
// work tree (outside the workspace, beyond the sandbox) ran that fsmonitor on the host.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { bwrapWorks, outsideDir, removeOutsideDirs, runCommands } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeOutsideDirs);

describe.skipIf(!bwrapWorks)("a linked work tree's metadata in the workspace", () => {
  it('cannot be repointed or swapped by a command: the next git there runs no planted config', async () => {
    const ws = path.join(tempDir(), 'repo');
    fs.mkdirSync(ws);
    const git = (args: string[], cwd: string) => execa('git', args, { cwd, reject: false, env: { GIT_CONFIG_NOSYSTEM: '1', HOME: ws } });
    await git(['init', '-q', '-b', 'main'], ws);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], ws);
    const side = path.join(outsideDir(), 'side');
    await git(['worktree', 'add', '-q', side, '-b', 'side'], ws);
    const meta = path.join(ws, '.git/worktrees/side');
    const before = fs.readFileSync(path.join(meta, 'commondir'), 'utf8');
    const marker = path.join(outsideDir(), 'fsmonitor-ran');
    const run = await runCommands({
      workspace: ws,
      commands: [
        `mkdir -p evil && cp -r .git/objects .git/refs .git/HEAD evil/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${marker}; false"\\n' > evil/config && echo made`,
        `echo "$PWD/evil" > .git/worktrees/side/commondir; echo "write exit $?"`,
        `mv .git/worktrees/side .git/worktrees/old; echo "mv exit $?"; mv .git/worktrees .git/wt-old; echo "mv all exit $?"`,
      ],
    });
    expect(run.outputs[0]).toContain('made');
    expect(run.outputs[1]).toMatch(/write exit [1-9]/);
    expect(run.outputs[2]).toMatch(/mv exit [1-9]/);
    expect(run.outputs[2]).toMatch(/mv all exit [1-9]/);
    expect(fs.readFileSync(path.join(meta, 'commondir'), 'utf8')).toBe(before);
    const status = await git(['status', '--short'], side);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
  });

  // A submodule's `.git` file names its git directory (.git/modules/<name>, whose config is held
  // read-only): repointed at a directory with a config of the command's own, with the same commit
  // checked out, the superproject's `git status` showed nothing and ran its fsmonitor.
  it("a submodule's .git file cannot be repointed: the superproject's git status runs no planted config", async () => {
    const dir = tempDir();
    const git = (args: string[], cwd: string) =>
      execa('git', ['-c', 'protocol.file.allow=always', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, reject: false, env: { GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
    const lib = path.join(dir, 'lib');
    fs.mkdirSync(lib);
    await git(['init', '-q', '-b', 'main'], lib);
    await git(['commit', '-q', '--allow-empty', '-m', 'lib'], lib);
    const ws = path.join(dir, 'repo');
    fs.mkdirSync(ws);
    await git(['init', '-q', '-b', 'main'], ws);
    await git(['submodule', 'add', '-q', lib, 'sub'], ws);
    await git(['commit', '-q', '-m', 'sub'], ws);
    const before = fs.readFileSync(path.join(ws, 'sub/.git'), 'utf8');
    const marker = path.join(outsideDir(), 'fsmonitor-ran');
    const run = await runCommands({
      workspace: ws,
      commands: [
        `mkdir -p evil && cp -r .git/modules/sub/objects .git/modules/sub/refs .git/modules/sub/HEAD evil/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tworktree = ../sub\\n\\tfsmonitor = "touch ${marker}; false"\\n' > evil/config && echo made`,
        'echo "gitdir: ../evil" > sub/.git; echo "write exit $?"',
      ],
    });
    expect(run.outputs[0]).toContain('made');
    expect(run.outputs[1]).toMatch(/write exit [1-9]/);
    expect(fs.readFileSync(path.join(ws, 'sub/.git'), 'utf8')).toBe(before);
    await git(['status', '--short'], ws);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
