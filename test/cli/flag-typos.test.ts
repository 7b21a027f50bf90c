// An unknown flag gets a line naming the flag meant: `--max-turn 5` and `--policy deny` were refused
// with only "Unknown argument: …" (exit 42), and the user had to search --help for the right name.
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('an unknown flag close to a known one', () => {
  it.each([
    [['run', '--prompt', 'go', '--policy', 'deny'], '--policy: here that is --approval auto-approve|deny|allowlist'],
    [['-p', 'go', '--confirmation', 'deny'], '--confirmation: here that is --approval'],
    [['-p', 'go', '--max-turn', '5'], '--max-turn: did you mean --max-turns?'],
    [['run', '-p', 'go', '--aproval', 'deny'], '--aproval: did you mean --approval?'],
    [['run', '-p', 'go', '--max-cost', '1'], '--max-cost: did you mean --max-cost-usd?'],
    [['batch', 'r.yaml', '--targets', 't.txt', '--concurency', '2'], '--concurency: did you mean --concurrency?'],
  ])('%j', async (argv, hint) => {
    const r = await cli(argv, { cwd: tempDir() });
    expect(r.code).toBe(42);
    expect(r.stderr).toMatch(/Unknown arguments?: /);
    expect(r.stderr).toContain(hint);
  });

  it('a flag like none gets no guess', async () => {
    const r = await cli(['run', '-p', 'go', '--frobnicate', 'x'], { cwd: tempDir() });
    expect(r.code).toBe(42);
    expect(r.stderr).not.toContain('did you mean');
  });
});
