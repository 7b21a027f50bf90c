// Issue 14's spelling end to end: a recipe whose only hand-off setting is
// `handoff: { pull_request: {...} }` (no branch) runs against a real repository whose origin is a
// real bare repository behind a GitHub URL (git's insteadOf) and a fake GitHub REST API on
// 127.0.0.1. The first run pushes the default branch and opens a pull request; a re-run of the
// same recipe replaces that branch and updates the same pull request.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { fakeGitHubEnv, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';

const TOKEN = 'ghp_handoff_section_token_0000000000';
const BRANCH = 'unattended/friendlier-greeting';

let github: FakeGitHub;
let root: string;
let repo: string;
let bare: string;
let env: Record<string, string>;
let recipe: string;

/** Recorded model turns: one edit of README.md to `replacement`, then `answer`. */
function turns(file: string, replacement: string, answer: string): string {
  const at = path.join(root, file);
  const edit = { name: 'edit', args: { file_path: '{{workspace}}/README.md', old_string: 'hello', new_string: replacement } };
  fs.writeFileSync(at, JSON.stringify({ turns: [{ calls: [edit] }, { text: answer }] }));
  return at;
}

beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets', default_branch: 'trunk' }] });
  root = tempRoot('unattended-handoff-');
  const remotes = path.join(root, 'remotes');
  const seed = await makeRepo(path.join(root, 'seed'), { 'README.md': 'hello from widgets\n' });
  bare = path.join(remotes, 'acme', 'widgets.git');
  await gitIn(root, 'clone', '-q', '--bare', seed, bare);
  repo = path.join(root, 'repo');
  await gitIn(root, 'clone', '-q', bare, repo);
  await gitIn(repo, 'remote', 'set-url', 'origin', 'https://github.example/acme/widgets.git');
  env = fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN);
  recipe = path.join(root, 'greeting.yaml');
  fs.writeFileSync(
    recipe,
    [
      'version: 1',
      'name: Friendlier Greeting',
      'prompt: Make the greeting in README.md friendlier.',
      'provider: scripted',
      `script: ${JSON.stringify(turns('turns-1.json', 'hello, friend', 'Made the greeting friendlier.'))}`,
      'tools: [read_file, edit]',
      'confirmation: { mode: allowlist, allow: [{ edit: README.md }] }',
      'handoff:',
      '  pull_request: { title: "Friendlier greeting ({{ run.files_changed }} file)", body: "{{ run.summary }}", draft: true, labels: [greeting] }',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await github?.close();
  cleanupRepos();
});

/** In process, or (`built`) as the shipped dist/cli/main.js with its validator generated at build time. */
async function run(how: 'in-process' | 'built', out: string, ...flags: string[]) {
  const args = ['run', recipe, '--workspace', repo, '--out', path.join(root, out), ...flags];
  const result = how === 'built' ? await cli(args, { cwd: root, env }) : await cliInProcess(args, { cwd: root, env });
  const report = JSON.parse(fs.readFileSync(path.join(root, out, 'report.json'), 'utf8'));
  return { ...result, report };
}

describe('handoff: { pull_request } without a branch, run for real', () => {
  it('opens a pull request from unattended/<recipe name>, and a re-run updates that same pull request', async () => {
    const first = await run('in-process', 'out-1');
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('unattended: success (exit 0)');
    expect(first.report).toMatchObject({
      status: 'success',
      git: { branch: BRANCH, pushed: true, pull_request: { action: 'created', repository: 'acme/widgets', base: 'trunk', head: BRANCH, draft: true, error: null } },
    });
    const number = first.report.git.pull_request.number as number;
    expect(first.report.git.pull_request.url).toBe(`https://github.example/acme/widgets/pull/${number}`);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ number, title: 'Friendlier greeting (1 file)', body: 'Made the greeting friendlier.', head: BRANCH, base: 'trunk', draft: true, labels: ['greeting'] });
    expect(await gitIn(bare, 'show', `${BRANCH}:README.md`)).toBe('hello, friend from widgets');
    expect(await gitIn(bare, 'log', '-1', '--format=%s', BRANCH)).toBe('unattended: Friendlier Greeting');

    // The same recipe again on a clean checkout, with other work (another recording of the model), by the built CLI.
    await gitIn(repo, 'checkout', '--', 'README.md');
    const second = await run('built', 'out-2', '--script', turns('turns-2.json', 'hi there', 'Said hi instead.'));
    expect(second.code).toBe(0);
    expect(second.report.git).toMatchObject({ branch: BRANCH, pushed: true, replaced: first.report.git.commit, pull_request: { action: 'updated', number, error: null } });
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ number, state: 'open', body: 'Said hi instead.' });
    expect(await gitIn(bare, 'show', `${BRANCH}:README.md`)).toBe('hi there from widgets');
    expect(await gitIn(bare, 'rev-parse', BRANCH)).toBe(second.report.git.commit);
  });
});
