// `batch status DIR`: where each target's pull request stands now — open, merged or closed, and
// its checks (commit statuses and check runs of its head commit) — asked of the API that opened it.
import { describeGitHubError, githubClient, type GitHub } from '../git/github-client.js';
import { apiServes, githubApiUrl, githubToken } from '../git/github-repo.js';
import type { BatchReport } from './batch-report.js';
import { shownTarget } from './targets.js';

/** `unknown`: GitHub would not say (see error). */
export type ChecksState = 'success' | 'failure' | 'pending' | 'none' | 'unknown';

export interface PullRequestStatus {
  target: string;
  /** The row's run status (success, handoff_failed, …): why a target may have no pull request. */
  run_status: string;
  url: string | null;
  number: number | null;
  repository: string | null;
  /** `none`: the run opened none; `unknown`: GitHub could not be asked (see error). */
  state: 'open' | 'merged' | 'closed' | 'none' | 'unknown';
  draft: boolean;
  checks: ChecksState | null;
  /** How many checks (statuses and check runs) passed, failed and are still running. */
  counts: { passed: number; failed: number; pending: number } | null;
  error: string | null;
}

const FAILED = new Set(['failure', 'error', 'cancelled', 'timed_out', 'action_required', 'startup_failure', 'stale']);
const AT_ONCE = 8;

export async function pullRequestStatuses(report: BatchReport, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<PullRequestStatus[]> {
  const clients = new Map<string, Promise<GitHub>>();
  const clientFor = (apiUrl: string) => {
    if (!clients.has(apiUrl)) clients.set(apiUrl, githubClient(apiUrl, githubToken(env), signal));
    return clients.get(apiUrl)!;
  };
  const one = async (row: BatchReport['rows'][number]): Promise<PullRequestStatus> => {
    const pr = row.pull_request ?? null;
    const base: PullRequestStatus = { target: row.target, run_status: row.status, url: pr?.url ?? null, number: pr?.number ?? null, repository: pr?.repository ?? null, state: 'none', draft: false, checks: null, counts: null, error: pr?.error ?? null };
    if (!pr?.number || !pr.repository) return base;
    const [owner, repo] = pr.repository.split('/') as [string, string];
    const apiUrl = statusApiUrl(pr, env);
    let pull;
    try {
      const gh = await clientFor(apiUrl);
      const { data } = await gh.rest.pulls.get({ owner, repo, pull_number: pr.number });
      pull = { gh, data, state: data.merged ? ('merged' as const) : data.state === 'open' ? ('open' as const) : ('closed' as const) };
    } catch (error) {
      return { ...base, state: 'unknown', error: describeGitHubError(error, `reading pull request ${pr.repository}#${pr.number}`, apiUrl) };
    }
    const { gh, data, state } = pull;
    const known = { ...base, url: data.html_url, state, draft: data.draft ?? false, error: null };
    // The pull request's state stands on its own: a token that may read pull requests but not
    // checks or statuses (least-privilege permissions) still learns it.
    try {
      const [statuses, runs] = await Promise.all([
        allStatuses(gh, owner, repo, data.head.sha),
        gh.paginate(gh.rest.checks.listForRef, { owner, repo, ref: data.head.sha, per_page: 100 }),
      ]);
      const counts = { passed: 0, failed: 0, pending: 0 };
      for (const s of statuses) counts[s.state === 'success' ? 'passed' : s.state === 'pending' ? 'pending' : 'failed']++;
      for (const r of runs) {
        if (r.status !== 'completed') counts.pending++;
        else if (FAILED.has(r.conclusion ?? '')) counts.failed++;
        else counts.passed++;
      }
      const checks: ChecksState = counts.failed ? 'failure' : counts.pending ? 'pending' : counts.passed ? 'success' : 'none';
      return { ...known, checks, counts };
    } catch (error) {
      const doing = `reading the checks of ${pr.repository}@${data.head.sha.slice(0, 12)} (the token needs checks and statuses read access)`;
      return { ...known, checks: 'unknown', error: describeGitHubError(error, doing, apiUrl) };
    }
  };
  const out: PullRequestStatus[] = [];
  for (let i = 0; i < report.rows.length; i += AT_ONCE) out.push(...(await Promise.all(report.rows.slice(i, i + AT_ONCE).map(one))));
  return out;
}

/** Pages of the combined status asked for at most (100 statuses each): a thousand contexts. */
const MAX_STATUS_PAGES = 10;

/**
 * Every commit status of `ref`. GitHub gives the combined status a page at a time (30 statuses
 * unless asked, 100 at most), saying how many there are in total_count: the first page alone
 * left out the 31st context on, and a failed one there read as checks passed.
 */
async function allStatuses(gh: GitHub, owner: string, repo: string, ref: string): Promise<Array<{ state: string }>> {
  const statuses: Array<{ state: string }> = [];
  for (let page = 1; page <= MAX_STATUS_PAGES; page++) {
    const { data } = await gh.rest.repos.getCombinedStatusForRef({ owner, repo, ref, per_page: 100, page });
    statuses.push(...(data.statuses ?? []));
    if (!data.statuses?.length || statuses.length >= data.total_count) break;
  }
  return statuses;
}

/**
 * The API of the pull request's host, resolved as the hand-off resolves it: this environment's
 * GITHUB_API_URL only where it serves that host (an Enterprise runner's API is not github.com's),
 * else the API the hand-off used, unless that one is recognisably another host's (a report written
 * when GITHUB_API_URL always won), else the host's own.
 */
function statusApiUrl(pr: NonNullable<BatchReport['rows'][number]['pull_request']>, env: NodeJS.ProcessEnv): string {
  let web: URL | null = null;
  try {
    web = pr.url ? new URL(pr.url) : null;
  } catch {
    web = null;
  }
  if (!web?.hostname) return pr.api_url ?? githubApiUrl(null, env);
  const host = web.hostname.toLowerCase();
  const webOrigin = web.protocol === 'https:' || web.protocol === 'http:' ? web.origin : undefined;
  const own = githubApiUrl(host, { ...env, GITHUB_API_URL: '' }, webOrigin);
  const fromEnv = githubApiUrl(host, env, webOrigin);
  if (fromEnv !== own || !pr.api_url) return fromEnv;
  const served = apiServes(pr.api_url);
  return served === null || served === host || (served === 'github.com' && host === 'www.github.com') ? pr.api_url : own;
}

export function renderStatusTable(statuses: readonly PullRequestStatus[]): string {
  const rows = statuses.map((s) => [
    // A clone URL's credentials are not printed: this is a CI log, as the batch's progress is.
    shownTarget(s.target),
    s.url ?? (s.error ? 'none: hand-off failed' : `none (run ${s.run_status})`),
    s.state === 'open' && s.draft ? 'open (draft)' : s.state,
    s.checks === null ? '' : s.counts && s.checks !== 'none' ? `${s.checks} (${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.pending} pending)` : s.checks,
  ]);
  const header = ['target', 'pull request', 'state', 'checks'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const errors = statuses.filter((s) => s.error).map((s) => `${shownTarget(s.target)}: ${s.error}`);
  const count = (state: string) => statuses.filter((s) => s.state === state).length;
  const summary = `${statuses.length} targets: ${count('open')} open, ${count('merged')} merged, ${count('closed')} closed, ${count('none')} without a pull request${count('unknown') ? `, ${count('unknown')} unknown` : ''}`;
  return `${[line(header), ...rows.map(line), '', summary, ...errors].join('\n')}\n`;
}
