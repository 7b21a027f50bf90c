// A run that a limit of its own ended (max_turns, exit 53), whose wall-clock timeout then came while
// the runner's git recorded what the run changed: the run was ended by max_turns, as its status,
// exit code and error say, and its report's `limit` must say so too (it said `timeout`, so the
// report contradicted itself and stream-json's result read error_during_execution, not
// error_max_turns).
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun, removeTempDirs } from '../helpers/cli.js';
import { runToEnd, slowSnapshotRun } from '../helpers/slow-snapshot.js';

afterAll(removeTempDirs);

describe('max_turns, then the timeout while shutting down', () => {
  it('reports max_turns throughout: status, exit code, error, limit and the stream-json result agree', async () => {
    const run = await slowSnapshotRun('unattended-limit-then-timeout-', 90, ['--timeout', '3s', '--max-turns', '1', '--output-format', 'stream-json']);
    const r = await runToEnd(run);
    // The snapshot was held, so the timeout came while the run shut down.
    expect(fs.existsSync(run.pidFile)).toBe(true);
    expect(r.exitCode, r.stderr).toBe(53);
    const { report, events } = readRun(run.out);
    expect(report).toMatchObject({ status: 'limit', exit_code: 53, limit: 'max_turns', error: 'limit reached: max_turns (1)' });
    expect(events.filter((e) => e.type === 'limit').map((e) => e.limit)).toEqual(['max_turns']);
    expect(report.warnings).toContain("the run's timeout (3s) came while it shut down, after max_turns (1) had ended it");
    const result = JSON.parse(String(r.stdout).trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ type: 'result', subtype: 'error_max_turns', exit_code: 53 });
  }, 130_000);
});
