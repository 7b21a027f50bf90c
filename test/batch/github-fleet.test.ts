// Fleet runs to pull requests, end to end: targets listed from a fake GitHub (org, topic, search,
// pagination), each cloned from a real bare "remote" behind a GitHub URL (git's insteadOf), run
// by the built CLI (a child process per run), pushed, and given one pull request that a second
// batch (in this process, its runs too: in-process-launcher.ts) updates, never duplicates; `batch status` reads them back with their checks; `--dry-run` runs nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectTargets } from '../../src/batch/collect-targets.js';
import { githubClient } from '../../src/git/github-client.js';
import { pullRequestStatuses, renderStatusTable } from '../../src/batch/pr-status.js';
import { readBatchReport } from '../../src/batch/batch-report.js';
import { runCli } from '../../src/cli/cli.js';
import { cleanupRepos, gitIn, isolatedGitEnv, makeRepo, tempRoot } from '../git/repos.js';
import { cli, ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { fakeGitHubEnv, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';

const TOKEN = 'ghp_fleet_token_for_tests_0000000000';
const RECIPE = path.join(ROOT, 'test/fixtures/batch/greet-pr.yaml');
const none = { org: null, topics: [], search: null };

let github: FakeGitHub;
let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = tempRoot('unattended-fleet-');
  const remotes = path.join(root, 'remotes');
  for (const name of ['widgets', 'gears']) {
    const seed = await makeRepo(path.join(root, 'seeds', name), { 'README.md': `hello from ${name}\n` });
    await gitIn(root, 'clone', '-q', '--bare', seed, path.join(remotes, 'acme', `${name}.git`));
  }
  // A page size of 1 makes every listing follow GitHub's Link header.
  github = await startFakeGitHub({
    token: TOKEN,
    pageSize: 1,
    repos: [
      { owner: 'acme', name: 'widgets', topics: ['fleet'] },
      { owner: 'acme', name: 'gears', topics: ['fleet', 'go'] },
      { owner: 'acme', name: 'attic', topics: ['fleet'], archived: true },
      { owner: 'acme', name: 'fork-of-x', fork: true },
      { owner: 'other', name: 'tool', topics: ['go'] },
    ],
  });
  env = fakeGitHubEnv(isolatedGitEnv(root), remotes, github, TOKEN);
});
afterAll(async () => {
  await github?.close();
  cleanupRepos();
});

const clone = (full: string) => `https://github.example/${full}.git`;

describe('targets from GitHub', () => {
  it('an organisation (not archived, not forks), a topic within it, a topic anywhere, a search; file targets first', async () => {
    expect((await collectTargets(null, { ...none, org: 'acme' }, env)).targets.map((t) => t.spec)).toEqual([clone('acme/gears'), clone('acme/widgets')]);
    expect((await collectTargets(null, { ...none, org: 'acme', topics: ['go'] }, env)).targets.map((t) => t.spec)).toEqual([clone('acme/gears')]);
    expect((await collectTargets(null, { ...none, topics: ['go'] }, env)).targets.map((t) => t.spec)).toEqual([clone('acme/gears'), clone('other/tool')]);
    expect((await collectTargets(null, { ...none, search: 'widg' }, env)).targets.map((t) => t.spec)).toEqual([clone('acme/widgets')]);
    expect(github.requests.some((r) => r.path === '/search/repositories' && r.query.q === 'topic:go')).toBe(true);

    const file = path.join(root, 'targets.txt');
    fs.writeFileSync(file, `${clone('acme/widgets')}\nlocal/dir\n`);
    const both = await collectTargets(file, { ...none, org: 'acme' }, env);
    expect(both.targets.map((t) => t.spec)).toEqual([clone('acme/widgets'), 'local/dir', clone('acme/gears')]);
    expect(both.targets.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(both.source).toBe(`${file} + --org acme`);
  });

  it('says what went wrong: an unknown organisation, a refused token, no source at all (exit 42)', async () => {
    await expect(collectTargets(null, { ...none, org: 'nobody' }, env)).rejects.toThrow(/listing the repositories of nobody .*GitHub answered 404 \(Not Found\): the repository does not exist or the token cannot see it/);
    await expect(collectTargets(null, { ...none, org: 'acme' }, { ...env, GITHUB_TOKEN: 'wrong' })).rejects.toThrow(/GitHub answered 401 \(Bad credentials\): the token was refused/);
    await expect(collectTargets(null, none, env)).rejects.toMatchObject({ exitCode: 42, message: expect.stringMatching(/--targets FILE, or GitHub repositories with --org, --topic or --search/) });
  });

  it('a search GitHub answered in part (incomplete_results) is refused, not run on some of the fleet', async () => {
    github.searchIncomplete = true;
    try {
      await expect(collectTargets(null, { ...none, topics: ['fleet'] }, env)).rejects.toMatchObject({ exitCode: 42, message: expect.stringMatching(/the search 'topic:fleet' timed out on GitHub's side and listed only some of its repositories/) });
    } finally {
      github.searchIncomplete = false;
    }
  });

  it('a listing longer than one request may take (a big organisation, many pages) is not cut off: the timeout is each request\'s', async () => {
    // 4 pages of 1 repository, 200 ms each: 800 ms in all, against a 500 ms timeout.
    const gh = await githubClient(github.url, TOKEN, undefined, { timeoutMs: 500 });
    github.delayMs = 200;
    try {
      expect(await gh.paginate(gh.rest.repos.listForOrg, { org: 'acme', per_page: 1 })).toHaveLength(4);
    } finally {
      github.delayMs = 0;
    }
  });

  it('--dry-run prints targets, recipe, policy, sandbox and hand-off, and runs, clones and writes nothing', async () => {
    const out = path.join(root, 'dry-out');
    const saved = { ...process.env };
    Object.assign(process.env, { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN });
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    let code: number;
    try {
      code = await runCli(['batch', RECIPE, '--org', 'acme', '--dry-run', '--out', out]);
    } finally {
      spy.mockRestore();
      process.env = saved;
    }
    expect(code).toBe(0);
    const text = printed.join('');
    expect(text).toMatch(/^recipe +.*greet-pr\.yaml \(greet-pr\): scripted/m);
    expect(text).toMatch(/^policy +allowlist; allow: edit: README\.md; deny: none$/m);
    expect(text).toMatch(/^sandbox +auto; network: none$/m);
    expect(text).toMatch(/^hand-off +branch unattended\/greet, pushed; pull request "Friendlier greeting \(\{\{ run\.files_changed \}\} file\)" into the repository's default branch, labels fleet; token from GITHUB_TOKEN$/m);
    expect(text).toMatch(/^targets +2 from --org acme$/m);
    expect(text).toContain(clone('acme/gears'));
    expect(fs.existsSync(out)).toBe(false);
    expect(github.pulls).toHaveLength(0);
  });
});

describe('batch with git.pull_request and no GitHub token', () => {
  it('is refused once, exit 41, before any target runs or is cloned (--dry-run too)', async () => {
    const out = path.join(root, 'no-token-out');
    const targets = path.join(root, 'no-token-targets.txt');
    fs.writeFileSync(targets, `${clone('acme/widgets')}\n`);
    for (const extra of [['--dry-run'], []]) {
      const r = await cliInProcess(['batch', RECIPE, '--targets', targets, '--out', out, ...extra], { env: { ...env, GITHUB_TOKEN: '', GH_TOKEN: '' }, launchRun: inProcessLauncher });
      expect(r.code).toBe(41);
      expect(r.stderr.match(/no GitHub token: set GITHUB_TOKEN or GH_TOKEN/g)).toHaveLength(1);
      expect(r.stderr).toContain('git.pull_request');
    }
    expect(fs.existsSync(out)).toBe(false);
    expect(github.pulls).toHaveLength(0);
  });
});

describe('batch with git.pull_request', () => {
  let first: Awaited<ReturnType<typeof cli>>;
  let out: string;
  beforeAll(async () => {
    out = path.join(root, 'batch-out');
    first = await cli(['batch', RECIPE, '--org', 'acme', '--out', out], { env, timeoutMs: 120_000 });
  }, 150_000);

  it('opens one pull request per target, after the push; its URL is in report.json, the batch row and batch-report.md', async () => {
    expect(first.stderr).toMatch(/2\/2 succeeded/);
    expect(first.code).toBe(0);
    const batch = readBatchReport(out);
    expect(batch.targets_file).toBe('--org acme');
    for (const row of batch.rows) {
      const name = row.target.match(/acme\/(\w+)\.git$/)![1]!;
      const pr = github.pulls.find((p) => p.repo === `acme/${name}`)!;
      expect(pr).toMatchObject({ title: 'Friendlier greeting (1 file)', head: 'unattended/greet', base: 'main', labels: ['fleet'], state: 'open' });
      expect(pr.body).toMatch(/^Made the greeting friendlier\.\n\nCost: (\$[\d.]+|unknown) · run `\d{8}/);
      const url = `https://github.example/acme/${name}/pull/${pr.number}`;
      expect(row.pull_request).toMatchObject({ url, number: pr.number, repository: `acme/${name}`, action: 'created', error: null });
      const report = JSON.parse(fs.readFileSync(path.join(out, row.report!), 'utf8'));
      expect(report.git.pull_request).toMatchObject({ url, action: 'created' });
      expect(fs.readFileSync(path.join(path.dirname(path.join(out, row.report!)), 'report.md'), 'utf8')).toContain(`[acme/${name}#${pr.number}](${url}) created`);
      expect(fs.readFileSync(path.join(out, 'batch-report.md'), 'utf8')).toContain(`[#${pr.number}](${url})`);
      expect(await gitIn(path.join(root, 'remotes', 'acme', `${name}.git`), 'show', 'unattended/greet:README.md')).toBe(`hello, friend from ${name}`);
    }
  });

  it('batch status: open, merged or closed, and the checks of each head commit', async () => {
    const [gears, widgets] = ['gears', 'widgets'].map((n) => github.pulls.find((p) => p.repo === `acme/${n}`)!);
    gears!.head_sha = 'a'.repeat(40);
    github.statuses.set(gears!.head_sha, [{ context: 'ci/lint', state: 'success' }]);
    github.checkRuns.set(gears!.head_sha, [
      { name: 'test', status: 'completed', conclusion: 'failure' },
      { name: 'build', status: 'in_progress', conclusion: null },
    ]);
    Object.assign(widgets!, { state: 'closed', merged: true });
    const statuses = await pullRequestStatuses(readBatchReport(out), env);
    const byRepo = Object.fromEntries(statuses.map((s) => [s.repository, s]));
    expect(byRepo['acme/gears']).toMatchObject({ state: 'open', checks: 'failure', counts: { passed: 1, failed: 1, pending: 1 }, error: null });
    expect(byRepo['acme/widgets']).toMatchObject({ state: 'merged', checks: 'none', error: null });
    const table = renderStatusTable(statuses);
    expect(table).toMatch(/acme\/gears\/pull\/\d+ +open +failure \(1 passed, 1 failed, 1 pending\)/);
    expect(table).toContain('2 targets: 1 open, 1 merged, 0 closed, 0 without a pull request');

    // A least-privilege token that may read pull requests but not checks: the state is still known.
    github.failures.set(`GET /repos/acme/gears/commits/${gears!.head_sha}/check-runs`, { status: 403, message: 'Resource not accessible by integration' });
    try {
      const partial = Object.fromEntries((await pullRequestStatuses(readBatchReport(out), env)).map((s) => [s.repository, s]));
      expect(partial['acme/gears']).toMatchObject({ state: 'open', checks: 'unknown', error: expect.stringMatching(/reading the checks of acme\/gears@a{12} \(the token needs checks and statuses read access\): GitHub answered 403/) });
      expect(partial['acme/widgets']).toMatchObject({ state: 'merged', error: null });
    } finally {
      github.failures.clear();
    }
    Object.assign(widgets!, { state: 'open', merged: false });
  });

  it('a second batch replaces the branches and updates the same pull requests: no duplicate', async () => {
    const numbers = github.pulls.map((p) => p.number);
    const second = await cliInProcess(['batch', RECIPE, '--org', 'acme', '--out', path.join(root, 'batch-again')], { env, launchRun: inProcessLauncher });
    expect(second.code).toBe(0);
    expect(github.pulls.map((p) => p.number)).toEqual(numbers);
    const rows = readBatchReport(path.join(root, 'batch-again')).rows;
    expect(rows.map((r) => r.pull_request?.action)).toEqual(['updated', 'updated']);
    expect(rows.map((r) => r.pull_request?.number).sort()).toEqual([...numbers].sort());
  }, 150_000);
});
