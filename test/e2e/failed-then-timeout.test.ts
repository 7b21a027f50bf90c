// A run that had already failed (its success check failed: check_failed, exit 56), whose wall-clock
// timeout then came while the runner's git recorded what the run changed: the check's failure is
// what went wrong, and the timeout stopped only the shutdown. The run was reported `limit`, exit
// 55, its failed check reduced to a parenthesis, so a CI step branching on 56 never saw it.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { runToEnd, slowSnapshotRun } from '../helpers/slow-snapshot.js';

afterAll(removeTempDirs);

describe('a failed check, then the timeout while shutting down', () => {
  it('keeps check_failed, exit 56, with a warning of the timeout; the stream-json result agrees', async () => {
    // The fourth write-tree, the run's end: the first is before the shell call, the second and
    // third before and after the check's command (what it changed).
    const run = await slowSnapshotRun('unattended-failed-then-timeout-', 90, ['--timeout', '4s', '--check', 'false', '--output-format', 'stream-json'], 4);
    const r = await runToEnd(run);
    // The snapshot was held, so the timeout came while the run shut down.
    expect(fs.existsSync(run.pidFile)).toBe(true);
    expect(r.exitCode, r.stderr).toBe(56);
    const { report, events } = readRun(run.out);
    expect(report).toMatchObject({ status: 'check_failed', exit_code: 56, limit: null });
    expect(String(report.error)).toMatch(/^success check failed: .*exit 1/);
    expect(events.filter((e) => e.type === 'limit')).toEqual([]);
    expect(report.warnings).toContain("the run's timeout (4s) came while it shut down, after it had ended with status check_failed");
    const result = JSON.parse(String(r.stdout).trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ type: 'result', status: 'check_failed', exit_code: 56 });
  }, 130_000);
});
