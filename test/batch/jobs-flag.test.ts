// `--jobs N` / `-j N`, as make, xargs -P's users and GNU parallel write it: batch refused it
// ("Unknown argument: jobs", no hint), so a fleet job written that way never started. It is
// --concurrency by another name.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanupRepos, makeRepo, tempRoot } from '../git/repos.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

afterAll(cleanupRepos);

it('--jobs and -j set how many targets run at a time; given with --concurrency, it is one flag given twice', async () => {
  const root = tempRoot('unattended-batch-jobs-');
  await makeRepo(path.join(root, 'svc-a'), { 'README.md': 'hello\n' });
  fs.writeFileSync(path.join(root, 'turns.yaml'), 'turns:\n  - text: Looked.\n');
  fs.writeFileSync(path.join(root, 'recipe.yaml'), 'version: 1\nname: look\nprompt: Look.\nprovider: scripted\nscript: turns.yaml\nconfirmation: { mode: deny }\n');
  fs.writeFileSync(path.join(root, 'targets.txt'), 'svc-a\n');
  const plan = (...flags: string[]) => cliInProcess(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out', '--dry-run', ...flags], { cwd: root });
  for (const [flags, n] of [[['--jobs', '3'], 3], [['-j', '4'], 4], [['--jobs=5'], 5]] as const) {
    const r = await plan(...flags);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`out        ${root}/out, ${n} at a time`);
  }
  const zero = await plan('-j', '0');
  expect(zero.code).toBe(42);
  expect(zero.stderr).toContain('--concurrency must be a whole number from 1 to 64');
  const twice = await plan('--jobs', '2', '--concurrency', '3');
  expect(twice.code).toBe(42);
  expect(twice.stderr).toContain('--concurrency was given twice');
});
