// A fake of the GitHub REST API on 127.0.0.1, for the action's permission check and comment
// (GITHUB_API_URL=<url>): the endpoints it calls, answering as GitHub does, and every request kept.
//   GET  /repos/{owner}/{repo}/collaborators/{username}/permission  -> {permission, role_name, user}
//        (404 "Not Found" for someone who is no collaborator)
//   POST /repos/{owner}/{repo}/issues/{number}/comments             -> 201 {id, html_url, body}
//   POST /repos/{owner}/{repo}/pulls/{number}/comments/{id}/replies -> 201 {id, html_url, body}
// A request without `authorization: Bearer <token>` gets 401; anything else 404.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

export interface FakeGitHubOptions {
  /** role_name by login (case-insensitive); a login not listed is no collaborator (404). */
  permissions?: Record<string, 'admin' | 'maintain' | 'write' | 'triage' | 'read'>;
  /** Status for POSTs (e.g. 403 "Resource not accessible by integration"), default 201. */
  commentStatus?: number;
  /** The first `count` requests answer `status` (a 502 from a GitHub having a bad minute), with `headers` (a rate limit's). */
  failFirst?: { status: number; count: number; message?: string; headers?: Record<string, string> };
}

export interface FakeGitHub {
  url: string;
  requests: FakeGitHubRequest[];
  comments: Array<{ path: string; body: string }>;
  close(): Promise<void>;
}

const LEGACY = { admin: 'admin', maintain: 'write', write: 'write', triage: 'read', read: 'read' } as const;

export async function startFakeGitHub(opts: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const requests: FakeGitHubRequest[] = [];
  const comments: Array<{ path: string; body: string }> = [];
  const permissions = new Map(Object.entries(opts.permissions ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  let nextId = 9000;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = decodeURIComponent(url.pathname);
      const body = raw ? (JSON.parse(raw) as unknown) : null;
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(value));
      };
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) return send(401, { message: 'Bad credentials', status: '401' });
      if (opts.failFirst && requests.length <= opts.failFirst.count) return send(opts.failFirst.status, { message: opts.failFirst.message ?? 'Server Error', status: String(opts.failFirst.status) }, opts.failFirst.headers);
      const permission = /^\/repos\/([^/]+)\/([^/]+)\/collaborators\/([^/]+)\/permission$/.exec(path);
      if (req.method === 'GET' && permission) {
        const role = permissions.get(permission[3]!.toLowerCase());
        if (!role) return send(404, { message: `${permission[3]} is not a user`, status: '404' });
        return send(200, { permission: LEGACY[role], role_name: role, user: { login: permission[3] } });
      }
      const comment = /^\/repos\/([^/]+)\/([^/]+)\/(issues\/\d+\/comments|pulls\/\d+\/comments\/\d+\/replies)$/.exec(path);
      if (req.method === 'POST' && comment) {
        const status = opts.commentStatus ?? 201;
        if (status !== 201) return send(status, { message: 'Resource not accessible by integration', status: String(status) });
        comments.push({ path, body: (body as { body: string }).body });
        const id = nextId++;
        return send(201, { id, body: (body as { body: string }).body, html_url: `https://github.example/${comment[1]}/${comment[2]}/issues/1#issuecomment-${id}` });
      }
      send(404, { message: 'Not Found', status: '404' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    comments,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
