// batch --max-tokens / --max-cost-usd / --concurrency given a word that is no number echo that word back (exit 42):
// yargs' number type had made it NaN, and the error said only "must be a positive whole number".
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupRepos } from '../git/repos.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { makePlainFleet, RECIPE } from './fleet.js';

afterAll(cleanupRepos);

describe('batch number flags with a bad value', () => {
  it.each([
    [['--max-tokens', 'lots'], "--max-tokens must be a positive whole number, got 'lots'"],
    [['--max-cost-usd', 'five'], "--max-cost-usd must be a number of dollars above 0, got 'five'"],
    [['--concurrency', 'abc'], "--concurrency must be a whole number from 1 to 64, got 'abc'"],
    [['--concurrency', '0'], "--concurrency must be a whole number from 1 to 64, got '0'"],
  ])('%j', { timeout: 60_000 }, async (flag, message) => {
    const fleet = await makePlainFleet(['alpha']);
    const out = path.join(fleet.root, 'out');
    const r = await cliInProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, ...flag, '--dry-run'], { launchRun: inProcessLauncher });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(message);
  });
});

// `--concurrency $N` with N unset: the flag last on the line, with no value. yargs gave it the
// default (2), so the batch ran without a word about the number the job meant to set.
it('--concurrency with no value, last on the line, is refused, not taken as 2', { timeout: 60_000 }, async () => {
  const fleet = await makePlainFleet(['alpha']);
  const out = path.join(fleet.root, 'out');
  for (const flag of ['--concurrency', '-j']) {
    const r = await cliInProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out, '--dry-run', flag], { launchRun: inProcessLauncher });
    expect(r.code, r.stdout).toBe(42);
    expect(r.stderr).toContain(`${flag} needs a value: it was given none`);
  }
});
