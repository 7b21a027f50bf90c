// $GITHUB_OUTPUT or $GITHUB_STEP_SUMMARY that cannot be written (here: a directory). The entry
// crashed with "::error title=unattended action: unexpected error::EISDIR: illegal operation on a
// directory" and exit 1, dropping the run's own exit code; now each says which file and why, a
// summary is a warning, and outputs later steps cannot read fail a successful run with 54.
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { removeTempDirs, tempDir } from '../helpers/cli.js';
import { commandLines, removeScratch, runActionEntry } from './harness.js';

afterAll(removeTempDirs);
afterAll(removeScratch);

describe('step files the action cannot write', () => {
  it('a job summary, on the path where the run left no report: a warning, and the run\'s exit code', async () => {
    // An unknown flag: the CLI refuses it (exit 42) before any run, so no report.
    const run = await runActionEntry({ prompt: 'go', provider: 'scripted', 'extra-args': '--bogus-flag' }, { unwritable: ['GITHUB_STEP_SUMMARY'] });
    expect(run.code, run.stdout).toBe(42);
    const lines = commandLines(run.stdout);
    expect(lines.some((l) => /^::warning title=unattended action%3A job summary not written::cannot write the job summary GITHUB_STEP_SUMMARY .*summary\.md: EISDIR/.test(l))).toBe(true);
    expect(run.stdout).not.toContain('unexpected error');
    expect(run.outputs).toMatchObject({ status: 'error', 'exit-code': '42' });
  });

  it('outputs: an error naming GITHUB_OUTPUT and why, and a failed step, not "unexpected error"', async () => {
    const run = await runActionEntry({ prompt: 'go', provider: 'scripted', 'extra-args': '--bogus-flag' }, { unwritable: ['GITHUB_OUTPUT'] });
    expect(run.code, run.stdout).toBe(42);
    expect(run.stdout).not.toContain('unexpected error');
    expect(commandLines(run.stdout).some((l) => /^::error title=unattended action%3A outputs not written::cannot write the step's outputs to GITHUB_OUTPUT .*output: EISDIR \(it is a directory\).*exit-code=42/.test(l))).toBe(true);
  });

  it('outputs of a run that succeeded: the step fails with 54 (its outcome cannot reach later steps), saying why', async () => {
    const script = path.join(tempDir(), 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ text: 'done' }] }));
    const run = await runActionEntry({ prompt: 'go', provider: 'scripted', 'extra-args': `--script ${script}` }, { unwritable: ['GITHUB_OUTPUT'] });
    expect(run.code, run.stdout).toBe(54);
    expect(run.stdout).not.toContain('unexpected error');
    expect(commandLines(run.stdout).some((l) => /^::error title=unattended action%3A outputs not written::.*status=success exit-code=0/.test(l))).toBe(true);
  });

  it('a RUNNER_TEMP that is no directory: an error naming it and exit 42, not "unexpected error"', async () => {
    const notADir = path.join(tempDir(), 'file');
    fs.writeFileSync(notADir, '');
    const run = await runActionEntry({ prompt: 'go', provider: 'scripted' }, { env: { RUNNER_TEMP: notADir } });
    expect(run.code, run.stdout).toBe(42);
    expect(run.stdout).not.toContain('unexpected error');
    expect(run.stdout).toContain(`RUNNER_TEMP ${notADir} must be a directory the job can write`);
    expect(run.outputs).toMatchObject({ status: 'error', 'exit-code': '42' });
  });
});
