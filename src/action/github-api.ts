// The few GitHub REST calls the action makes (a collaborator's permission, a comment, a reply to a
// review comment), with Node's fetch. Not @octokit/rest: three endpoints need a URL, two headers
// and an error message that says which permission the token lacks, and the action stays free of a
// client whose retry and pagination it would not use. GITHUB_API_URL is honoured, for GitHub
// Enterprise Server and for the fake server the tests start on 127.0.0.1.

export interface GitHubApi {
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown>;
}

export class GitHubApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;

export function gitHubApi(env: NodeJS.ProcessEnv, token: string): GitHubApi {
  const base = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  return {
    async request(method, path, body) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
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
        throw new GitHubApiError(`${method} ${base}${path}: ${cause}`, 0);
      }
      const text = await response.text();
      if (!response.ok) {
        let detail = text.slice(0, 300);
        try {
          detail = (JSON.parse(text) as { message?: string }).message ?? detail;
        } catch {
          // not JSON: the text itself
        }
        throw new GitHubApiError(`${method} ${path}: HTTP ${response.status}: ${detail}`, response.status);
      }
      return text ? (JSON.parse(text) as unknown) : null;
    },
  };
}
