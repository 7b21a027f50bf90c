// A hand-off's pull request behind an HTTP proxy (a self-hosted runner that reaches GitHub only
// through one): the GitHub API calls went direct, as Octokit's fetch reads no proxy variable, and
// failed where only the proxy gets out. The fake GitHub is named github.proxied.test, a name only
// the test proxy resolves, so the pull request is opened through the proxy or not at all.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, readRun } from '../helpers/cli.js';
import { fakeGitHubEnv, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { startHttpProxy, type HttpProxy } from '../helpers/http-proxy.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from './repos.js';

const TOKEN = 'ghp_fake_token_for_tests_000000000000';
let github: FakeGitHub;
let proxy: HttpProxy;
let guarded: HttpProxy;
beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }] });
  proxy = await startHttpProxy();
  guarded = await startHttpProxy({ credentials: 'user:secret' });
});
afterAll(async () => {
  await github.close();
  await proxy.close();
  await guarded.close();
  cleanupRepos();
});

const RECIPE = `version: 1
name: proxied-pr
prompt: Make the greeting friendlier.
provider: scripted
script: turns.yaml
tools: [edit]
confirmation: { mode: auto-approve }
git:
  branch: unattended/friendlier
  commit_message: Friendlier greeting
  push: true
  pull_request:
    title: Friendlier greeting
`;

/** A repository cloned from the fake GitHub, a recipe that edits it, and the environment of a run behind `proxyUrl`. */
async function handOffSetup(proxyUrl: string) {
  const root = tempRoot('unattended-pr-proxy-');
  const remotes = path.join(root, 'remotes');
  const seed = await makeRepo(path.join(root, 'seed'), { 'README.md': 'hello\n' });
  await gitIn(root, 'clone', '-q', '--bare', seed, path.join(remotes, 'acme', 'widgets.git'));
  const api = github.url.replace('127.0.0.1', 'github.proxied.test');
  const env = { ...fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN), GITHUB_API_URL: api, HTTP_PROXY: proxyUrl };
  const repo = path.join(root, 'repo');
  await execa('git', ['clone', '-q', 'https://github.example/acme/widgets.git', repo], { cwd: root, env, extendEnv: false });
  fs.writeFileSync(path.join(root, 'recipe.yaml'), RECIPE);
  fs.writeFileSync(
    path.join(root, 'turns.yaml'),
    `turns:\n  - calls:\n      - name: edit\n        args: { file_path: "{{workspace}}/README.md", old_string: "hello", new_string: "hello, friend" }\n  - text: Done.\n`,
  );
  return { root, api, env, repo };
}

describe('a hand-off behind an HTTP proxy', () => {
  it('gives up on the pull request at once, naming the proxy, when the proxy wants credentials (407)', async () => {
    const { root, env, repo } = await handOffSetup(guarded.url);
    const out = path.join(root, 'out');
    const pullsBefore = github.pulls.length;
    const r = await cli(['run', path.join(root, 'recipe.yaml'), '--workspace', repo, '--out', out], { env });
    const { report } = readRun(out);
    expect(report.git.pull_request.error, r.stderr).toContain(`the proxy ${guarded.url} (HTTP_PROXY) asks for credentials`);
    // A proxy's refusal is no GitHub outage: asking twice more (1 s, then 4 s later) gets the same 407.
    expect(guarded.seen, JSON.stringify(guarded.seen)).toHaveLength(1);
    expect(github.pulls).toHaveLength(pullsBefore);
  });

  it('opens its pull request through the proxy HTTP_PROXY names', async () => {
    const root = tempRoot('unattended-pr-proxy-');
    const remotes = path.join(root, 'remotes');
    const seed = await makeRepo(path.join(root, 'seed'), { 'README.md': 'hello\n' });
    await gitIn(root, 'clone', '-q', '--bare', seed, path.join(remotes, 'acme', 'widgets.git'));
    const api = github.url.replace('127.0.0.1', 'github.proxied.test');
    const env = { ...fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN), GITHUB_API_URL: api, HTTP_PROXY: proxy.url };
    const repo = path.join(root, 'repo');
    await execa('git', ['clone', '-q', 'https://github.example/acme/widgets.git', repo], { cwd: root, env, extendEnv: false });
    fs.writeFileSync(path.join(root, 'recipe.yaml'), RECIPE);
    fs.writeFileSync(
      path.join(root, 'turns.yaml'),
      `turns:\n  - calls:\n      - name: edit\n        args: { file_path: "{{workspace}}/README.md", old_string: "hello", new_string: "hello, friend" }\n  - text: Done.\n`,
    );
    const out = path.join(root, 'out');
    const r = await cli(['run', path.join(root, 'recipe.yaml'), '--workspace', repo, '--out', out], { env });
    const { report } = readRun(out);
    expect(report.git.pull_request, r.stderr).toMatchObject({ action: 'created', repository: 'acme/widgets', error: null });
    expect(r.code).toBe(0);
    expect(github.pulls).toHaveLength(1);
    expect(proxy.seen.map((s) => `${s.method} ${s.target}`)).toContain(`POST ${api}/repos/acme/widgets/pulls`);
  });
});
