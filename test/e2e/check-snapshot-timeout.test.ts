// A success check that failed with no retries left, the run's timeout then met while the runner's
// git recorded what the check's command changed (its snapshot after the command): the run had
// already failed its check, so it ends check_failed, exit 56, not limit, exit 55.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { runToEnd, slowSnapshotRun } from '../helpers/slow-snapshot.js';

afterAll(removeTempDirs);

describe("a failed check, then the timeout during the check's own snapshot", () => {
  it('keeps check_failed, exit 56, with a warning of the timeout', async () => {
    // The third write-tree: the first is before the shell call, the second before the check's command.
    const run = await slowSnapshotRun('unattended-check-snapshot-timeout-', 90, ['--timeout', '4s', '--check', 'false'], 3);
    const r = await runToEnd(run);
    expect(fs.existsSync(run.pidFile)).toBe(true);
    expect(r.exitCode, r.stderr).toBe(56);
    const { report, events } = readRun(run.out);
    expect(report).toMatchObject({ status: 'check_failed', exit_code: 56, limit: null });
    expect(String(report.error)).toMatch(/^success check failed: `false` exit 1/);
    expect(events.filter((e) => e.type === 'limit')).toEqual([]);
    expect((report.warnings as string[]).some((w) => w.includes("the run's timeout (4s) came"))).toBe(true);
  }, 130_000);
});
