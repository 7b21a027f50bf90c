// `batch --resume` after a batch was SIGKILLed mid-clone: the dead batch's git may still be writing
// the target's checkout. stopGitIn ends the git processes working there, and only those.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopGitIn } from '../../src/batch/leftover-runner.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
  removeTempDirs();
});

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once('exit', () => (clearTimeout(timer), resolve(true)));
  });
}

describe.skipIf(process.platform !== 'linux')('stopGitIn', () => {
  it('kills git working in the checkout (by its cwd or an argument), not other git, not a shell there', async () => {
    const root = tempDir();
    const checkout = path.join(root, 'checkouts', 'repo');
    const elsewhere = path.join(root, 'elsewhere');
    for (const dir of [checkout, elsewhere]) {
      fs.mkdirSync(dir, { recursive: true });
      spawnSync('git', ['init', '-q', dir]);
    }
    // git cat-file --batch waits on its stdin for as long as it is open: a git process that lives.
    const spawnGit = (cwd: string, args: string[]) => {
      const child = spawn('git', args, { cwd, stdio: ['pipe', 'ignore', 'ignore'] });
      started.push(child);
      return child;
    };
    const byCwd = spawnGit(checkout, ['cat-file', '--batch']);
    const byArgument = spawnGit(elsewhere, ['--git-dir', path.join(checkout, '.git'), 'cat-file', '--batch']);
    const otherGit = spawnGit(elsewhere, ['cat-file', '--batch']);
    const shell = spawn('sleep', ['30'], { cwd: checkout, stdio: 'ignore' });
    started.push(shell);
    await new Promise((resolve) => setTimeout(resolve, 200));

    stopGitIn(checkout);

    expect(await exited(byCwd, 5_000)).toBe(true);
    expect(await exited(byArgument, 5_000)).toBe(true);
    expect(await exited(otherGit, 300)).toBe(false);
    expect(await exited(shell, 300)).toBe(false);
  });
});
