// A batch target that is a git directory (a bare repository, as a git server or a mirror keeps
// them, or a repository's .git): it has no work tree. Its run found none of the project's files,
// was counted as the agent's failure, and what the model wrote landed among git's own files: a
// hooks/post-update there runs at the next push to that repository.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { readBatch } from './fleet.js';

afterAll(cleanupRepos);

it('a bare repository or a .git directory is refused before its run, saying what to name instead', async () => {
  const root = tempRoot('unattended-batch-bare-');
  await makeRepo(path.join(root, 'svc-a'), { 'README.md': 'hello\n' });
  await execa('git', ['clone', '-q', '--bare', 'svc-a', 'mirror.git'], { cwd: root });
  const hook = 'hooks/post-update';
  fs.writeFileSync(path.join(root, 'turns.yaml'), `turns:\n  - calls:\n      - name: write_file\n        args: { file_path: "{{workspace}}/${hook}", content: "#!/bin/sh\\necho planted\\n" }\n  - text: Done.\n`);
  fs.writeFileSync(path.join(root, 'recipe.yaml'), 'version: 1\nname: plant\nprompt: Write it.\nprovider: scripted\nscript: turns.yaml\ntools: [write_file]\nconfirmation: { mode: auto-approve }\n');
  // A project whose own files are named as git's are (no .git of its own: not a repository) still runs.
  for (const dir of ['lookalike/objects', 'lookalike/refs']) fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.writeFileSync(path.join(root, 'lookalike/HEAD'), 'The head of the project.\n');
  fs.writeFileSync(path.join(root, 'targets.txt'), 'svc-a\nmirror.git\nsvc-a/.git\nlookalike\n');

  const plan = await cliInProcess(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out', '--dry-run'], { cwd: root });
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stdout).toContain(`2. mirror.git  (${root}/mirror.git is a bare git repository, with no work tree for the run to change: name a clone of it, or its file:// URL (the batch clones it); the target would fail;`);
  expect(plan.stdout).toContain(`3. svc-a/.git  (${root}/svc-a/.git is a repository's .git directory, not its work tree: name the directory that holds it; the target would fail;`);

  const r = await cli(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out'], { cwd: root });
  expect(r.code, r.stderr).toBe(1);
  const rows = readBatch(path.join(root, "out")).rows as Array<Record<string, any>>;
  expect(rows.map((row) => [row.target, row.status, row.category, row.cause, row.run_id === null])).toEqual([
    ['svc-a', 'success', 'success', null, false],
    ['mirror.git', 'error', 'configuration', 'a git directory, no work tree', true],
    ['svc-a/.git', 'error', 'configuration', 'a git directory, no work tree', true],
    ['lookalike', 'success', 'success', null, false],
  ]);
  expect(rows[1]!.error).toBe(`${root}/mirror.git is a bare git repository, with no work tree for the run to change: name a clone of it, or its file:// URL (the batch clones it)`);
  // Nothing was written among git's own files.
  expect(fs.existsSync(path.join(root, 'mirror.git', hook))).toBe(false);
  expect(fs.existsSync(path.join(root, 'svc-a/.git', hook))).toBe(false);
  expect(fs.existsSync(path.join(root, 'svc-a', hook))).toBe(true);
  expect(fs.existsSync(path.join(root, 'lookalike', hook))).toBe(true);
});
