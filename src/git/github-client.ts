// The GitHub REST client of hand-offs and fleet commands: @octokit/rest, loaded on first use (a
// run without a pull request never loads it), with one way of saying what went wrong.
import type { Octokit } from '@octokit/rest';
import { ProviderError } from '../types/provider-error.js';

export type GitHub = Octokit;

/** Each request's own limit (a listing of a big organisation is many requests, and may take minutes). */
const REQUEST_TIMEOUT_MS = 30_000;
/** A request GitHub could not serve now (5xx, a rate limit about to lift, a dropped connection) is tried this often in all. */
const ATTEMPTS = 3;
/** The longest wait before a retry: a rate limit that lifts later than this fails now, and says so. */
const MAX_RETRY_WAIT_MS = 60_000;
const BACKOFF_MS = [1_000, 4_000];

export interface GitHubClientOptions {
  timeoutMs?: number;
  /** The waits between attempts when GitHub names none (Retry-After, a rate limit's reset). */
  backoffMs?: readonly number[];
}

/** `token` null: unauthenticated (public data only, a low rate limit). */
export async function githubClient(apiUrl: string, token: string | null, signal?: AbortSignal, options: GitHubClientOptions = {}): Promise<GitHub> {
  const { Octokit } = await import('@octokit/rest');
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const backoff = options.backoffMs ?? BACKOFF_MS;
  const gh = new Octokit({
    ...(token ? { auth: token } : {}),
    baseUrl: apiUrl,
    userAgent: 'unattended',
    // Octokit's own fetch is the global one, which knows no proxy variable (proxied-fetch.ts).
    request: { fetch: (await import('../providers/proxied-fetch.js')).proxiedFetch },
    // Octokit prints deprecation notes with console.warn: not on a run's terminal.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  // The timeout is each request's, not the client's: one signal made here would count from now and
  // cut off the 20th page of a listing, or the 200th row of `batch status`, at 30 s.
  gh.hook.wrap('request', async (request, requestOptions) => {
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const own = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        return await request({ ...requestOptions, request: { ...requestOptions.request, signal: own } });
      } catch (error) {
        const wait = attempt < ATTEMPTS && !signal?.aborted ? retryWait(error, backoff[attempt - 1] ?? backoff.at(-1) ?? 0) : null;
        if (wait === null) throw error;
        await sleep(wait, signal);
      }
    }
  });
  return gh;
}

/**
 * How long to wait before trying a failed request again, or null when trying again cannot help
 * (a refusal, a validation error, a rate limit that lifts too late). GitHub's 502s and 503s pass
 * in seconds, and a fleet opening pull requests meets its secondary rate limit (403 or 429 with
 * Retry-After).
 */
function retryWait(error: unknown, backoffMs: number): number | null {
  const e = (error ?? {}) as ErrorLike;
  // A proxy that wants credentials or refuses GitHub (util/proxy.ts, which Octokit passes on as a
  // "500" with the refusal as cause) answers the same a second later: fail now, naming the proxy.
  if (!e.response && e.cause instanceof ProviderError && e.cause.kind === 'auth') return null;
  if (!e.response) return e.status === undefined || e.status === 500 ? backoffMs : null;
  const status = e.status ?? 0;
  const headers = e.response.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  if ((status === 403 || status === 429) && headers['retry-after'] !== undefined && Number.isFinite(retryAfter)) {
    return retryAfter * 1000 <= MAX_RETRY_WAIT_MS ? retryAfter * 1000 : null;
  }
  if ((status === 403 || status === 429) && String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']) * 1000 - Date.now();
    return Number.isFinite(reset) && reset <= MAX_RETRY_WAIT_MS ? Math.max(reset, 0) + 1_000 : null;
  }
  if (status === 429 || status >= 500) return backoffMs;
  return null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface ErrorLike {
  status?: number;
  cause?: unknown;
  message?: string;
  response?: { data?: unknown; headers?: Record<string, string | number | undefined> };
}

/** One line for a report: what was attempted, the HTTP status, GitHub's reason, and what to do. */
export function describeGitHubError(error: unknown, doing: string, apiUrl: string): string {
  const e = (error ?? {}) as ErrorLike;
  if (!e.response) return `${doing}: cannot reach the GitHub API at ${apiUrl} (${firstLine(e.message ?? String(error))})`;
  const status = e.status ?? 0;
  const data = (e.response.data ?? {}) as { message?: string; errors?: Array<{ message?: string; code?: string; field?: string } | string> };
  const details = (data.errors ?? []).map((x) => (typeof x === 'string' ? x : (x.message ?? [x.code, x.field].filter(Boolean).join(' ')))).filter(Boolean);
  const said = [data.message, ...details].filter(Boolean).join('; ') || firstLine(e.message ?? '');
  const headers = e.response.headers ?? {};
  const hint =
    // Actions' GITHUB_TOKEN has pull-requests: write and is still refused: a setting, not the token's scope.
    /not permitted to create or approve pull requests/i.test(said)
      ? "the repository (or its organisation) does not let GitHub Actions create pull requests: tick 'Allow GitHub Actions to create and approve pull requests' in Settings > Actions > General > Workflow permissions, or give a GitHub App's or a person's token as GITHUB_TOKEN"
      : /draft pull requests are not supported/i.test(said)
        ? "this repository's plan has no draft pull requests: set the recipe's pull_request.draft to false"
        : status === 401
          ? 'the token was refused: check GITHUB_TOKEN or GH_TOKEN'
      : (status === 403 || status === 429) && String(headers['x-ratelimit-remaining']) === '0'
        ? 'the API rate limit is spent: wait for its reset or use another token'
        : status === 429 || (status === 403 && (headers['retry-after'] !== undefined || /secondary rate limit/i.test(said)))
          ? 'GitHub is rate-limiting these requests (its secondary rate limit: too many at once, or too many pull requests opened in a short time): lower --concurrency, or wait and re-run'
        : status === 403
          ? 'the token may not do this: it needs write access to pull requests and issues (and contents for labels)'
          : status === 404
            ? 'the repository does not exist or the token cannot see it'
            : '';
  return `${doing}: GitHub answered ${status}${said ? ` (${firstLine(said)})` : ''}${hint ? `: ${hint}` : ''}`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
