// A fake GitHub REST API on 127.0.0.1 (node:http) with the endpoints the hand-off and the fleet
// commands use, answering in GitHub's shapes (pagination by Link header, 401/403/404/422 bodies
// with `message` and `errors`), so @octokit/rest talks to it exactly as to api.github.com.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRepo {
  owner: string;
  name: string;
  default_branch?: string;
  topics?: string[];
  archived?: boolean;
  fork?: boolean;
  /** What the API says to clone: tests point it at a bare repository through git's insteadOf. */
  clone_url?: string;
  /** Owned by a user account, not an organisation: listed under /users/OWNER/repos (public ones only) and, for the token's own login, /user/repos. */
  user?: boolean;
  private?: boolean;
}

export interface FakePull {
  number: number;
  repo: string;
  title: string;
  body: string | null;
  head: string;
  head_sha: string;
  base: string;
  draft: boolean;
  state: 'open' | 'closed';
  merged: boolean;
  labels: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

export interface FakeGitHub {
  url: string;
  requests: RecordedRequest[];
  pulls: FakePull[];
  repos: FakeRepo[];
  /** Combined-status states and check runs by commit sha. */
  statuses: Map<string, Array<{ context: string; state: 'success' | 'failure' | 'pending' | 'error' }>>;
  checkRuns: Map<string, Array<{ name: string; status: 'queued' | 'in_progress' | 'completed'; conclusion: string | null }>>;
  /** `METHOD /path` -> a refusal, e.g. 'POST /repos/acme/widgets/pulls' -> 403; `times`: only the next N such requests. */
  failures: Map<string, { status: number; message: string; errors?: unknown[]; headers?: Record<string, string>; times?: number }>;
  /** Milliseconds every answer waits (a slow API, a big organisation's listing). */
  delayMs: number;
  /** Searches answer `incomplete_results: true`, as GitHub's do when a search runs out of time. */
  searchIncomplete: boolean;
  close(): Promise<void>;
}

/** `login`: the account the token belongs to (GET /user). */
export async function startFakeGitHub(options: { token: string; repos?: FakeRepo[]; pageSize?: number; login?: string }): Promise<FakeGitHub> {
  const state: Omit<FakeGitHub, 'url' | 'close'> = {
    requests: [],
    pulls: [],
    repos: options.repos ?? [],
    statuses: new Map(),
    checkRuns: new Map(),
    failures: new Map(),
    delayMs: 0,
    searchIncomplete: false,
  };
  const pageSize = options.pageSize ?? 30;
  let base = '';
  /** The web host of the repositories the request at hand is about (set before each synchronous route). */
  let web = 'https://github.example';
  const apiPath = (pathname: string) => pathname.replace(/^\/api\/v3(?=\/|$)/, '') || '/';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : null;
      const query = Object.fromEntries(url.searchParams);
      state.requests.push({ method: req.method ?? '', path: url.pathname, query, body, authorization: req.headers.authorization });
      const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(JSON.stringify(data));
        };
        if (state.delayMs > 0) setTimeout(answer, state.delayMs);
        else answer();
      };
      const auth = req.headers.authorization ?? '';
      if (auth !== `token ${options.token}` && auth !== `Bearer ${options.token}`) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      // Answering under /api/v3 it is the Enterprise API of the host 127.0.0.1:PORT (a remote
      // http://127.0.0.1:PORT/OWNER/NAME); at its root, the API of github.example, as GITHUB_API_URL.
      const enterprise = /^\/api\/v3(?=\/|$)/.test(url.pathname);
      web = enterprise ? base : 'https://github.example';
      const key = `${req.method} ${apiPath(url.pathname)}`;
      const failure = state.failures.get(key);
      if (failure) {
        if (failure.times !== undefined && --failure.times <= 0) state.failures.delete(key);
        return send(failure.status, { message: failure.message, ...(failure.errors ? { errors: failure.errors } : {}) }, failure.headers);
      }
      route(req.method ?? 'GET', url, query, body, send);
    });
  });

  const repoJson = (r: FakeRepo) => ({
    id: hash(`${r.owner}/${r.name}`),
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    owner: { login: r.owner },
    private: r.private ?? false,
    archived: r.archived ?? false,
    disabled: false,
    fork: r.fork ?? false,
    topics: r.topics ?? [],
    default_branch: r.default_branch ?? 'main',
    html_url: `${web}/${r.owner}/${r.name}`,
    clone_url: r.clone_url ?? `https://github.example/${r.owner}/${r.name}.git`,
    ssh_url: `git@github.example:${r.owner}/${r.name}.git`,
  });
  const pullJson = (p: FakePull) => ({
    number: p.number,
    state: p.state,
    merged: p.merged,
    merged_at: p.merged ? '2026-01-01T00:00:00Z' : null,
    draft: p.draft,
    title: p.title,
    body: p.body,
    html_url: `${web}/${p.repo}/pull/${p.number}`,
    url: `${web === base ? `${base}/api/v3` : base}/repos/${p.repo}/pulls/${p.number}`,
    head: { ref: p.head, sha: p.head_sha, label: `${p.repo.split('/')[0]}:${p.head}`, repo: { full_name: p.repo } },
    base: { ref: p.base, repo: { full_name: p.repo } },
    labels: p.labels.map((name) => ({ name })),
  });
  const findRepo = (owner: string, name: string) => state.repos.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase());

  function route(method: string, url: URL, query: Record<string, string>, body: unknown, send: (status: number, data: unknown, headers?: Record<string, string>) => void) {
    const parts = apiPath(url.pathname).split('/').filter(Boolean).map(decodeURIComponent);
    const notFound = () => send(404, { message: 'Not Found' });
    const page = <T>(items: T[], wrap?: (slice: T[]) => unknown) => {
      const per = Math.min(Number(query.per_page ?? pageSize), pageSize);
      const n = Number(query.page ?? 1);
      const slice = items.slice((n - 1) * per, n * per);
      const headers: Record<string, string> = {};
      if (n * per < items.length) {
        const next = new URL(url);
        next.searchParams.set('page', String(n + 1));
        next.searchParams.set('per_page', String(per));
        headers.link = `<${next}>; rel="next"`;
      }
      send(200, wrap ? wrap(slice) : slice, headers);
    };

    if (method === 'GET' && parts[0] === 'user' && parts.length === 1) return send(200, { login: options.login ?? 'octo-tester' });
    // As GitHub: another account's listing has its public repositories only; the token's own account has all it owns.
    if (method === 'GET' && parts[0] === 'users' && parts[2] === 'repos' && parts.length === 3) {
      const owned = state.repos.filter((r) => r.user && r.owner.toLowerCase() === parts[1]!.toLowerCase());
      // No such user: GitHub's 404.
      if (!owned.length && parts[1]!.toLowerCase() !== (options.login ?? 'octo-tester').toLowerCase()) return notFound();
      return page(owned.filter((r) => !r.private).map(repoJson));
    }
    if (method === 'GET' && parts[0] === 'user' && parts[1] === 'repos' && parts.length === 2) {
      return page(state.repos.filter((r) => r.user && r.owner.toLowerCase() === (options.login ?? 'octo-tester').toLowerCase()).map(repoJson));
    }
    if (method === 'GET' && parts[0] === 'orgs' && parts[2] === 'repos' && parts.length === 3) {
      const repos = state.repos.filter((r) => !r.user && r.owner.toLowerCase() === parts[1]!.toLowerCase());
      if (!repos.length) return notFound();
      return page(repos.map(repoJson));
    }
    if (method === 'GET' && parts[0] === 'search' && parts[1] === 'repositories') {
      const terms = (query.q ?? '').split(/\s+/).filter(Boolean);
      const hits = state.repos.filter((r) =>
        terms.every((t) => {
          const [key, value] = t.includes(':') ? [t.slice(0, t.indexOf(':')), t.slice(t.indexOf(':') + 1).toLowerCase()] : ['', t.toLowerCase()];
          if (key === 'topic') return (r.topics ?? []).includes(value);
          if (key === 'org' || key === 'user') return r.owner.toLowerCase() === value;
          if (key === 'archived') return String(r.archived ?? false) === value;
          if (key === 'fork') return value === 'true' || !(r.fork ?? false);
          return `${r.owner}/${r.name}`.toLowerCase().includes(value);
        }),
      );
      return page(hits.map(repoJson), (items) => ({ total_count: hits.length, incomplete_results: state.searchIncomplete, items }));
    }
    if (parts[0] !== 'repos' || parts.length < 3) return notFound();
    const repo = findRepo(parts[1]!, parts[2]!);
    if (!repo) return notFound();
    const full = `${repo.owner}/${repo.name}`;
    const rest = parts.slice(3);

    if (method === 'GET' && rest.length === 0) return send(200, repoJson(repo));
    if (rest[0] === 'pulls' && rest.length === 1 && method === 'GET') {
      const head = query.head;
      const list = state.pulls.filter((p) => p.repo === full && (query.state === 'all' || p.state === (query.state ?? 'open')) && (!head || `${repo.owner}:${p.head}` === head));
      return page(list.map(pullJson));
    }
    if (rest[0] === 'pulls' && rest.length === 1 && method === 'POST') {
      const b = body as { title?: string; body?: string; head?: string; base?: string; draft?: boolean };
      if (!b.title || !b.head || !b.base) return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'missing_field', field: 'title' }] });
      // GitHub's own limits on a pull request's text.
      if (b.title.length > 256) return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', field: 'title', message: 'title is too long (maximum is 256 characters)' }] });
      if ((b.body ?? '').length > 65_536) return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] });
      if (state.pulls.some((p) => p.repo === full && p.head === b.head && p.state === 'open')) {
        return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repo.owner}:${b.head}.` }] });
      }
      const pull: FakePull = { number: state.pulls.length + 1, repo: full, title: b.title, body: b.body ?? null, head: b.head, head_sha: 'f'.repeat(40), base: b.base, draft: b.draft ?? false, state: 'open', merged: false, labels: [] };
      state.pulls.push(pull);
      return send(201, pullJson(pull));
    }
    const pull = rest[0] === 'pulls' || rest[0] === 'issues' ? state.pulls.find((p) => p.repo === full && p.number === Number(rest[1])) : undefined;
    if (rest[0] === 'pulls' && rest.length === 2) {
      if (!pull) return notFound();
      if (method === 'GET') return send(200, pullJson(pull));
      if (method === 'PATCH') {
        const b = body as { title?: string; body?: string; base?: string; state?: 'open' | 'closed' };
        Object.assign(pull, { ...(b.title !== undefined ? { title: b.title } : {}), ...(b.body !== undefined ? { body: b.body } : {}), ...(b.base ? { base: b.base } : {}), ...(b.state ? { state: b.state } : {}) });
        return send(200, pullJson(pull));
      }
    }
    if (rest[0] === 'issues' && rest[2] === 'labels' && method === 'POST') {
      if (!pull) return notFound();
      const labels = (body as { labels?: string[] }).labels ?? [];
      for (const l of labels) if (!pull.labels.includes(l)) pull.labels.push(l);
      return send(200, pull.labels.map((name) => ({ name })));
    }
    if (rest[0] === 'commits' && rest[2] === 'status' && method === 'GET') {
      const statuses = state.statuses.get(rest[1]!) ?? [];
      const combined = statuses.length === 0 ? 'pending' : statuses.some((s) => s.state === 'failure' || s.state === 'error') ? 'failure' : statuses.some((s) => s.state === 'pending') ? 'pending' : 'success';
      // Paged as GitHub pages it (30 unless per_page asks for up to 100); total_count counts them all.
      return page(statuses, (slice) => ({ state: combined, sha: rest[1], total_count: statuses.length, statuses: slice }));
    }
    if (rest[0] === 'commits' && rest[2] === 'check-runs' && method === 'GET') {
      const runs = state.checkRuns.get(rest[1]!) ?? [];
      return page(runs, (check_runs) => ({ total_count: runs.length, check_runs }));
    }
    return notFound();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    ...state,
    // A setter: `...state` copies the number, and a test slows the server after it started.
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    get searchIncomplete() {
      return state.searchIncomplete;
    },
    set searchIncomplete(on: boolean) {
      state.searchIncomplete = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

/** The host the tests' remotes name; github-repo.ts reads owner and name from such URLs. */
export const FAKE_GITHUB_HOST = 'https://github.example/';

/**
 * A git environment in which `https://github.example/OWNER/NAME.git` is the bare repository
 * `remotes/OWNER/NAME.git` (through insteadOf), with the token and API URL of this fake GitHub.
 */
export function fakeGitHubEnv(gitEnv: Record<string, string>, remotes: string, github: FakeGitHub, token: string): Record<string, string> {
  return {
    ...gitEnv,
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `url.${remotes}/.insteadOf`,
    GIT_CONFIG_VALUE_0: FAKE_GITHUB_HOST,
    GITHUB_TOKEN: token,
    GITHUB_API_URL: github.url,
  };
}
