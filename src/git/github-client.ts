// The GitHub REST client of hand-offs and fleet commands: @octokit/rest, loaded on first use (a
// run without a pull request never loads it), with one way of saying what went wrong.
import type { Octokit } from '@octokit/rest';

export type GitHub = Octokit;

const REQUEST_TIMEOUT_MS = 30_000;

/** `token` null: unauthenticated (public data only, a low rate limit). */
export async function githubClient(apiUrl: string, token: string | null, signal?: AbortSignal): Promise<GitHub> {
  const { Octokit } = await import('@octokit/rest');
  return new Octokit({
    ...(token ? { auth: token } : {}),
    baseUrl: apiUrl,
    userAgent: 'unattended',
    // Octokit prints deprecation notes with console.warn: not on a run's terminal.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    request: { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) : AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
  });
}

interface ErrorLike {
  status?: number;
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
    status === 401
      ? 'the token was refused: check GITHUB_TOKEN or GH_TOKEN'
      : (status === 403 || status === 429) && String(headers['x-ratelimit-remaining']) === '0'
        ? 'the API rate limit is spent: wait for its reset or use another token'
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
