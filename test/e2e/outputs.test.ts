// Where the outputs go wrong: an unwritable --out is a clear input error (never a hang, never a
// stack), and a transcript that stops accepting writes stops the run loudly, with a report. The
// first case runs the built CLI, the others its entry in process (the same code, no process start).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(removeTempDirs);

describe('run outputs', () => {
  it.each([
    ['/proc/unattended-nope', cli],
    ['/etc/passwd/x', cliInProcess],
  ] as const)('--out %s: exit 42, says where and how to fix', async (out, run) => {
    const r = await run(['run', 'recipes/demo.yaml', '--out', out], { timeoutMs: 15_000 });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`cannot write the run outputs to ${out}`);
    expect(r.stderr).toContain('--out DIR');
  });

  it('a transcript write that fails (disk full) ends the run with exit 54 and says so in the report', async () => {
    const out = path.join(tempDir(), 'run');
    fs.mkdirSync(out);
    fs.symlinkSync('/dev/full', path.join(out, 'transcript.jsonl'));
    const r = await cliInProcess(['run', 'recipes/demo.yaml', '--out', out]);
    expect(r.code).toBe(54);
    expect(r.stderr).toMatch(/cannot write the transcript .*ENOSPC/);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'error', exit_code: 54, tool_calls: { total: 0 } });
    expect(report.error).toMatch(/ENOSPC/);
  });
});
