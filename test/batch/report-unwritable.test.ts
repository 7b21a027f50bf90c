// A batch whose own report cannot be written (a full disk; here a directory where batch-report.md
// goes, which fails the same rename) stops as a run whose transcript cannot be written does:
// exit 54 naming the file and how to go on, no stack trace, no cut temporary file, and no target
// started once its record is lost. GitHub's job summary is no part of that record: one that cannot
// be written is said, and the batch ends as it would have. The built CLI's batch.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

async function fleetWith(command: string, env: Record<string, string> = {}) {
  const root = tempRoot('unattended-batch-unwritable-');
  for (const name of ['first', 'second']) await makeRepo(path.join(root, name), { 'README.md': `hello from ${name}\n` });
  fs.writeFileSync(path.join(root, 'targets.txt'), 'first\nsecond\n');
  const out = path.join(root, 'out');
  const turns = [{ calls: [{ name: 'shell', args: { command: command.replaceAll('OUT', out) } }] }, { calls: [{ name: 'write_file', args: { file_path: '{{workspace}}/README.md', content: 'changed\n' } }] }, { text: 'Done.' }];
  fs.writeFileSync(path.join(root, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = { version: 1, name: 'unwritable', prompt: 'Go.', provider: 'scripted', script: 'turns.yaml', tools: ['shell', 'write_file'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(path.join(root, 'recipe.yaml'), YAML.stringify(recipe));
  const batch = (...more: string[]) => cli(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out, '--concurrency', '1', ...more], { cwd: root, env });
  return { root, out, batch };
}

it('a batch report that stops being writable mid-batch: exit 54 naming it, no later target starts', { timeout: 60_000 }, async () => {
  // The first target's run puts a directory where the batch's report.md goes.
  const { root, out, batch } = await fleetWith('if [ "$(basename "$PWD")" = first ]; then rm -f OUT/batch-report.md; mkdir OUT/batch-report.md; fi');

  const r = await batch();

  expect(r.code, r.stderr).toBe(54);
  expect(r.stderr).toContain(`cannot write the batch report ${path.join(out, 'batch-report.md')}`);
  expect(r.stderr).toMatch(/free space there, then go on with the same command and --resume/);
  expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(fs.readdirSync(out).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  // The second target never ran: its repository is as it was.
  expect(fs.readFileSync(path.join(root, 'second', 'README.md'), 'utf8')).toBe('hello from second\n');
  const rows = readBatch(out).rows;
  expect(rows.map((row: any) => [row.target, row.status, row.cause])).toEqual([
    ['first', 'success', null],
    ['second', 'skipped', 'batch report not written'],
  ]);
});

it('a batch report that cannot be written at all: exit 54 before any target runs', { timeout: 60_000 }, async () => {
  const { root, out, batch } = await fleetWith('true');
  // A new batch would refuse a directory holding a report.md; a --resume goes on in it.
  fs.mkdirSync(path.join(out, 'batch-report.md'), { recursive: true });

  const r = await batch('--resume');

  expect(r.code, r.stderr).toBe(54);
  expect(r.stderr).toContain(`cannot write the batch report ${path.join(out, 'batch-report.md')}`);
  expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(fs.readdirSync(out).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  expect(fs.readFileSync(path.join(root, 'first', 'README.md'), 'utf8')).toBe('hello from first\n');
});

it('a GitHub job summary that cannot be written (/dev/full) is said, and the batch\'s outcome and exit code stand', { timeout: 60_000 }, async () => {
  const { out, batch } = await fleetWith('true', { GITHUB_STEP_SUMMARY: '/dev/full' });

  const r = await batch();

  expect(r.stderr).toContain('unattended batch: cannot write /dev/full: ENOSPC');
  expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(r.stderr).toMatch(/2\/2 succeeded/);
  expect(r.code, r.stderr).toBe(0);
  expect(readBatch(out).finished).toBe(true);
});
