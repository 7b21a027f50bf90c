// A second signal (a forced exit) whose report cannot be written: the run directory's disk filled
// up while the run shut down. The README's exit-code table says exit 54 when the report cannot be
// written, whatever the run did; the forced exit said 143 (SIGTERM's), so a CI step saw a run
// cancelled in order and looked for a report.json that was not there.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../helpers/cli.js';
import { releaseSlowSnapshot, slowSnapshotRun } from '../helpers/slow-snapshot.js';
import { smallDisk, unmountSmallDisks } from '../helpers/small-disk.js';

afterAll(() => {
  unmountSmallDisks();
  removeTempDirs();
});

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const disk = smallDisk('1m');

describe('a forced exit whose report cannot be written', () => {
  it.skipIf(disk === null)('exits 54 and says on stderr that the report could not be written', async () => {
    const run = await slowSnapshotRun('unattended-forced-unwritten-', 60);
    const out = path.join(disk!, 'out');
    const argv = [...run.argv];
    argv[argv.indexOf('--out') + 1] = out;
    const child = execa(process.execPath, argv, { env: run.env, extendEnv: false, reject: false, timeout: 60_000, stdin: 'ignore' });
    try {
      // The run's end: its snapshot held, its transcript written so far.
      await until('the end-of-run snapshot', () => fs.existsSync(run.pidFile) && fs.readFileSync(run.pidFile, 'utf8').trim() !== '');
      const { bavail, bsize } = fs.statfsSync(disk!);
      fs.writeFileSync(path.join(disk!, 'filler'), Buffer.alloc(bavail * bsize));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGINT');
      const r = await child;
      expect(fs.existsSync(path.join(out, 'report.json'))).toBe(false);
      expect(r.exitCode, r.stderr).toBe(54);
      expect(r.stderr).toMatch(/unattended: exit 54: the run ended cancelled \(exit 143\), .*report could not be written/);
    } finally {
      child.kill('SIGKILL');
      releaseSlowSnapshot(run);
    }
  }, 70_000);
});
