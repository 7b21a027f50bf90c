// Which GitHub repository a git remote is, and which REST API serves it: the pull request of a
// hand-off goes to the repository the branch was pushed to, never to one named elsewhere.
export interface GitHubRepo {
  host: string;
  owner: string;
  name: string;
}

/**
 * `owner/name` from a remote URL: https (with or without credentials, `.git`, trailing slash),
 * ssh://, git://, and scp-like `git@host:owner/name.git`, on github.com or an Enterprise host.
 * Null for anything else (a local path, a URL without two path segments).
 */
export function parseGitHubRemote(url: string): GitHubRepo | null {
  const text = url.trim();
  let host: string;
  let pathname: string;
  const scp = /^(?:[^@/\s]+@)?([^/:\s]+):(?!\/)(.+)$/.exec(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return null;
    }
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(parsed.protocol)) return null;
    host = parsed.hostname;
    pathname = decodeURIComponent(parsed.pathname);
  } else if (scp && !/^[a-z]:$/i.test(`${scp[1]}:`)) {
    host = scp[1]!;
    pathname = scp[2]!;
  } else {
    return null;
  }
  const parts = pathname.replace(/\/+$/, '').replace(/\.git$/, '').split('/').filter(Boolean);
  if (parts.length !== 2 || !host) return null;
  const [owner, name] = parts as [string, string];
  if (!/^[A-Za-z0-9_.-]+$/.test(owner) || !/^[A-Za-z0-9_.-]+$/.test(name)) return null;
  return { host: host.toLowerCase(), owner, name };
}

/**
 * The REST API for a host: GITHUB_API_URL when set (Actions sets it, on github.com and on
 * Enterprise Server alike), else api.github.com, `api.SUBDOMAIN.ghe.com` for Enterprise Cloud with
 * data residency, and `https://HOST/api/v3` for an Enterprise Server.
 */
export function githubApiUrl(host: string | null, env: NodeJS.ProcessEnv): string {
  const fromEnv = env.GITHUB_API_URL?.trim();
  if (fromEnv) return fromEnv.replace(/\/+$/, '');
  if (!host || host === 'github.com' || host === 'www.github.com') return 'https://api.github.com';
  if (host.endsWith('.ghe.com')) return `https://api.${host}`;
  return `https://${host}/api/v3`;
}

/** GITHUB_TOKEN, else GH_TOKEN (the names Actions and the gh CLI use); null when neither is set. */
export function githubToken(env: NodeJS.ProcessEnv): string | null {
  return env.GITHUB_TOKEN?.trim() || env.GH_TOKEN?.trim() || null;
}

export const NO_TOKEN = 'no GitHub token: set GITHUB_TOKEN or GH_TOKEN (a token that may write pull requests and issues of the repository)';
