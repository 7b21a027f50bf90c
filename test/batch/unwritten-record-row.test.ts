// "A row succeeds exactly when its run exits 0" (README, Many repositories): also when the run
// exits 54 because its record could not be written whole (report.md, or its transcript's run_end,
// on a full disk) after a report.json that says success. And a run that exits 54 leaving no
// report at all is no crash of the runner: its row says its record was not written. The built
// CLI's batch, each target's run a child process of it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

it('a run that exits 54 because its report.md could not be written is no success row, whatever its report.json says', { timeout: 60_000 }, async () => {
  const root = tempRoot('unattended-batch-unwritten-');
  await makeRepo(path.join(root, 'repo'), { 'README.md': 'hello\n' });
  fs.writeFileSync(path.join(root, 'targets.txt'), 'repo\n');
  const out = path.join(root, 'out');
  // The target's run directory is targets/<slug>; a directory where report.md goes makes its write fail.
  const turns = [{ calls: [{ name: 'shell', args: { command: `mkdir "${out}"/targets/repo-*/ 2>/dev/null; for d in "${out}"/targets/repo-*; do mkdir "$d/report.md"; done` } }] }, { text: 'Done.' }];
  fs.writeFileSync(path.join(root, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = { version: 1, name: 'unwritten', prompt: 'Go.', provider: 'scripted', script: 'turns.yaml', tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(path.join(root, 'recipe.yaml'), YAML.stringify(recipe));

  const r = await cli(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out], { cwd: root });

  const row = readBatch(out).rows[0];
  const runReport = JSON.parse(fs.readFileSync(path.join(out, 'targets', row.slug, 'report.json'), 'utf8'));
  expect(runReport.exit_code).toBe(0); // what report.json says; the run itself exited 54
  expect(fs.readFileSync(path.join(out, 'targets', row.slug, 'runner-stderr.log'), 'utf8')).toMatch(/exit 54: the run ended success/);
  expect(row).toMatchObject({ status: 'error', category: 'infrastructure', exit_code: 54 });
  expect(row.error).toMatch(/report could not be written/);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/0\/1 succeeded/);
});

it('a run that exits 54 leaving no report (a tool removed its directory) is no "runner crashed": its row says its record was not written, and why', { timeout: 60_000 }, async () => {
  const root = tempRoot('unattended-batch-removed-');
  await makeRepo(path.join(root, 'repo'), { 'README.md': 'hello\n' });
  fs.writeFileSync(path.join(root, 'targets.txt'), 'repo\n');
  const out = path.join(root, 'out');
  const turns = [{ calls: [{ name: 'shell', args: { command: `rm -rf "${out}"/targets/repo-*` } }] }, { text: 'Done.' }];
  fs.writeFileSync(path.join(root, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = { version: 1, name: 'removed', prompt: 'Go.', provider: 'scripted', script: 'turns.yaml', tools: ['shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(path.join(root, 'recipe.yaml'), YAML.stringify(recipe));

  const r = await cli(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out], { cwd: root });

  const row = readBatch(out).rows[0];
  expect(row).toMatchObject({ status: 'error', category: 'infrastructure', exit_code: 54, cause: "run's record not written", report: null });
  expect(row.error).toMatch(/was moved, removed or replaced during the run|its directory removed by a tool/);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(/runner crashed/);
});
