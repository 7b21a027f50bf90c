// The snapshot deadline a stopped run sets (git/snapshot-deadline.ts) belongs to that run: a later
// run in the same process (the CLI's entry called in process, as the test harness and an
// in-process batch launcher do) must record its changes. It used to find the deadline passed and
// fail every snapshot at once: files_changed came back empty, a flake that moved between test files.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cutSnapshotsShort } from '../../src/git/snapshot-deadline.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from './repos.js';
import { runCommands } from '../sandbox/harness.js';

afterAll(removeTempDirs);

describe('a run after a stopped one, in the same process', () => {
  it("records what its commands changed, whatever deadline the earlier run's stop left", async () => {
    // What an earlier run's SIGTERM leaves behind in this process.
    cutSnapshotsShort(0);
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n' });
    const run = await runCommands({ workspace: ws, sandbox: { mode: 'off' }, commands: ['echo changed > a.txt && echo new > b.txt'] });
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.report.files_changed.map((f: { path: string }) => f.path)).toEqual(['a.txt', 'b.txt']);
  });
});
