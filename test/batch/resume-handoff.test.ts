// `batch --resume` after targets whose run did its work and committed it, but whose push or pull
// request failed (GitHub refusing the pull request, origin unable to take the push): the resume
// pushes the same commit and opens the pull request, without running the model again, and the rows
// turn to success. Before, such rows were kept as final and the work stayed on a local branch.
// The built CLI, real git repositories behind GitHub URLs (insteadOf), a fake GitHub REST API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { fakeGitHubEnv, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { readBatch } from './fleet.js';

const TOKEN = 'ghp_resume_handoff_token_000000000000';
const BRANCH = 'unattended/friendlier';
let github: FakeGitHub;

beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }, { owner: 'acme', name: 'gears' }, { owner: 'acme', name: 'sprockets' }] });
});
afterAll(async () => {
  await github.close();
  cleanupRepos();
});

it('--resume pushes again and opens the pull request of runs whose hand-off failed after their commit; the model is not asked again', { timeout: 120_000 }, async () => {
  const root = tempRoot('unattended-resume-handoff-');
  const remotes = path.join(root, 'remotes');
  const names = ['widgets', 'gears', 'sprockets'];
  for (const name of names) {
    const seed = await makeRepo(path.join(root, 'seeds', name), { 'README.md': `hello from ${name}\n` });
    await gitIn(root, 'clone', '-q', '--bare', seed, path.join(remotes, 'acme', `${name}.git`));
  }
  const env = fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN);
  const edit = { name: 'edit', args: { file_path: '{{workspace}}/README.md', old_string: 'hello', new_string: 'hello, friend' } };
  fs.writeFileSync(path.join(root, 'turns.json'), JSON.stringify({ turns: [{ calls: [edit] }, { text: 'Made it friendlier.' }] }));
  fs.writeFileSync(
    path.join(root, 'recipe.yaml'),
    [
      'version: 1',
      'name: friendlier',
      'prompt: Make the greeting friendlier.',
      'provider: scripted',
      'script: turns.json',
      'tools: [read_file, edit]',
      'confirmation: { mode: allowlist, allow: [{ edit: README.md }] }',
      `git: { branch: ${BRANCH}, commit_message: Friendlier, pull_request: { title: Friendlier, body: "{{ run.summary }}" } }`,
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(root, 'targets.txt'), names.map((n) => `https://github.example/acme/${n}.git`).join('\n') + '\n');
  // widgets: GitHub refuses the pull request (a token without pull-requests: write); gears: origin cannot take the push.
  github.failures.set('POST /repos/acme/widgets/pulls', { status: 403, message: 'Resource not accessible by integration' });
  const lock = path.join(remotes, 'acme', 'gears.git', 'refs', 'heads', `${BRANCH}.lock`);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  fs.writeFileSync(lock, '');
  const batch = (...flags: string[]) => cli(['batch', 'recipe.yaml', '--targets', 'targets.txt', '--out', 'out', ...flags], { cwd: root, env, timeoutMs: 90_000 });

  const first = await batch();
  expect(first.code, first.stderr).toBe(1);
  const before = readBatch(path.join(root, 'out')).rows;
  expect(before.map((r: any) => [r.category, r.git?.pushed ?? null])).toEqual([['handoff', true], ['handoff', false], ['success', true]]);
  const commits = before.map((r: any) => r.git.commit);
  const runIds = before.map((r: any) => r.run_id);

  github.failures.clear();
  fs.rmSync(lock);
  const plan = await batch('--resume', '--dry-run');
  expect(plan.stdout).toMatch(/widgets\.git .*; kept: handoff_failed, its hand-off tried again\)/);
  expect(plan.stdout).toMatch(/sprockets\.git .*; kept: success\)/);
  const resumed = await batch('--resume');
  expect(resumed.code, resumed.stderr).toBe(0);
  const after = readBatch(path.join(root, 'out')).rows;
  expect(after.map((r: any) => [r.status, r.category, r.exit_code, r.error, r.git.pushed])).toEqual(names.map(() => ['success', 'success', 0, null, true]));
  // The same runs and commits: handed off, not done again.
  expect(after.map((r: any) => r.run_id)).toEqual(runIds);
  expect(after.map((r: any) => r.git.commit)).toEqual(commits);
  expect(after.map((r: any) => r.handoff_retried ?? false)).toEqual([true, true, false]);
  for (const [i, name] of names.entries()) {
    expect(await gitIn(path.join(remotes, 'acme', `${name}.git`), 'rev-parse', BRANCH)).toBe(commits[i]);
    const open = github.pulls.filter((p) => p.repo === `acme/${name}` && p.state === 'open');
    expect(open, name).toHaveLength(1);
    expect(open[0]).toMatchObject({ head: BRANCH, body: 'Made it friendlier.' });
    expect(after[i].pull_request).toMatchObject({ number: open[0]!.number, error: null });
  }
  // A resume with nothing left to do does nothing.
  const posts = github.requests.filter((r) => r.method === 'POST').length;
  const again = await batch('--resume');
  expect(again.code, again.stderr).toBe(0);
  expect(github.requests.filter((r) => r.method === 'POST').length).toBe(posts);
});
