// The pull request of a hand-off, on real repositories with a real bare "origin" reached through
// a GitHub-shaped URL (git's insteadOf), against a fake GitHub REST API on 127.0.0.1: opened once,
// updated on a re-run (the branch replaced with a lease), never duplicated; failures are exit 58.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineForHandoff, gitHandoffStep } from '../../src/git/handoff-step.js';
import { githubApiUrl, parseGitHubRemote } from '../../src/git/github-repo.js';
import { runCli } from '../../src/cli/cli.js';
import { ROOT } from '../helpers/cli.js';
import { vi } from 'vitest';
import type { GitHandoff, PullRequestConfig } from '../../src/recipe/types.js';
import { fakeGitHubEnv, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from './repos.js';

const TOKEN = 'ghp_fake_token_for_tests_000000000000';
let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets', default_branch: 'trunk' }, { owner: 'acme', name: 'gears' }, { owner: 'acme', name: 'sprockets' }] });
});
afterAll(async () => {
  await github.close();
  cleanupRepos();
});

const pr = (over: Partial<PullRequestConfig> = {}): PullRequestConfig => ({
  title: 'Rename the greeting ({{ run.files_changed }} files)',
  body: '{{ run.summary }}\n\nCost: {{ run.cost_usd }}, run {{ run.run_id }}, commit {{ run.commit }}',
  draft: true,
  labels: ['unattended', 'refactor'],
  base: null,
  ...over,
});
const config = (over: Partial<GitHandoff> = {}): GitHandoff => ({ branch: 'unattended/greeting', commitMessage: 'Rename the greeting', push: true, author: null, pullRequest: pr(), ...over });
const facts = () => ({ summary: 'Renamed hello to hi.', cost_usd: '$0.0123', turns: '3', tool_calls: '4', files_changed: '1', run_id: 'run-1', recipe: 'rename', model: 'm' });
const success = { status: 'success' as const, exitCode: 0, finalAnswer: 'Renamed hello to hi.', error: null };
const signal = new AbortController().signal;

/**
 * A clone of acme/NAME whose origin is `https://github.example/acme/NAME.git`; git reaches it in
 * a bare repository through insteadOf (from the environment, as a user's global config would).
 */
async function checkout(name = 'widgets') {
  const root = tempRoot('unattended-pr-');
  const remotes = path.join(root, 'remotes');
  const bare = path.join(remotes, 'acme', `${name}.git`);
  fs.cpSync(await originTemplate(), bare, { recursive: true });
  const env = fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN);
  const repo = path.join(root, 'repo');
  // Cloned by its GitHub URL, which insteadOf turns into the bare path: origin is the GitHub URL.
  await execa('git', ['clone', '-q', `https://github.example/acme/${name}.git`, repo], { cwd: root, env, extendEnv: false });
  return { root, repo, env, bare };
}

/**
 * The bare origin every checkout starts from (one commit of greeting.txt), made once for the file
 * and copied by each case: a copy of a bare repository is the same repository, for three git
 * processes less per case.
 */
let template: Promise<string> | undefined;
function originTemplate(): Promise<string> {
  template ??= (async () => {
    const root = tempRoot('unattended-pr-origin-');
    const seed = await makeRepo(path.join(root, 'seed'), { 'greeting.txt': 'hello\n' });
    await gitIn(root, 'clone', '-q', '--bare', seed, path.join(root, 'origin.git'));
    return path.join(root, 'origin.git');
  })();
  return template;
}

async function handOffChange(repo: string, env: NodeJS.ProcessEnv, content: string, cfg = config()) {
  const outDir = path.join(path.dirname(repo), 'out', String(Math.random()).slice(2));
  const baseline = await baselineForHandoff(cfg, repo, outDir, env);
  fs.writeFileSync(path.join(repo, 'greeting.txt'), content);
  const result = await gitHandoffStep({ config: cfg, outcome: success, workspace: repo, outDir, baseline, signal, env, facts });
  fs.writeFileSync(path.join(repo, 'greeting.txt'), 'hello\n');
  return result;
}

describe('git.pull_request', () => {
  it('pushes, opens one pull request into the default branch with the run filled in, labels it; a re-run updates that one', async () => {
    const { repo, env, bare } = await checkout();
    const first = await handOffChange(repo, env, 'hi\n');
    expect(first.outcome).toBe(success);
    const report = first.report!;
    expect(report.pushed).toBe(true);
    expect(report.pull_request).toMatchObject({ action: 'created', repository: 'acme/widgets', base: 'trunk', head: 'unattended/greeting', draft: true, error: null, api_url: github.url });
    expect(report.pull_request!.url).toBe(`https://github.example/acme/widgets/pull/${report.pull_request!.number}`);
    const opened = github.pulls.find((p) => p.number === report.pull_request!.number)!;
    expect(opened).toMatchObject({ title: 'Rename the greeting (1 files)', base: 'trunk', head: 'unattended/greeting', draft: true, labels: ['unattended', 'refactor'] });
    expect(opened.body).toBe(`Renamed hello to hi.\n\nCost: $0.0123, run run-1, commit ${report.commit}`);
    expect(github.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    expect(await gitIn(bare, 'show', 'unattended/greeting:greeting.txt')).toBe('hi');

    // The same recipe again, with other work: the branch is replaced (locally and on origin) and the pull request updated.
    const posts = github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls')).length;
    const second = await handOffChange(repo, env, 'hi there\n', config({ pullRequest: pr({ title: 'Second take', labels: ['again'] }) }));
    expect(second.outcome).toBe(success);
    expect(second.report).toMatchObject({ pushed: true, replaced: report.commit });
    expect(second.report!.pull_request).toMatchObject({ action: 'updated', number: report.pull_request!.number, url: report.pull_request!.url, error: null });
    expect(github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls')).length).toBe(posts);
    expect(github.pulls.filter((p) => p.repo === 'acme/widgets' && p.state === 'open')).toHaveLength(1);
    expect(opened).toMatchObject({ title: 'Second take', labels: ['unattended', 'refactor', 'again'] });
    expect(await gitIn(bare, 'show', 'unattended/greeting:greeting.txt')).toBe('hi there');
    expect(await gitIn(repo, 'rev-parse', 'unattended/greeting')).toBe(second.report!.commit);
  });

  it("keeps the template's text after {{ run.summary }} visible when the answer opens a comment or a fence", async () => {
    const { repo, env } = await checkout('sprockets');
    const baseline = await baselineForHandoff(config(), repo, path.join(path.dirname(repo), 'out-h'), env);
    fs.writeFileSync(path.join(repo, 'greeting.txt'), 'hey\n');
    const hostile = () => ({ ...facts(), summary: 'Renamed it.\n<!-- reviewers, look away\n```' });
    const result = await gitHandoffStep({ config: config(), outcome: success, workspace: repo, outDir: path.join(path.dirname(repo), 'out-h'), baseline, signal, env, facts: hostile });
    expect(result.report!.pull_request, JSON.stringify(result.report)).toMatchObject({ error: null });
    const opened = github.pulls.find((p) => p.repo === 'acme/sprockets' && p.number === result.report!.pull_request!.number)!;
    expect(opened.body).toBe(`Renamed it.\n&lt;!-- reviewers, look away\n\`\`\`\n\`\`\`\n\nCost: $0.0123, run run-1, commit ${result.report!.commit}`);
  });

  it('a body cut at GitHub\'s limit inside a code block closes the block, so the note saying so and the rest render as text', async () => {
    const { repo, env } = await checkout('gears');
    const logLines = Array.from({ length: 3_000 }, (_, i) => `line ${i} of the test output, quite long`).join('\n');
    const long = () => ({ ...facts(), summary: `Renamed it. The test output:\n\n\`\`\`text\n${logLines}\n\`\`\`\n\nAll green.` });
    const cfg = config({ branch: 'unattended/long-body' });
    const outDir = path.join(path.dirname(repo), 'out-long');
    const baseline = await baselineForHandoff(cfg, repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'greeting.txt'), 'hey\n');
    const result = await gitHandoffStep({ config: cfg, outcome: success, workspace: repo, outDir, baseline, signal, env, facts: long });
    expect(result.report!.pull_request, JSON.stringify(result.report?.pull_request)).toMatchObject({ error: null });
    const body = github.pulls.find((p) => p.repo === 'acme/gears' && p.number === result.report!.pull_request!.number)!.body!;
    expect(body.length).toBeLessThanOrEqual(65_536);
    const lines = body.split('\n');
    // Every fence opened is closed, and the note is after the last of them: text, not code.
    expect(lines.filter((l) => l.startsWith('```')).length % 2).toBe(0);
    const note = lines.findIndex((l) => l.includes('(cut: GitHub takes at most 65,536 characters)'));
    expect(note).toBe(lines.length - 1);
    expect(lines.slice(0, note).findLastIndex((l) => l.startsWith('```'))).toBeLessThan(note - 1);
    // Cut at a line's end, not inside one.
    expect(lines[note - 2]).toBe('```');
    expect(lines[note - 3]).toMatch(/^line \d+ of the test output, quite long$/);
  });

  it('a title with {{ run.summary }} is one line within GitHub\'s 256 characters, so the pull request is opened', async () => {
    const { repo, env } = await checkout('gears');
    const summary = `Renamed the greeting.\n\n${'Then checked every caller of it, one by one. '.repeat(20)}`;
    const cfg = config({ branch: 'unattended/long-title', pullRequest: pr({ title: 'unattended: {{ run.summary }}' }) });
    const outDir = path.join(path.dirname(repo), 'out-title');
    const baseline = await baselineForHandoff(cfg, repo, outDir, env);
    fs.writeFileSync(path.join(repo, 'greeting.txt'), 'hey there\n');
    const result = await gitHandoffStep({ config: cfg, outcome: success, workspace: repo, outDir, baseline, signal, env, facts: () => ({ ...facts(), summary }) });
    expect(result.outcome.status, JSON.stringify(result.report?.pull_request)).toBe('success');
    const title = github.pulls.find((p) => p.repo === 'acme/gears' && p.number === result.report!.pull_request!.number)!.title;
    expect(title).toMatch(/^unattended: Renamed the greeting\. Then checked every caller/);
    expect(title).not.toContain('\n');
    expect(title.length).toBeLessThanOrEqual(256);
    expect(title.endsWith('…')).toBe(true);
  });

  it("never overwrites a branch someone else committed to: handoff_failed, exit 58, origin untouched", async () => {
    const { root, repo, env, bare } = await checkout('gears');
    const first = await handOffChange(repo, env, 'hi\n');
    expect(first.report?.pull_request?.action).toBe('created');
    // A reviewer pushes a fix onto the pull request's branch.
    const other = path.join(root, 'reviewer');
    await gitIn(root, 'clone', '-q', '-b', 'unattended/greeting', bare, other);
    fs.writeFileSync(path.join(other, 'greeting.txt'), 'hi!\n');
    await gitIn(other, '-c', 'user.email=reviewer@example.com', '-c', 'user.name=Reviewer', 'commit', '-qam', 'review fix');
    await gitIn(other, 'push', '-q', 'origin', 'unattended/greeting');
    const theirs = await gitIn(bare, 'rev-parse', 'unattended/greeting');

    const second = await handOffChange(repo, env, 'hello there\n');
    expect(second.outcome).toMatchObject({ status: 'handoff_failed', exitCode: 58, errorKind: 'handoff' });
    expect(second.outcome.error).toMatch(/exists on origin and its last commit .* is by reviewer@example\.com.*not overwritten/);
    expect(second.report?.pull_request).toBeUndefined();
    expect(await gitIn(bare, 'rev-parse', 'unattended/greeting')).toBe(theirs);
  });

  it('no token, a refusal (403) and a validation error (422) fail the hand-off with exit 58 and say why', async () => {
    const { repo, env } = await checkout();
    const noToken = await handOffChange(repo, { ...env, GITHUB_TOKEN: '', GH_TOKEN: '' }, 'a\n', config({ branch: 'unattended/no-token' }));
    expect(noToken.outcome).toMatchObject({ status: 'handoff_failed', exitCode: 58 });
    expect(noToken.outcome.error).toMatch(/pull request: no GitHub token: set GITHUB_TOKEN or GH_TOKEN/);
    expect(noToken.report).toMatchObject({ pushed: true, pull_request: { action: null, url: null } });

    // GH_TOKEN is the other name the token goes by.
    const viaGh = await handOffChange(repo, { ...env, GITHUB_TOKEN: '', GH_TOKEN: TOKEN }, 'b\n', config({ branch: 'unattended/gh-token' }));
    expect(viaGh.report?.pull_request?.action).toBe('created');

    github.failures.set('POST /repos/acme/widgets/pulls', { status: 403, message: 'Resource not accessible by integration' });
    try {
      const refused = await handOffChange(repo, env, 'c\n', config({ branch: 'unattended/refused' }));
      expect(refused.outcome.exitCode).toBe(58);
      expect(refused.outcome.error).toMatch(/opening a pull request from unattended\/refused into trunk: GitHub answered 403 \(Resource not accessible by integration\): the token may not do this/);
    } finally {
      github.failures.clear();
    }
    // Actions' GITHUB_TOKEN, where the repository does not let Actions open pull requests: a setting, not the token.
    github.failures.set('POST /repos/acme/widgets/pulls', { status: 403, message: 'GitHub Actions is not permitted to create or approve pull requests.' });
    try {
      const setting = await handOffChange(repo, env, 'd\n', config({ branch: 'unattended/actions-setting' }));
      expect(setting.outcome.exitCode).toBe(58);
      expect(setting.outcome.error).toMatch(/GitHub answered 403 \(GitHub Actions is not permitted to create or approve pull requests\.\): the repository \(or its organisation\) does not let GitHub Actions create pull requests: tick 'Allow GitHub Actions to create and approve pull requests' in Settings > Actions > General > Workflow permissions/);
      expect(setting.outcome.error).not.toMatch(/the token may not do this/);
    } finally {
      github.failures.clear();
    }
    // A private repository on a plan without drafts.
    github.failures.set('POST /repos/acme/widgets/pulls', { status: 422, message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: 'Draft pull requests are not supported in this repository.' }] });
    try {
      const draft = await handOffChange(repo, env, 'e\n', config({ branch: 'unattended/no-drafts' }));
      expect(draft.outcome.exitCode).toBe(58);
      expect(draft.outcome.error).toMatch(/GitHub answered 422 \(Validation Failed; Draft pull requests are not supported in this repository\.\): this repository's plan has no draft pull requests: set the recipe's pull_request\.draft to false/);
    } finally {
      github.failures.clear();
    }
    // The open pull request of gh-token, updated into a base GitHub refuses.
    github.failures.set(`PATCH /repos/acme/widgets/pulls/${viaGh.report!.pull_request!.number}`, { status: 422, message: 'Validation Failed', errors: [{ code: 'invalid', field: 'base' }] });
    try {
      const rejected = await handOffChange(repo, env, 'e\n', config({ branch: 'unattended/gh-token', pullRequest: pr({ base: 'no-such-base' }) }));
      expect(rejected.outcome.exitCode).toBe(58);
      expect(rejected.outcome.error).toMatch(/updating pull request #\d+: GitHub answered 422 \(Validation Failed; invalid base\)/);
    } finally {
      github.failures.clear();
    }
  });

  it('a run without a token is warned at its start, does its work, pushes, and ends handoff_failed (58) with the reason in report.json and report.md', async () => {
    const { root, repo, env, bare } = await checkout();
    fs.writeFileSync(path.join(repo, 'README.md'), 'hello from widgets\n');
    await gitIn(repo, 'add', 'README.md');
    await gitIn(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=test', 'commit', '-qm', 'readme');
    const out = path.join(root, 'run-out');
    const saved = { ...process.env };
    const { GITHUB_TOKEN: _token, ...withoutToken } = env;
    Object.assign(process.env, withoutToken);
    delete process.env.GITHUB_TOKEN;
    delete process.env.GH_TOKEN;
    const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(() => true), vi.spyOn(process.stderr, 'write').mockImplementation(() => true)];
    let code: number;
    try {
      code = await runCli(['run', path.join(ROOT, 'test/fixtures/batch/greet-pr.yaml'), '--workspace', repo, '--out', out, '--no-stdin']);
    } finally {
      for (const spy of spies) spy.mockRestore();
      process.env = saved;
    }
    expect(code).toBe(58);
    const events = fs.readFileSync(path.join(out, 'transcript.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const warning = events.findIndex((e) => e.type === 'warning' && /git\.pull_request: no GitHub token/.test(e.message));
    expect(warning).toBeGreaterThan(-1);
    expect(warning).toBeLessThan(events.findIndex((e) => e.type === 'model_request' || e.type === 'model_response'));
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'handoff_failed', exit_code: 58, git: { pushed: true, pull_request: { repository: 'acme/widgets', url: null, error: expect.stringMatching(/^no GitHub token/) } } });
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/- pull request failed: no GitHub token: set GITHUB_TOKEN or GH_TOKEN/);
    expect(await gitIn(bare, 'show', 'unattended/greet:README.md')).toBe('hello, friend from widgets');
  });

  it('lists in the report only the labels it added: none when GitHub refused them', async () => {
    const { repo, env } = await checkout();
    github.failures.set(`POST /repos/acme/widgets/issues/${github.pulls.length + 1}/labels`, { status: 403, message: 'Resource not accessible by integration' });
    try {
      const refused = await handOffChange(repo, env, 'l\n', config({ branch: 'unattended/unlabelled' }));
      expect(refused.outcome.exitCode).toBe(58);
      expect(refused.outcome.error).toMatch(/labelling pull request #\d+: GitHub answered 403/);
      expect(refused.report?.pull_request).toMatchObject({ action: 'created', labels: [] });
    } finally {
      github.failures.clear();
    }
    const labelled = await handOffChange(repo, env, 'm\n', config({ branch: 'unattended/labelled' }));
    expect(labelled.report?.pull_request).toMatchObject({ action: 'created', labels: ['unattended', 'refactor'], error: null });
  });

  it("GitHub's passing faults (a 502, the secondary rate limit with Retry-After) are tried again; a limit that stays is named as one", async () => {
    const { repo, env } = await checkout();
    github.failures.set('POST /repos/acme/widgets/pulls', { status: 502, message: 'Server Error', times: 1 });
    const afterBlip = await handOffChange(repo, env, 'r\n', config({ branch: 'unattended/after-blip' }));
    expect(afterBlip.outcome).toBe(success);
    expect(afterBlip.report?.pull_request).toMatchObject({ action: 'created', error: null });

    const limited = { status: 403, message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', headers: { 'retry-after': '0' } };
    github.failures.set('POST /repos/acme/widgets/pulls', { ...limited, times: 1 });
    const afterLimit = await handOffChange(repo, env, 's\n', config({ branch: 'unattended/after-limit' }));
    expect(afterLimit.report?.pull_request).toMatchObject({ action: 'created', error: null });

    github.failures.set('POST /repos/acme/widgets/pulls', limited);
    try {
      const stays = await handOffChange(repo, env, 't\n', config({ branch: 'unattended/limit-stays' }));
      expect(stays.outcome.exitCode).toBe(58);
      expect(stays.outcome.error).toMatch(/GitHub answered 403 \(You have exceeded a secondary rate limit.*\): GitHub is rate-limiting these requests/);
      expect(stays.outcome.error).not.toMatch(/the token may not do this/);
    } finally {
      github.failures.clear();
    }
    expect(github.requests.filter((r) => r.method === 'POST' && r.path === '/repos/acme/widgets/pulls' && (r.body as { head?: string }).head === 'unattended/limit-stays')).toHaveLength(3);
  });

  it('a remote that is no GitHub URL is a clear hand-off failure', async () => {
    const { repo, env, bare } = await checkout();
    await gitIn(repo, 'remote', 'set-url', 'origin', bare);
    const result = await handOffChange(repo, env, 'x\n', config({ branch: 'unattended/local-origin' }));
    expect(result.outcome.exitCode).toBe(58);
    expect(result.outcome.error).toMatch(/is not a GitHub repository URL/);
  });
});

describe('which repository a remote is', () => {
  it.each([
    ['https://github.com/acme/widgets.git', 'github.com', 'acme/widgets'],
    ['https://x-access-token:abc@github.com/acme/widgets', 'github.com', 'acme/widgets'],
    ['https://github.com/acme/widgets/', 'github.com', 'acme/widgets'],
    ['git@github.com:acme/widgets.git', 'github.com', 'acme/widgets'],
    ['ssh://git@github.com/acme/widgets.git', 'github.com', 'acme/widgets'],
    ['ssh://git@ghe.corp.example:2222/team/tool.git', 'ghe.corp.example', 'team/tool'],
    ['https://ghe.corp.example/team/tool.js.git', 'ghe.corp.example', 'team/tool.js'],
  ])('%s', (url, host, full) => {
    const repo = parseGitHubRemote(url);
    expect(repo && `${repo.owner}/${repo.name}`).toBe(full);
    expect(repo?.host).toBe(host);
  });

  it.each(['/srv/git/widgets.git', 'file:///srv/widgets.git', 'https://github.com/acme', 'https://gitlab.example/group/sub/project.git', 'C:\\repos\\w'])('%s is none', (url) => {
    expect(parseGitHubRemote(url)).toBeNull();
  });

  it("finds the API: github.com, Enterprise Cloud and Server hosts; GITHUB_API_URL for the host it serves", () => {
    expect(githubApiUrl('github.com', {})).toBe('https://api.github.com');
    expect(githubApiUrl('octo.ghe.com', {})).toBe('https://api.octo.ghe.com');
    expect(githubApiUrl('ghe.corp.example', {})).toBe('https://ghe.corp.example/api/v3');
    expect(githubApiUrl('ghe.corp.example', { GITHUB_API_URL: 'https://ghe.corp.example/api/v3/' })).toBe('https://ghe.corp.example/api/v3');
  });
});
