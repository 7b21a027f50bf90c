// A number flag given a word that is no number, or no value at all, is refused with the word itself
// echoed back (exit 42, nothing run): yargs' number type had turned 'abc' into NaN, so the error
// said only "got something that is not a number", and a bare `--max-turns` was silently dropped.
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('a number flag with a bad value', () => {
  it.each([
    [['run', '--max-turns', 'abc', '-p', 'hi'], "--max-turns must be a whole number of at least 1, got 'abc'"],
    [['--max-turns', 'ten', '-p', 'hi'], "--max-turns must be a whole number of at least 1, got 'ten'"],
    [['run', '-p', 'hi', '--max-cost-usd', '1e'], "--max-cost-usd must be a number of dollars above 0, got '1e'"],
    [['run', '-p', 'hi', '--check-retries', 'x'], "--check-retries must be a whole number of at least 0, got 'x'"],
    [['run', '-p', 'hi', '--max-turns'], '--max-turns must be a whole number of at least 1, got no value (give one after the flag)'],
  ])('the built CLI: %j', async (argv, message) => {
    const r = await cli(argv, { cwd: tempDir() });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(`unattended: ${message}`);
  });

  it('a good number still sets the limit', async () => {
    const r = await cli(['run', '-p', 'hi', '--max-turns', '7', '--provider', 'scripted'], { cwd: tempDir() });
    expect(r.stderr).not.toContain('--max-turns');
  });
});
