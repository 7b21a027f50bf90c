// The few GitHub REST calls the action makes (a collaborator's permission, a comment, a reply to a
// review comment), with Node's fetch. Not @octokit/rest: three endpoints need a URL, two headers
// and an error message that says which permission the token lacks, and the action stays free of a
// client whose retry and pagination it would not use. GITHUB_API_URL is honoured, for GitHub
// Enterprise Server and for the fake server the tests start on 127.0.0.1. Through the proxy
// HTTPS_PROXY / HTTP_PROXY name, as a self-hosted runner behind one needs (proxied-fetch.ts).
import { proxiedFetch } from '../providers/proxied-fetch.js';
import { ProviderError } from '../types/provider-error.js';

export interface GitHubApi {
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown>;
}

export class GitHubApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** GitHub's Retry-After, or the seconds until a spent rate limit resets, when it said either. */
    readonly retryAfterS: number | null = null,
    /** Asking again gets the same answer (a proxy that wants credentials or refuses GitHub). */
    readonly final = false,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;
/** A 502 or a dropped connection is no answer to "may this person run?": tried this often in all. */
const ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 60_000;

export function gitHubApi(env: NodeJS.ProcessEnv, token: string, backoffMs: readonly number[] = [1_000, 4_000]): GitHubApi {
  const base = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const once = requestOnce(base, token);
  return {
    async request(method, path, body) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(method, path, body);
        } catch (error) {
          const wait = attempt < ATTEMPTS && error instanceof GitHubApiError ? retryWait(method, error, backoffMs[attempt - 1] ?? 0) : null;
          if (wait === null) throw error;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    },
  };
}

/**
 * Only what passes: rate limits that lift within a minute (the request was not served), and for a
 * read, no answer or GitHub's 5xx. A comment is not posted again after those: it may have been
 * posted, and two answers are worse than a failed step that says so.
 */
function retryWait(method: string, error: GitHubApiError, backoffMs: number): number | null {
  if (error.final) return null;
  if ((error.status === 403 || error.status === 429) && error.retryAfterS !== null) return error.retryAfterS * 1000 <= MAX_RETRY_WAIT_MS ? error.retryAfterS * 1000 : null;
  if (error.status === 429) return backoffMs;
  if (method === 'GET' && (error.status === 0 || error.status >= 500)) return backoffMs;
  return null;
}

function requestOnce(base: string, token: string) {
  return async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    let response: Response;
    try {
      response = await proxiedFetch(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'unattended-action',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      // The proxy's 407 or 403 (util/proxy.ts) is no outage of GitHub's: tried again, it says the same.
      throw new GitHubApiError(`${method} ${base}${path}: ${cause}`, 0, null, error instanceof ProviderError && error.kind === 'auth');
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try {
        detail = (JSON.parse(text) as { message?: string }).message ?? detail;
      } catch {
        // not JSON: the text itself
      }
      throw new GitHubApiError(`${method} ${path}: HTTP ${response.status}: ${detail}`, response.status, retryAfterSeconds(response.headers));
    }
    return text ? (JSON.parse(text) as unknown) : null;
  };
}

/**
 * When GitHub says asking again may be served: its Retry-After (a secondary rate limit), else the
 * reset of a spent rate limit (x-ratelimit-remaining 0, x-ratelimit-reset in epoch seconds), as
 * the hand-off's client reads them (git/github-client.ts). A gate that met a limit lifting in 20 s
 * refused the run it was asked about.
 */
function retryAfterSeconds(headers: Headers): number | null {
  const retryAfter = Number(headers.get('retry-after') ?? Number.NaN);
  if (Number.isFinite(retryAfter)) return retryAfter;
  if (headers.get('x-ratelimit-remaining') !== '0') return null;
  const reset = Number(headers.get('x-ratelimit-reset') ?? Number.NaN);
  // A second past the reset: GitHub's clock and ours may differ by that much.
  return Number.isFinite(reset) ? Math.max(Math.ceil(reset - Date.now() / 1000), 0) + 1 : null;
}
