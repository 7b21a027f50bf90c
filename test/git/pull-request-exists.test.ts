// A re-run whose pull request is already open, when GitHub's `head` filter does not return it:
// origin's URL spells the owner in another case than GitHub's (`git clone https://github.com/ACME/…`
// of the organisation `acme`; the filter is exact), so the lookup found none, the create was
// refused with 422 'A pull request already exists', and every re-run ended handoff_failed, exit 58.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openOrUpdatePullRequest } from '../../src/git/pull-request.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';

const TOKEN = 'ghp_fake_token_for_tests_111111111111';
let github: FakeGitHub;
beforeAll(async () => {
  // More open pull requests than one page holds: the one sought is on the last.
  github = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'acme', name: 'widgets' }], pageSize: 3 });
});
afterAll(() => github.close());

const facts = { summary: 'Renamed hello to hi.', cost_usd: '$0.01', turns: '2', tool_calls: '1', files_changed: '1', run_id: 'run-2', recipe: 'rename', model: 'm', commit: 'c0ffee' };
const config = { title: 'Rename ({{ run.run_id }})', body: '{{ run.summary }}', draft: false, labels: [], base: null };
const open = (number: number, head: string, repo = 'acme/widgets') => ({ number, repo, title: 'old', body: null, head, head_sha: 'e'.repeat(40), base: 'main', draft: false, state: 'open' as const, merged: false, labels: [] });

it('is found among the open pull requests and updated, not refused', async () => {
  github.pulls.push(open(1, 'feature/a'), open(2, 'feature/b'), open(3, 'feature/c'), open(4, 'feature/d'), open(5, 'unattended/rename'));
  const report = await openOrUpdatePullRequest({ config, branch: 'unattended/rename', remoteUrl: 'https://github.example/ACME/widgets.git', facts, env: { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url } });
  expect(report).toMatchObject({ action: 'updated', number: 5, error: null, repository: 'ACME/widgets' });
  expect(github.pulls.find((p) => p.number === 5)).toMatchObject({ title: 'Rename (run-2)', body: 'Renamed hello to hi.' });
  expect(github.pulls).toHaveLength(5);
});

it('a closed pull request from that branch is left closed: the refusal stands, said as GitHub said it', async () => {
  github.failures.set('POST /repos/ACME/widgets/pulls', { status: 422, message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: 'A pull request already exists for ACME:unattended/other.' }], times: 1 });
  github.pulls.push({ ...open(github.pulls.length + 1, 'unattended/other'), state: 'closed' });
  const report = await openOrUpdatePullRequest({ config, branch: 'unattended/other', remoteUrl: 'https://github.example/ACME/widgets.git', facts, env: { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url } });
  expect(report.action).toBeNull();
  expect(report.error).toContain('GitHub answered 422 (Validation Failed; A pull request already exists for ACME:unattended/other.)');
  expect(github.pulls.at(-1)).toMatchObject({ state: 'closed', title: 'old' });
});
