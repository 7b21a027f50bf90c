// A private repository's clone URL carries its token (`https://x-access-token:TOKEN@host/o/r.git`,
// as a workflow builds it from a GitHub App token). The batch printed it in its progress (the CI
// log), in batch-report.md and in the job summary. They now show it `[REDACTED]`; batch-report.json,
// the record --resume keys its rows by, keeps the line as written, as the targets file has it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { cli, ROOT } from '../helpers/cli.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

it("never shows a clone URL's credentials in the progress, batch-report.md, the job summary or --dry-run", { timeout: 60_000 }, async () => {
  const root = tempRoot('unattended-batch-credentials-');
  for (const f of ['greet.yaml', 'greet-turns.yaml']) fs.copyFileSync(path.join(ROOT, 'test/fixtures/batch', f), path.join(root, f));
  // Port 1 refuses at once: the clone fails, and its row is written.
  const url = `https://x-access-token:${TOKEN}@127.0.0.1:1/acme/private.git`;
  fs.writeFileSync(path.join(root, 'targets.txt'), `${url}\n`);
  const summary = path.join(root, 'summary.md');
  fs.writeFileSync(summary, '');
  const r = await cli(['batch', 'greet.yaml', '--targets', 'targets.txt', '--out', 'out'], { cwd: root, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain('https://[REDACTED]@127.0.0.1:1/acme/private.git');
  for (const [what, text] of [['stderr', r.stderr], ['stdout', r.stdout], ['batch-report.md', fs.readFileSync(path.join(root, 'out', 'batch-report.md'), 'utf8')], ['job summary', fs.readFileSync(summary, 'utf8')]]) {
    expect(text, what).not.toContain(TOKEN);
  }
  expect(fs.readFileSync(path.join(root, 'out', 'batch-report.md'), 'utf8')).toContain('https://[REDACTED]@127.0.0.1:1/acme/private.git');
  // The record keeps the target as written: a resume finds its row.
  expect(readBatch(path.join(root, 'out')).rows.map((row: { target: string; cause: string }) => [row.target, row.cause])).toEqual([[url, 'clone failed']]);
  const plan = await cli(['batch', 'greet.yaml', '--targets', 'targets.txt', '--out', 'out', '--resume', '--dry-run'], { cwd: root });
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stdout).toContain('https://[REDACTED]@127.0.0.1:1/acme/private.git');
  expect(plan.stdout).toContain('runs again');
  expect(plan.stdout + plan.stderr).not.toContain(TOKEN);
});
