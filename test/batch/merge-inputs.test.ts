// `batch merge` of a directory that holds no batch report (a shard whose job died before writing
// one, a mistyped path) or a broken one, and `batch status` of one: exit 42 naming the file, what
// is wrong, and how to go on (issue 9: every error says what, where and how to fix), not an errno.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(cleanupRepos);

it('a shard directory without a batch report: says there is none there and how to merge without it', async () => {
  const root = tempRoot('unattended-merge-inputs-');
  const r = await cliInProcess(['batch', 'merge', path.join(root, 'shard-1'), '--out', path.join(root, 'merged')], { cwd: root });
  expect(r.code).toBe(42);
  expect(r.stderr).toContain(`cannot read ${path.join(root, 'shard-1', 'batch-report.json')}: there is no batch report there`);
  expect(r.stderr).toMatch(/give each shard's batch directory \(its --out.*leave it out and add --allow-partial/);
  expect(r.stderr).not.toMatch(/ENOENT/);
});

it('a batch report cut short: names it and says what to do', async () => {
  const root = tempRoot('unattended-merge-inputs-');
  fs.mkdirSync(path.join(root, 'shard-1'));
  fs.writeFileSync(path.join(root, 'shard-1', 'batch-report.json'), '{"version":1,"rows":[');
  const r = await cliInProcess(['batch', 'merge', path.join(root, 'shard-1'), '--out', path.join(root, 'merged')], { cwd: root });
  expect(r.code).toBe(42);
  expect(r.stderr).toContain(`cannot read ${path.join(root, 'shard-1', 'batch-report.json')}`);
  expect(r.stderr).toMatch(/not a batch report unattended wrote: give each shard's batch directory/);
});

it('batch status of a directory without a batch report: says so and which directory to give', async () => {
  const root = tempRoot('unattended-merge-inputs-');
  const r = await cliInProcess(['batch', 'status', path.join(root, 'nope')], { cwd: root });
  expect(r.code).toBe(42);
  expect(r.stderr).toContain(`cannot read the batch report in ${path.join(root, 'nope')}: there is none there (no batch-report.json)`);
  expect(r.stderr).toContain("give a batch's directory: its --out, or .unattended/batches/RECIPE-NAME by default");
});

it("batch status of a run's directory (a target's, under targets/): says it is a run's and which command reads it", async () => {
  const root = tempRoot('unattended-merge-inputs-');
  const runDir = path.join(root, 'out', 'targets', 'alpha-1a2b3c');
  fs.mkdirSync(runDir, { recursive: true });
  fs.writeFileSync(path.join(runDir, 'report.json'), '{}');
  fs.writeFileSync(path.join(runDir, 'transcript.jsonl'), '');
  const r = await cliInProcess(['batch', 'status', runDir], { cwd: root });
  expect(r.code).toBe(42);
  expect(r.stderr).toContain(`cannot read the batch report in ${runDir}: it is a run's directory (report.json), not a batch's`);
  expect(r.stderr).toContain(`\`unattended report ${runDir}\` shows that run (its pull request is the report's git.pull_request); batch status takes the batch's directory, its --out`);
});
