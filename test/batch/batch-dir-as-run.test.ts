// A batch's --out given where a run directory goes (`unattended report DIR`, `--continue DIR`):
// it was told only "holds no transcript.jsonl; give a run directory", with no word that it is a
// batch's, where the batch's report is, or that each target's run is a run directory under it.
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { makePlainFleet, RECIPE } from './fleet.js';

afterAll(cleanupRepos);

it("report and --continue of a batch's directory name its report and its targets' run directories", { timeout: 60_000 }, async () => {
  const fleet = await makePlainFleet(['alpha']);
  const out = path.join(fleet.root, 'out');
  const batch = await cli(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', out], { timeoutMs: 50_000 });
  expect(batch.code, batch.stderr).toBe(0);
  for (const args of [['report', out], ['run', '--continue', out, '-p', 'more']]) {
    const r = await cli(args, { cwd: fleet.root });
    expect(r.code, r.stderr).toBe(42);
    expect(r.stderr).toContain(`${out} is a batch's directory: its report is ${path.join(out, 'batch-report.md')} (unattended batch status ${out}), and each target's run is a run directory under ${path.join(out, 'targets')} (${path.join(out, 'targets', 'repos-alpha-')}`);
  }
  // Given one of them, as the message says, report reads it.
  const shown = await cli(['report', path.join(out, 'targets', (await import('node:fs')).readdirSync(path.join(out, 'targets'))[0]!)]);
  expect(shown.code, shown.stderr).toBe(0);
});
