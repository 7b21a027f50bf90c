// A signal while the runner's own git records the workspace (the snapshot that finds what shell
// commands changed): that git must not outlive the run. It ran in the runner's process group and
// was tracked by nothing, so a stopped run left it behind, still hashing the workspace and writing
// objects into the user's repository after the run had exited (found with a 3 GB file, whose
// snapshot takes a minute). Here a wrapper stands in for git's slow write-tree at the run's end.
import fs from 'node:fs';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { releaseSlowSnapshot, slowSnapshotRun } from '../helpers/slow-snapshot.js';

afterAll(removeTempDirs);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a signal during the end-of-run snapshot', () => {
  it('leaves no git of the runner behind, and the run ends cancelled (143) on its normal path: final answer kept, a report that says its files_changed may be short', async () => {
    await stopDuringEndSnapshot(1);
  });

  it('a second signal (a forced exit) during it: the warning says only the look at the end was skipped', async () => {
    await stopDuringEndSnapshot(2);
  });
});

async function stopDuringEndSnapshot(signals: 1 | 2): Promise<void> {
    const run = await slowSnapshotRun('unattended-snapshot-signal-', 60);
    const pidFile = run.pidFile;
    const child = execa(process.execPath, run.argv, { env: run.env, extendEnv: false, reject: false, timeout: 60_000 });
    try {
      await until('the end-of-run snapshot', () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '');
      const slow = Number(fs.readFileSync(pidFile, 'utf8'));
      child.kill('SIGTERM');
      if (signals === 2) {
        await new Promise((r) => setTimeout(r, 300));
        child.kill('SIGTERM');
      }
      const r = await child;
      expect(r.exitCode).toBe(143);
      // What the runner started is gone with it (the exit kills its process groups at once).
      await until('the snapshot git to end', () => !alive(slow), 2_000).catch(() => {});
      expect(alive(slow)).toBe(false);
      const { report } = readRun(run.out);
      // The snapshot gets half the 4 s grace, so the run ends on its own path, answer kept; the
      // forced exit at the grace's end (where it used to end) writes no final answer.
      if (signals === 1) expect(report).toMatchObject({ status: 'cancelled', exit_code: 143, final_answer: 'Done.' });
      else expect(report).toMatchObject({ status: 'cancelled', exit_code: 143 });
      // The shell call's new.txt was never looked at: an empty files_changed must say it may be short.
      expect(report.files_changed).toEqual([]);
      // Only the look at the end was cut short: the warning says so, not that nothing was recorded.
      expect(JSON.stringify(report.warnings)).toMatch(/(stopped|ended) before git's look at the workspace at the end of the run \(its state before the first shell, MCP or discovered tool call was recorded\).*files_changed may miss/);
      expect(JSON.stringify(report.warnings)).not.toContain('before git finished recording the workspace');
    } finally {
      child.kill('SIGKILL');
      releaseSlowSnapshot(run);
    }
}
