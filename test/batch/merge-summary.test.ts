// `batch merge` in GitHub Actions, a sharded fleet's last job: the merged report is the job's
// summary, as a batch's own report is its job's (the built CLI for one case).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { readBatch } from './fleet.js';
import { inProcess, shards } from './shards.js';

afterAll(cleanupRepos);

it('in GitHub Actions, the merged report is appended to the job summary (the built CLI)', { timeout: 90_000 }, async () => {
  const { fleet, dirs } = await shards(['alpha', 'beta'], 2);
  const merged = path.join(fleet.root, 'merged');
  const summary = path.join(fleet.root, 'step-summary.md');
  fs.writeFileSync(summary, '# earlier step\n');
  const r = await cli(['batch', 'merge', ...dirs, '--out', merged], { cwd: fleet.root, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
  expect(r.code, r.stderr).toBe(0);
  const md = fs.readFileSync(path.join(merged, 'batch-report.md'), 'utf8');
  expect(md).toContain('# Batch greet: 2/2 succeeded');
  expect(fs.readFileSync(summary, 'utf8')).toBe(`# earlier step\n${md}\n`);
});

it('a job summary that cannot be written is said; the merge still writes its report and exits as it would', { timeout: 90_000 }, async () => {
  const { fleet, dirs } = await shards(['alpha'], 1);
  const merged = path.join(fleet.root, 'merged');
  const r = await inProcess(['batch', 'merge', ...dirs, '--out', merged], { cwd: fleet.root, env: { GITHUB_STEP_SUMMARY: '/dev/full' } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/unattended batch merge: cannot write \/dev\/full: ENOSPC/);
  expect(readBatch(merged).totals.targets).toBe(1);
});
