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

/** A scratch directory and git run there as a test user, with no system or user config but its own (HOME is the directory). */
function scratch() {
  const dir = tempDir();
  const git = (args: string[], cwd: string) =>
    execa('git', ['-c', 'protocol.file.allow=always', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, reject: false, env: { GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
  return { dir, git };
}

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

  // `git init --separate-git-dir=.bare` (or a bare repository beside its work trees) leaves a
  // `.git` file naming a git directory of another name in the workspace: only `.git` was guarded,
  // so a sandboxed command planted a hook and an fsmonitor there, and write_file could write it.
  it('the git directory a .git file names in the workspace is guarded as .git is', async () => {
    const { dir, git } = scratch();
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    await git(['init', '-q', '-b', 'main', '--separate-git-dir', path.join(ws, '.bare'), ws], dir);
    await git(['commit', '-q', '--allow-empty', '-m', 'init'], ws);
    const marker = path.join(outsideDir(), 'planted-ran');
    const run = await runCommands({
      workspace: ws,
      env: { HOME: dir },
      tools: ['shell', 'write_file'],
      commands: [],
      calls: [
        { name: 'shell', args: { command: `printf '#!/bin/sh\ntouch ${marker}\n' > .bare/hooks/pre-commit; echo "hook exit $?"; git config core.fsmonitor "touch ${marker}; false"; echo "config exit $?"; mv .bare other; echo "mv exit $?"` } },
        { name: 'write_file', args: { file_path: '.bare/hooks/post-checkout', content: `#!/bin/sh\ntouch ${marker}\n` } },
      ],
    });
    expect(run.outputs[0]).toMatch(/hook exit [1-9][\s\S]*config exit [1-9][\s\S]*mv exit [1-9]/);
    expect(run.report.denials.map((d: { tool: string; reason: string }) => `${d.tool}: ${d.reason}`)).toEqual([expect.stringContaining("write_file would write '.bare/hooks/post-checkout', which is protected")]);
    expect(fs.existsSync(path.join(ws, '.bare/hooks/pre-commit'))).toBe(false);
    expect(fs.existsSync(path.join(ws, '.bare/hooks/post-checkout'))).toBe(false);
    const status = await git(['status', '--short'], ws);
    expect(status.exitCode, status.stderr).toBe(0);
    await git(['commit', '-q', '--allow-empty', '-m', 'next'], ws);
    expect(fs.existsSync(marker)).toBe(false);
  });

  // The README's advice for a linked work tree: name its repository's git directory in
  // sandbox.writable so that `git commit` works there. That directory's config and hooks were then
  // writable too: a command planted a hook and an fsmonitor the next git there ran.
  it("a linked work tree's repository made writable keeps its config and hooks read-only", async () => {
    const { dir, git } = scratch();
    const main = path.join(dir, 'main');
    fs.mkdirSync(main);
    await git(['init', '-q', '-b', 'main'], main);
    await git(['commit', '-q', '--allow-empty', '-m', 'init'], main);
    const ws = path.join(dir, 'wt');
    await git(['worktree', 'add', '-q', ws, '-b', 'side'], main);
    const marker = path.join(outsideDir(), 'planted-ran');
    const run = await runCommands({
      workspace: ws,
      env: { HOME: dir },
      sandbox: { mode: 'required', writable: [path.join(main, '.git')] },
      commands: [`printf '#!/bin/sh\\ntouch ${marker}\\n' > ${main}/.git/hooks/pre-commit; echo "hook exit $?"; git config core.fsmonitor "touch ${marker}; false"; echo "config exit $?"; echo x > f && git add f && git -c user.name=t -c user.email=t@t commit -qm c; echo "commit exit $?"`],
    });
    expect(run.outputs[0]).toMatch(/hook exit [1-9][\s\S]*config exit [1-9][\s\S]*commit exit 0/);
    expect(fs.existsSync(path.join(main, '.git/hooks/pre-commit'))).toBe(false);
    await git(['status', '--short'], main);
    expect(fs.existsSync(marker)).toBe(false);
  });

  // A submodule's `.git` file names its git directory (.git/modules/<name>, whose config is held
  // read-only): repointed at a directory with a config of the command's own, with the same commit
  // checked out, the superproject's `git status` showed nothing and ran its fsmonitor.
  it("a submodule's .git file cannot be repointed: the superproject's git status runs no planted config", async () => {
    const { dir, git } = scratch();
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

// `git submodule add URL libs/core` names the submodule by its path, so its git directory is
// .git/modules/libs/core; and a submodule of a submodule keeps its own under
// .git/modules/<name>/modules/<name>. Only the first level below .git/modules was guarded: a
// command wrote an fsmonitor into such a config, and the superproject's next `git status` (a
// person's, on the host, after the run) ran it.
describe.skipIf(!bwrapWorks)('submodules whose git directory lies deeper in .git/modules', () => {
  it("a slashed name's and a nested submodule's config and hooks stay read-only", async () => {
    const { dir, git } = scratch();
    const leaf = path.join(dir, 'leaf');
    const lib = path.join(dir, 'lib');
    for (const d of [leaf, lib]) {
      fs.mkdirSync(d);
      await git(['init', '-q', '-b', 'main'], d);
      await git(['commit', '-q', '--allow-empty', '-m', path.basename(d)], d);
    }
    await git(['submodule', 'add', '-q', leaf, 'inner'], lib);
    await git(['commit', '-q', '-m', 'inner'], lib);
    const ws = path.join(dir, 'repo');
    fs.mkdirSync(ws);
    await git(['init', '-q', '-b', 'main'], ws);
    await git(['submodule', 'add', '-q', lib, 'libs/core'], ws);
    await git(['submodule', 'update', '-q', '--init', '--recursive'], ws);
    await git(['commit', '-q', '-m', 'sub'], ws);
    expect(fs.existsSync(path.join(ws, '.git/modules/libs/core/modules/inner/config'))).toBe(true);
    const marker = path.join(outsideDir(), 'fsmonitor-ran');
    const plant = (gitDir: string) =>
      `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' >> ${gitDir}/config; echo "config exit $?"; printf '#!/bin/sh\\ntouch ${marker}\\n' > ${gitDir}/hooks/post-checkout; echo "hook exit $?"`;
    const run = await runCommands({
      workspace: ws,
      commands: [plant('.git/modules/libs/core'), plant('.git/modules/libs/core/modules/inner')],
    });
    for (const output of run.outputs) {
      expect(output).toMatch(/config exit [1-9]/);
      expect(output).toMatch(/hook exit [1-9]/);
    }
    await git(['status', '--short'], ws);
    await git(['-C', 'libs/core', 'status', '--short'], ws);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

// A mount point cannot be renamed, but its parent could: `mv .git/modules x` and a fresh
// .git/modules/sub, or `mv sub x` and a fresh sub/.git naming a git directory of the command's
// own, put a config with an fsmonitor where the superproject's next `git status` looks, though
// the guarded config and `.git` file stayed read-only where they went.
describe.skipIf(!bwrapWorks)('the directories that lead to a guarded git path', () => {
  it.each([
    ['.git/modules', `mv .git/modules .git/modules-old; echo "mv exit $?"; mkdir -p .git/modules && cp -r .git/modules-old/sub .git/modules/sub && printf '[core]\\n\\tfsmonitor = "touch MARKER; false"\\n' >> .git/modules/sub/config; echo "config exit $?"`],
    ["the submodule's work tree", `cp -r .git/modules/sub evil && printf '[core]\\n\\tworktree = ../sub\\n\\tfsmonitor = "touch MARKER; false"\\n' >> evil/config; mv sub sub-old; echo "mv exit $?"; mkdir -p sub && echo 'gitdir: ../evil' > sub/.git; echo "config exit $?"`],
  ])('cannot be renamed to swap in a planted config: %s', async (_, command) => {
    const { dir, git } = scratch();
    const lib = path.join(dir, 'lib');
    fs.mkdirSync(lib);
    await git(['init', '-q', '-b', 'main'], lib);
    await git(['commit', '-q', '--allow-empty', '-m', 'lib'], lib);
    const ws = path.join(dir, 'repo');
    fs.mkdirSync(ws);
    await git(['init', '-q', '-b', 'main'], ws);
    await git(['submodule', 'add', '-q', lib, 'sub'], ws);
    await git(['commit', '-q', '-m', 'sub'], ws);
    const marker = path.join(outsideDir(), 'fsmonitor-ran');
    const run = await runCommands({ workspace: ws, commands: [command.replace('MARKER', marker), 'echo hi > sub/new.txt && cat sub/new.txt'] });
    expect(run.outputs[0]).toMatch(/mv exit [1-9]/);
    // The work tree stays writable.
    expect(run.outputs[1]).toContain('hi');
    await git(['status', '--short'], ws);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

// With extensions.worktreeConfig on, git reads .git/config.worktree beside the config; a
// repository without one yet let a command write it, with an fsmonitor the next git status ran.
describe.skipIf(!bwrapWorks)('a config.worktree the repository would read but does not have yet', () => {
  it('cannot be written by a command: it is made empty and held read-only', async () => {
    const { dir, git } = scratch();
    const ws = path.join(dir, 'repo');
    fs.mkdirSync(ws);
    await git(['init', '-q', '-b', 'main'], ws);
    await git(['config', 'extensions.worktreeConfig', 'true'], ws);
    await git(['commit', '-q', '--allow-empty', '-m', 'init'], ws);
    const marker = path.join(outsideDir(), 'fsmonitor-ran');
    const run = await runCommands({
      workspace: ws,
      commands: [`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > .git/config.worktree; echo "write exit $?"`],
    });
    expect(run.outputs[0]).toMatch(/write exit [1-9]/);
    expect(fs.readFileSync(path.join(ws, '.git/config.worktree'), 'utf8')).toBe('');
    await git(['status', '--short'], ws);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

// A project that shares its git settings in the work tree (`git config include.path
// ../.gitconfig`): the included file is config as much as .git/config is, and a command wrote an
// fsmonitor into it that the next git status ran.
describe.skipIf(!bwrapWorks)('a file the repository config includes', () => {
  it('stays read-only where it lies in the workspace', async () => {
    const { dir, git } = scratch();
    const ws = path.join(dir, 'repo');
    fs.mkdirSync(ws);
    await git(['init', '-q', '-b', 'main'], ws);
    fs.writeFileSync(path.join(ws, '.gitconfig'), '[pull]\n\trebase = true\n');
    await git(['config', 'include.path', '../.gitconfig'], ws);
    await git(['add', '.gitconfig'], ws);
    await git(['commit', '-q', '-m', 'init'], ws);
    const marker = path.join(outsideDir(), 'fsmonitor-ran');
    const run = await runCommands({
      workspace: ws,
      commands: [`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' >> .gitconfig; echo "write exit $?"; echo x > other.txt && echo wrote`],
    });
    expect(run.outputs[0]).toMatch(/write exit [1-9]/);
    expect(run.outputs[0]).toContain('wrote');
    await git(['status', '--short'], ws);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
