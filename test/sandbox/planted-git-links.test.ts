// The runner's own git runs on the host, outside the sandbox, in a git directory whose objects,
// refs and logs a sandboxed command may write (so that `git commit` works there). Git follows a
// symbolic link found there: a command that made the hand-off branch's reflog a link to a file
// outside the workspace had the hand-off's update-ref append to that file, and a link in place of
// an objects directory had the snapshot write objects outside the repository.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from '../git/repos.js';
import { bwrapWorks, outsideDir, removeOutsideDirs, runCommands } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeOutsideDirs);

describe.skipIf(!bwrapWorks)('links a command leaves in the git directory', () => {
  it("are never followed by the runner's git: the hand-off's reflog and the snapshot's objects stay in the repository", async () => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'one\n' });
    const victim = outsideDir();
    fs.writeFileSync(path.join(victim, 'bashrc'), 'original\n');
    fs.mkdirSync(path.join(victim, 'objects'));
    // The object `two\n` hashes to, as the snapshot will write it.
    const object = execFileSync('git', ['hash-object', '--stdin'], { input: 'two\n', encoding: 'utf8' }).trim();
    // The command replaces .git/objects/<its first two digits> with a link: an initial commit whose id
    // starts with the same two (1 in 256, by the second it was made) went with it, and HEAD with it.
    for (let n = 0; execFileSync('git', ['-C', ws, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).startsWith(object.slice(0, 2)); n++) {
      execFileSync('git', ['-C', ws, '-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '--amend', '-qm', `init ${n}`]);
    }
    const run = await runCommands({
      workspace: ws,
      extra: { git: { branch: 'unattended/fix' } },
      commands: [
        `mkdir -p .git/logs/refs/heads/unattended && ln -s ${victim}/bashrc .git/logs/refs/heads/unattended/fix && rm -rf .git/objects/${object.slice(0, 2)} && ln -s ${victim}/objects .git/objects/${object.slice(0, 2)} && echo two > a.txt && echo planted`,
      ],
    });
    expect(run.outputs[0]).toContain('planted');
    expect(run.report.git).toMatchObject({ branch: 'unattended/fix', error: null });
    expect(run.report.git.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.readFileSync(path.join(victim, 'bashrc'), 'utf8')).toBe('original\n');
    expect(fs.readdirSync(path.join(victim, 'objects'))).toEqual([]);
    expect(run.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['a.txt']);
    expect(run.report.warnings.join('\n')).toContain(`a tool left a symbolic link at ${fs.realpathSync(ws)}/.git/logs/refs/heads/unattended/fix (to ${victim}/bashrc)`);
    expect(fs.lstatSync(path.join(ws, '.git/logs/refs/heads/unattended/fix')).isFile()).toBe(true);
  });
});
