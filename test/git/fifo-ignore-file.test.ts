// A FIFO where git reads an ignore or attributes file (`.gitignore`, `.gitattributes`, made by any
// command with `mkfifo`; git cannot commit one, so a clone never has it) made the runner's own git
// wait for a writer that never comes: each snapshot waited out its minute twice (check-ignore, then
// add), the run ended two minutes late, and files_changed was lost ("git could not snapshot").
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { makeRepo } from './repos.js';
import { runCommands } from '../sandbox/harness.js';

afterAll(removeTempDirs);

describe.skipIf(process.platform !== 'linux')("a FIFO the runner's git would read", () => {
  it.each([['.gitignore'], ['sub/.gitattributes']])('named %s: the run does not wait on it and still lists what changed', async (fifo) => {
    const ws = await makeRepo(path.join(tempDir(), 'ws'), { 'a.txt': 'a\n', 'sub/keep.txt': 'k\n' });
    const started = Date.now();
    const run = await runCommands({
      workspace: ws,
      sandbox: { mode: 'off' },
      commands: [`mkfifo ${fifo} && echo made`, 'echo changed > a.txt && echo new > sub/b.txt'],
    });
    expect(run.outputs[0]).toContain('made');
    expect(run.cli.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.report.files_changed.map((f: { path: string }) => f.path).sort()).toEqual(['a.txt', 'sub/b.txt']);
    expect(run.report.warnings.join('\n')).not.toMatch(/could not snapshot/);
    // The FIFO is still there, untouched: the runner only let git past it.
    expect(fs.lstatSync(path.join(ws, fifo)).isFIFO()).toBe(true);
  }, 200_000);
});
