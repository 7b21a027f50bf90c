// Which GitHub repository a git remote is, and which REST API serves it: the pull request of a
// hand-off goes to the repository the branch was pushed to, never to one named elsewhere.
export interface GitHubRepo {
  host: string;
  owner: string;
  name: string;
  /** An https or http remote's scheme, host and port: where its Enterprise API is (`/api/v3`). */
  webOrigin?: string;
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
  let webOrigin: string | undefined;
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
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') webOrigin = `${parsed.protocol}//${parsed.host.toLowerCase()}`;
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
  return { host: host.toLowerCase(), owner, name, ...(webOrigin ? { webOrigin } : {}) };
}

/**
 * The REST API for a repository's host. GITHUB_API_URL is the API of one server, the one
 * GITHUB_SERVER_URL names (Actions sets both, on github.com and on Enterprise Server alike): a
 * github.com repository on an Enterprise runner, or the reverse, must not be asked of the runner's
 * API (it answers 404 or 401). Without GITHUB_SERVER_URL, GITHUB_API_URL serves the host its own
 * URL names (`api.github.com`, `api.SUBDOMAIN.ghe.com`, `https://HOST/api/v3`), and one of none of
 * those shapes (a proxy, a mirror) every repository. Otherwise: api.github.com for github.com,
 * `api.SUBDOMAIN.ghe.com` for Enterprise Cloud with data residency, and `/api/v3` on the host for an
 * Enterprise Server (`webOrigin`, an https or http remote's scheme, host and port, when known).
 * `host` null (no repository yet: a listing): GITHUB_API_URL, else api.github.com.
 */
export function githubApiUrl(host: string | null, env: NodeJS.ProcessEnv, webOrigin?: string): string {
  const fromEnv = env.GITHUB_API_URL?.trim().replace(/\/+$/, '');
  if (!host) return fromEnv || 'https://api.github.com';
  const site = siteOf(host);
  if (fromEnv) {
    const named = env.GITHUB_SERVER_URL?.trim();
    const served = named ? hostOfUrl(named) : apiServes(fromEnv);
    // Without GITHUB_SERVER_URL, a URL of no GitHub shape names no host: it is set for every one.
    const forEveryHost = !named && served === null;
    if (forEveryHost || (served !== null && siteOf(served) === site)) return fromEnv;
  }
  if (site === 'github.com') return 'https://api.github.com';
  if (site.endsWith('.ghe.com')) return `https://api.${site}`;
  return `${webOrigin?.replace(/\/+$/, '') || `https://${host}`}/api/v3`;
}

/**
 * The host whose repositories an API URL serves when its shape says so (api.github.com,
 * api.SUBDOMAIN.ghe.com, https://HOST/api/v3); null for any other URL.
 */
export function apiServes(apiUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  if (host === 'api.github.com') return 'github.com';
  if (/^api\.[^.]+\.ghe\.com$/.test(host)) return host.slice('api.'.length);
  return /\/api\/v3\/*$/.test(url.pathname) ? host : null;
}

/** github.com answers as www.github.com too. */
function siteOf(host: string): string {
  const lower = host.toLowerCase();
  return lower === 'www.github.com' ? 'github.com' : lower;
}

function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** GITHUB_TOKEN, else GH_TOKEN (the names Actions and the gh CLI use); null when neither is set. */
export function githubToken(env: NodeJS.ProcessEnv): string | null {
  return env.GITHUB_TOKEN?.trim() || env.GH_TOKEN?.trim() || null;
}

export const NO_TOKEN = 'no GitHub token: set GITHUB_TOKEN or GH_TOKEN (a token that may write pull requests and issues of the repository)';
