// The run's --timeout met while the runner's own git records what shell commands changed (the
// snapshot at the run's end, a minute on a workspace of a few GB): the run must end near its
// timeout, as a signal ends it, not when git is done. It waited for the snapshot's own one-minute
// limit: a `--timeout 2s` run took over a minute. Here a wrapper stands in for git's slow write-tree.
import fs from 'node:fs';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { releaseSlowSnapshot, slowSnapshotRun } from '../helpers/slow-snapshot.js';

afterAll(removeTempDirs);

describe('the run timeout during the end-of-run snapshot', () => {
  it('ends the run within seconds of its timeout: limit, exit 55, answer kept, files_changed said to be maybe short', async () => {
    const run = await slowSnapshotRun('unattended-snapshot-timeout-', 90, ['--timeout', '3s']);
    const started = Date.now();
    const r = await execa(process.execPath, run.argv, { env: run.env, extendEnv: false, reject: false, timeout: 120_000 });
    const took = Date.now() - started;
    releaseSlowSnapshot(run);
    expect(fs.existsSync(run.pidFile)).toBe(true);
    expect(r.exitCode, r.stderr).toBe(55);
    // The timeout (3 s), half the signal grace for git (2 s), and start-up on a busy machine.
    expect(took).toBeLessThan(20_000);
    const { report } = readRun(run.out);
    expect(report).toMatchObject({ status: 'limit', exit_code: 55, final_answer: 'Done.' });
    expect(String(report.error)).toMatch(/timeout.*while shutting down/);
    expect(JSON.stringify(report.warnings)).toMatch(/stopped before git's look at the workspace at the end of the run.*files_changed may miss/);
  }, 130_000);
});
