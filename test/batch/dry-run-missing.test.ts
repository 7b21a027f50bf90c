// batch --dry-run is how a fleet's owner checks a batch before paying for it: a target directory
// that is not there (a typo, a list resolved against the wrong directory) would be a failed row
// ('workspace not found') once the batch runs, so the plan says so, with where it was looked for.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(cleanupRepos);

it('--dry-run names a target directory that is not there, and where it looked', async () => {
  const root = tempRoot('unattended-batch-dry-');
  await makeRepo(path.join(root, 'svc-a'), { 'README.md': 'hello\n' });
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - text: Looked.\n');
  fs.writeFileSync(path.join(root, 'recipe.yaml'), 'version: 1\nname: look\nprompt: Look.\nprovider: scripted\nscript: turns.yaml\nconfirmation: { mode: deny }\n');
  fs.writeFileSync(path.join(root, 'targets.txt'), 'svc-a\nsvc-typo\n');
  const r = await cliInProcess(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out', '--dry-run'], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^ +1\. svc-a {2}\(in place; report out\/targets\/svc-a-[0-9a-f]{6}\)$/m);
  expect(r.stdout).toMatch(new RegExp(`^ +2\\. svc-typo {2}\\(not found: ${root}/svc-typo is not a directory, the target would fail; report out/targets/svc-typo-[0-9a-f]{6}\\)$`, 'm'));
  expect(fs.existsSync(path.join(root, 'out'))).toBe(false);
});
