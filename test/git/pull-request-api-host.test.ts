// Which GitHub API a hand-off's pull request (and `batch status`) goes to: the one of the
// repository's host. GITHUB_API_URL is the API of the server GITHUB_SERVER_URL names (Actions sets
// both): on an Enterprise runner a github.com repository's pull request went to the Enterprise
// API (404/401), and the reverse on github.com runners. The fake GitHub answers at its root as
// github.example's API and under /api/v3 as the Enterprise API of the host 127.0.0.1:PORT.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineForHandoff, gitHandoffStep } from '../../src/git/handoff-step.js';
import { githubApiUrl, parseGitHubRemote } from '../../src/git/github-repo.js';
import { pullRequestStatuses } from '../../src/batch/pr-status.js';
import type { BatchReport } from '../../src/batch/batch-report.js';
import type { GitHandoff } from '../../src/recipe/types.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from './repos.js';

const TOKEN = 'ghp_fake_token_for_tests_000000000000';
let github: FakeGitHub;
/** Another server's API (the runner's, for a repository it does not serve): it knows no such pull request. */
let elsewhere: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }] });
  elsewhere = await startFakeGitHub({ token: TOKEN });
});
afterAll(async () => {
  await github.close();
  await elsewhere.close();
  cleanupRepos();
});

const config: GitHandoff = {
  branch: 'unattended/greeting',
  commitMessage: 'Rename the greeting',
  push: true,
  author: null,
  pullRequest: { title: 'Rename', body: '{{ run.summary }}', draft: false, labels: [], base: null },
};
const facts = () => ({ summary: 'Renamed.', cost_usd: '$0', turns: '1', tool_calls: '1', files_changed: '1', run_id: 'run-1', recipe: 'rename', model: 'm' });
const success = { status: 'success' as const, exitCode: 0, finalAnswer: 'Renamed.', error: null };

/** A clone whose origin is `http://127.0.0.1:PORT/acme/widgets.git` (a bare repository, through insteadOf). */
async function enterpriseCheckout(runner: Record<string, string>) {
  const root = tempRoot('unattended-pr-host-');
  const remotes = path.join(root, 'remotes');
  await makeRepo(path.join(root, 'seed'), { 'greeting.txt': 'hello\n' });
  await gitIn(root, 'clone', '-q', '--bare', path.join(root, 'seed'), path.join(remotes, 'acme', 'widgets.git'));
  const env = { ...isolatedGitEnv(root), GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${remotes}/.insteadOf`, GIT_CONFIG_VALUE_0: `${github.url}/`, GITHUB_TOKEN: TOKEN, ...runner };
  const repo = path.join(root, 'repo');
  await execa('git', ['clone', '-q', `${github.url}/acme/widgets.git`, repo], { cwd: root, env, extendEnv: false });
  return { repo, env };
}

describe('the API of the repository host', () => {
  it("a repository on another host than the runner's: its own API (https://HOST/api/v3), not GITHUB_API_URL", async () => {
    // A runner of github.example (its API the fake's root); the repository is on the Enterprise host 127.0.0.1:PORT.
    const { repo, env } = await enterpriseCheckout({ GITHUB_SERVER_URL: 'https://github.example', GITHUB_API_URL: elsewhere.url });
    const outDir = path.join(path.dirname(repo), 'out');
    const baseline = await baselineForHandoff(config, repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'greeting.txt'), 'hi\n');
    const result = await gitHandoffStep({ config, outcome: success, workspace: repo, outDir, baseline, signal: new AbortController().signal, env, facts });
    const pr = result.report!.pull_request!;
    expect(pr, JSON.stringify(pr)).toMatchObject({ action: 'created', error: null, api_url: `${github.url}/api/v3` });
    expect(pr.url).toBe(`${github.url}/acme/widgets/pull/${pr.number}`);
    expect(result.outcome.exitCode).toBe(0);
    expect(elsewhere.requests).toEqual([]);
    expect(github.requests.length).toBeGreaterThan(0);
    expect(github.requests.every((r) => r.path.startsWith('/api/v3/'))).toBe(true);
  });

  it('batch status asks the API of the pull request host, not a GITHUB_API_URL for another server', async () => {
    const pull = github.pulls[0]!;
    const row = { target: 't', status: 'success', pull_request: { url: `${github.url}/acme/widgets/pull/${pull.number}`, number: pull.number, repository: 'acme/widgets', api_url: `${github.url}/api/v3`, action: 'created', error: null } };
    const report = { rows: [row] } as unknown as BatchReport;
    const runner = { GITHUB_TOKEN: TOKEN, GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_API_URL: elsewhere.url };
    const [status] = await pullRequestStatuses(report, runner);
    expect(status).toMatchObject({ state: 'open', error: null });
    expect(elsewhere.requests).toEqual([]);

    // A report written when GITHUB_API_URL always won names another server's API: the host's own is asked.
    const stale = { rows: [{ ...row, pull_request: { ...row.pull_request, api_url: 'https://ghe.example/api/v3' } }] } as unknown as BatchReport;
    const [again] = await pullRequestStatuses(stale, { GITHUB_TOKEN: TOKEN });
    expect(again).toMatchObject({ state: 'open', error: null });
  });
});

describe('githubApiUrl', () => {
  const ghe = { GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_API_URL: 'https://ghe.example/api/v3/' };
  const dotcom = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_API_URL: 'https://api.github.com' };
  it.each([
    ['github.com on an Enterprise runner', 'github.com', ghe, 'https://api.github.com'],
    ['www.github.com on an Enterprise runner', 'www.github.com', ghe, 'https://api.github.com'],
    ["the Enterprise runner's own host", 'ghe.example', ghe, 'https://ghe.example/api/v3'],
    ['an Enterprise host on a github.com runner', 'ghe.corp.example', dotcom, 'https://ghe.corp.example/api/v3'],
    ['Enterprise Cloud on a github.com runner', 'octo.ghe.com', dotcom, 'https://api.octo.ghe.com'],
    ['github.com on a github.com runner', 'github.com', dotcom, 'https://api.github.com'],
    ['a runner whose API is a proxy, for its own host', 'ghe.example', { GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_API_URL: 'http://proxy.internal:8080' }, 'http://proxy.internal:8080'],
    ['GITHUB_API_URL alone, an Enterprise API, for github.com', 'github.com', { GITHUB_API_URL: 'https://ghe.example/api/v3' }, 'https://api.github.com'],
    ['GITHUB_API_URL alone, an Enterprise API, for its host', 'ghe.example', { GITHUB_API_URL: 'https://ghe.example/api/v3' }, 'https://ghe.example/api/v3'],
    ['GITHUB_API_URL alone, api.github.com, for an Enterprise host', 'ghe.example', { GITHUB_API_URL: 'https://api.github.com' }, 'https://ghe.example/api/v3'],
    ['GITHUB_API_URL alone of no GitHub shape (a proxy): every host', 'github.com', { GITHUB_API_URL: 'http://127.0.0.1:9/' }, 'http://127.0.0.1:9'],
    ['no environment', 'ghe.example', {}, 'https://ghe.example/api/v3'],
  ])('%s', (_, host, env, api) => {
    expect(githubApiUrl(host, env)).toBe(api);
  });

  it("an https or http remote's port and scheme are its Enterprise API's; an ssh remote's port is not", () => {
    const at = (url: string) => {
      const repo = parseGitHubRemote(url)!;
      return githubApiUrl(repo.host, {}, repo.webOrigin);
    };
    expect(at('https://ghe.example:8443/team/tool.git')).toBe('https://ghe.example:8443/api/v3');
    expect(at('http://ghe.example/team/tool')).toBe('http://ghe.example/api/v3');
    expect(at('ssh://git@ghe.example:2222/team/tool.git')).toBe('https://ghe.example/api/v3');
    expect(at('git@ghe.example:team/tool.git')).toBe('https://ghe.example/api/v3');
    expect(at('https://user:secret@github.com/acme/widgets')).toBe('https://api.github.com');
  });

  it('a listing (no repository yet) takes GITHUB_API_URL', () => {
    expect(githubApiUrl(null, ghe)).toBe('https://ghe.example/api/v3');
    expect(githubApiUrl(null, {})).toBe('https://api.github.com');
  });
});
