// `batch status` of a pull request whose head commit has more commit statuses than GitHub gives
// on one page of its combined status (30 unless asked, 100 at most): every one counts, so a failed
// context past the first page is not read as checks passed (the built CLI, against a fake GitHub
// that pages as GitHub does).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { emptyRow, withSummary, writeBatchReport } from '../../src/batch/batch-report.js';
import { cleanupRepos, tempRoot } from '../git/repos.js';
import { cli } from '../helpers/cli.js';
import { startFakeGitHub } from '../helpers/fake-github.js';

const TOKEN = 'ghp_status_pages_token_for_tests_00000';

afterAll(cleanupRepos);

it('counts the statuses of every page: a failed 33rd context fails the checks', { timeout: 60_000 }, async () => {
  const github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }] });
  try {
    const sha = 'c'.repeat(40);
    github.pulls.push({ number: 7, repo: 'acme/widgets', title: 't', body: null, head: 'unattended/greet', head_sha: sha, base: 'main', draft: false, state: 'open', merged: false, labels: [] });
    const statuses = Array.from({ length: 35 }, (_, i) => ({ context: `ci/job-${i + 1}`, state: i === 32 ? ('failure' as const) : ('success' as const) }));
    github.statuses.set(sha, statuses);
    const dir = tempRoot('unattended-status-pages-');
    const target = { index: 0, spec: 'https://github.com/acme/widgets', slug: 'acme-widgets-000000' };
    const row = { ...emptyRow(target), status: 'success', category: 'success' as const, exit_code: 0, pull_request: { url: 'https://github.com/acme/widgets/pull/7', number: 7, repository: 'acme/widgets', api_url: github.url, action: 'created' as const, error: null } };
    const now = new Date().toISOString();
    writeBatchReport(dir, withSummary({ version: 1, recipe: 'greet-pr', targets_file: 'targets.txt', shard: null, started_at: now, updated_at: now, finished: true, interrupted: null, rows: [row] } as any));
    expect(fs.existsSync(path.join(dir, 'batch-report.json'))).toBe(true);

    const r = await cli(['batch', 'status', dir, '--json'], { env: { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url } });
    expect(r.code, r.stderr).toBe(0);
    const [status] = JSON.parse(r.stdout);
    expect(status).toMatchObject({ state: 'open', checks: 'failure', counts: { passed: 34, failed: 1, pending: 0 }, error: null });
    const asked = github.requests.filter((q) => q.path.endsWith(`/commits/${sha}/status`));
    expect(asked.length).toBe(2);
  } finally {
    await github.close();
  }
});
