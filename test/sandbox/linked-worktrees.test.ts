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
});
