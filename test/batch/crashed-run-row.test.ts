// A target whose run dies without a report (SIGKILL, out of memory) is counted "with what its
// transcript recorded" (README, Many repositories): not only the tokens it spent but the files it
// had already changed in the target, which stay changed, and its run id. The built CLI's batch,
// each target's run a child process that a shell call kills with SIGKILL after a write_file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

it('a killed run\'s row counts the files its transcript shows it changed, and names its run', { timeout: 60_000 }, async () => {
  const root = tempRoot('unattended-batch-crash-');
  await makeRepo(path.join(root, 'repo'), { 'README.md': 'hello\n' });
  fs.writeFileSync(path.join(root, 'targets.txt'), 'repo\n');
  const turns = [
    { calls: [{ name: 'write_file', args: { file_path: '{{workspace}}/NOTES.md', content: 'notes\n' } }], usage: { input: 100, output: 10 } },
    // $PPID is the run itself (no sandbox): it dies as an out-of-memory kill would take it.
    { calls: [{ name: 'shell', args: { command: 'kill -9 $PPID; sleep 5' } }], usage: { input: 200, output: 20 } },
    { text: 'Done.' },
  ];
  fs.writeFileSync(path.join(root, 'turns.yaml'), YAML.stringify({ turns }));
  const recipe = { version: 1, name: 'crash', prompt: 'Write notes.', provider: 'scripted', script: 'turns.yaml', tools: ['write_file', 'shell'], confirmation: { mode: 'auto-approve' }, sandbox: { mode: 'off' } };
  fs.writeFileSync(path.join(root, 'recipe.yaml'), YAML.stringify(recipe));
  const out = path.join(root, 'out');

  const r = await cli(['batch', path.join(root, 'recipe.yaml'), '--targets', path.join(root, 'targets.txt'), '--out', out], { cwd: root });

  expect(r.code, r.stderr).toBe(1);
  expect(fs.readFileSync(path.join(root, 'repo', 'NOTES.md'), 'utf8')).toBe('notes\n'); // the change is there
  const row = readBatch(out).rows[0];
  expect(row).toMatchObject({ status: 'error', category: 'infrastructure', cause: 'runner crashed (killed by SIGKILL, no report)' });
  expect(row.tokens.total).toBe(330);
  expect(row.files_changed).toBe(1);
  expect(readBatch(out).totals.files_changed).toBe(1);
  const runStart = JSON.parse(fs.readFileSync(path.join(out, 'targets', row.slug, 'transcript.jsonl'), 'utf8').split('\n')[0]!);
  expect(row.run_id).toBe(runStart.run_id);
  expect(r.stderr).toMatch(/1 file changed/);
});
