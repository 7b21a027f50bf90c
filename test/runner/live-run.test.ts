// run.pid: what makes a run still going detectable (live-run.ts). A program that runs runs in its
// own process (runCli called in-process, several runs at once) has the same pid as the run it
// asks about: its marker, with this process's start time, is a live run's all the same.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunDir } from '../../src/runner/out-dir.js';
import { liveRunIn, markLive, unmarkLive } from '../../src/runner/live-run.js';
import { removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe.skipIf(process.platform !== 'linux')('a run going on in this very process', () => {
  it('is live until it is unmarked', () => {
    const dir = path.join(tempDir(), 'run');
    const runDir = RunDir.open(dir);
    try {
      markLive(runDir);
      expect(liveRunIn(dir)).toBe(process.pid);
      unmarkLive(runDir);
      expect(liveRunIn(dir)).toBeNull();
    } finally {
      runDir.close();
    }
  });

  it('a marker with this pid and another start time is a killed run whose pid was reused', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'run.pid'), `${process.pid} 1\n`);
    expect(liveRunIn(dir)).toBeNull();
  });
});
