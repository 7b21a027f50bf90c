// GitHub refuses a job summary over 1 MiB whole: the step shows no summary at all. A batch over a
// big fleet writes a row per target (and names each failed one again under its cause), so its
// summary is kept under the limit, cut at a line that says where every target is.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

it('a batch whose report passes 1 MiB writes a job summary under it, saying where the rest is', { timeout: 90_000 }, async () => {
  const root = tempRoot('unattended-batch-summary-');
  fs.writeFileSync(path.join(root, 'recipe.yaml'), 'version: 1\nname: big-fleet\nprompt: Go.\nprovider: scripted\nscript: turns.yaml\nconfirmation: { mode: deny }\n');
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - text: Done.\n');
  // Targets that are not there fail at once, without a run: each row, and its line under its cause,
  // is as long as the target's name (60 such names weigh as much as a fleet of thousands of real ones).
  const targets = Array.from({ length: 60 }, (_, i) => `gone/${String(i).padStart(3, '0')}-${'x'.repeat(10_000)}`);
  fs.writeFileSync(path.join(root, 'targets.txt'), `${targets.join('\n')}\n`);
  const summary = path.join(root, 'step-summary.md');
  fs.writeFileSync(summary, '');
  const out = path.join(root, 'out');

  const r = await cliInProcess(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out, '--concurrency', '8', '--allow-failures'], { cwd: root, env: { GITHUB_STEP_SUMMARY: summary } });

  expect(r.code, r.stderr).toBe(0);
  expect(readBatch(out).rows).toHaveLength(60);
  expect(fs.statSync(path.join(out, 'batch-report.md')).size).toBeGreaterThan(1024 * 1024);
  const text = fs.readFileSync(summary, 'utf8');
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
  expect(text).toMatch(/^# Batch big-fleet: 0\/60 succeeded/);
  expect(text).toContain(`_This summary is cut here: the whole of it would be`);
  expect(text).toContain(`more than a GitHub job summary takes (1 MiB); batch-report.md and batch-report.json in ${out} have every target._\n`);
});
