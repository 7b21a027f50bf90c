// git-lfs, which a user's own `git lfs install` sets as the clean and smudge filter in their global
// config (kept: LFS files must stay pointers), reads the repository's config as well, and an
// extension named there (lfs.extension.NAME.clean = "PROGRAM %f") gets every LFS file piped
// through it. The runner's own `git add` of the workspace (change tracking, on the host, outside
// any sandbox) ran the repository's program as soon as a command wrote a file .gitattributes
// sends to LFS, and so did the model's `git add` with the sandbox off.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { gitConfigs, makeRepo } from '../git/repos.js';
import { runCommands } from '../sandbox/harness.js';

afterAll(removeTempDirs);

function hasGitLfs(): boolean {
  try {
    execSync('git-lfs version', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const lfs = hasGitLfs();
// Visible in the output: a skipped hostile-repository test must never pass silently.
if (!lfs) console.warn('SKIPPED: the git-lfs extension tests need git-lfs (apt-get install git-lfs)');

describe.skipIf(!lfs)("a repository's git-lfs extension", () => {
  it.each(['off', 'auto'])('never runs, with the sandbox %s, and the LFS file is still tracked', async (mode) => {
    const marks = tempDir('unattended-lfs-marks-');
    // The user's own home, with git-lfs set up as `git lfs install` does.
    const home = tempDir('unattended-lfs-home-');
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
    );
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n' });
    const program = path.join(marks, 'extension.sh');
    fs.writeFileSync(program, `#!/bin/sh\necho "$@" >> '${marks}/ran'\ncat\n`, { mode: 0o755 });
    await gitConfigs(ws, [
      ['lfs.extension.x.clean', `${program} %f`],
      ['lfs.extension.x.smudge', `${program} %f`],
      ['lfs.extension.x.priority', '0'],
    ]);
    const run = await runCommands({
      workspace: ws,
      sandbox: { mode },
      env: { HOME: home },
      builtCli: true,
      commands: ['echo data > a.bin; git add a.bin; echo "done $?"'],
    });
    expect(run.outputs[0]).toContain('done 0');
    expect(fs.existsSync(path.join(marks, 'ran')) ? fs.readFileSync(path.join(marks, 'ran'), 'utf8') : '').toBe('');
    // Change tracking still worked: the file is an LFS pointer, as the user's git makes it.
    const added = run.report.files_changed.find((f: { path: string }) => f.path === 'a.bin');
    expect(added?.diff).toContain('version https://git-lfs.github.com/spec/v1');
  });

  // git-lfs ignores a clean or smudge command in `.lfsconfig`, but a `priority` alone still
  // declares an extension, with no program: every LFS file's clean failed, so did the runner's
  // snapshot, and files_changed came back empty with a warning. A repository can ship one, and a
  // command can stage one and delete the file (git-lfs then reads the index's).
  it.each([
    ['shipped by the repository', ''],
    ['two at one priority, written by a command', `printf '[lfs "extension.y"]\\n\\tpriority = 0\\n[lfs "extension.z"]\\n\\tpriority = 0\\n' > .lfsconfig; `],
    ['staged by a command, the file deleted', `printf '[lfs "extension.y"]\\n\\tpriority = 1\\n' > .lfsconfig && git add .lfsconfig && rm .lfsconfig; `],
  ])("a .lfsconfig extension with only a priority (%s) does not cost the run its record of changes", async (_what, staging) => {
    const home = tempDir('unattended-lfs-home-');
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
    );
    const ws = await makeRepo(path.join(tempDir(), 'ws'), {
      '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n',
      '.lfsconfig': staging ? '[lfs]\n\turl = https://lfs.example.com\n' : '[lfs "extension.x"]\n\tpriority = 0\n',
    });
    const run = await runCommands({
      workspace: ws,
      sandbox: { mode: 'auto' },
      env: { HOME: home },
      builtCli: true,
      commands: [`${staging}echo data > a.bin; echo hi > b.txt; echo "done $?"`],
    });
    expect(run.outputs[0]).toContain('done 0');
    expect(run.report.warnings.join('\n')).not.toContain('could not snapshot');
    const changed = run.report.files_changed.map((f: { path: string }) => f.path);
    expect(changed).toEqual(expect.arrayContaining(['a.bin', 'b.txt']));
    expect(run.report.files_changed.find((f: { path: string }) => f.path === 'a.bin')?.diff).toContain('version https://git-lfs.github.com/spec/v1');
  });

  // Without a .lfsconfig in the work tree, the runner asks git for the index's or HEAD's (one
  // `git cat-file --batch`) before each of its git commands: reading the index, that git ran the
  // repository's core.fsmonitor, on the host, whatever the sandbox.
  it.each(['off', 'auto'])("the repository's core.fsmonitor never runs where git-lfs is installed (sandbox %s)", async (mode) => {
    const marks = tempDir('unattended-lfs-marks-');
    const home = tempDir('unattended-lfs-home-');
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
    );
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n', 'a.txt': 'a\n' });
    await gitConfigs(ws, [['core.fsmonitor', `touch '${marks}/fsmonitor'`]]);
    const run = await runCommands({
      workspace: ws,
      sandbox: { mode },
      env: { HOME: home },
      builtCli: true,
      commands: ['echo changed > a.txt; git status --short; echo "done $?"'],
    });
    expect(run.outputs[0]).toContain('done 0');
    expect(fs.readdirSync(marks)).toEqual([]);
    expect(run.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['a.txt']);
  });
});
