// A forward HTTP proxy on 127.0.0.1, as a corporate one behaves: CONNECT opens a tunnel (the
// sockets piped both ways), an absolute-form request (`POST http://host:port/path`) is forwarded.
// It records what it was asked, and can demand credentials (407) or refuse every CONNECT.
// A name under the reserved `.test` domain (`models.proxied.test`) is 127.0.0.1 to this proxy
// alone: the runner never proxies loopback, so an endpoint it must reach through the proxy is named
// so (with test/providers/fixtures/proxied.crt for TLS), and nothing but the proxy can resolve it.
//
//   const proxy = await startHttpProxy({ credentials: 'user:secret' });
//   env: { HTTPS_PROXY: `http://user:secret@127.0.0.1:${proxy.port}` }
//   proxy.seen  // [{ method: 'CONNECT', target: '127.0.0.1:4431', authorization: 'user:secret' }]
import http from 'node:http';
import net from 'node:net';

export interface ProxyRequest {
  method: string;
  /** CONNECT's host:port, or the absolute URL of a forwarded request. */
  target: string;
  /** Proxy-Authorization's Basic credentials, decoded (user:password), or null. */
  authorization: string | null;
  /** The headers the proxy passed on to the origin (absolute-form requests only). */
  forwardedHeaders?: http.IncomingHttpHeaders;
}

export interface HttpProxy {
  port: number;
  url: string;
  seen: ProxyRequest[];
  close(): Promise<void>;
}

/** Every variable a proxy could be read from, cleared: the machine's own must not leak into a test's run. */
export const NO_PROXY_VARIABLES = {
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  ALL_PROXY: undefined,
  all_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
};

/** What the proxy connects to for `host`: 127.0.0.1 for a `.test` name (see the top), else the host itself. */
function resolved(host: string): string {
  return host.endsWith('.test') ? '127.0.0.1' : host;
}

/** `url` with its host replaced by a name only the test proxy resolves (to 127.0.0.1). */
export function proxiedName(url: string): string {
  const u = new URL(url);
  u.hostname = 'models.proxied.test';
  return u.href.replace(/\/$/, '');
}

export async function startHttpProxy(opts: { credentials?: string; refuseConnect?: number } = {}): Promise<HttpProxy> {
  const seen: ProxyRequest[] = [];
  const sockets = new Set<net.Socket>();
  const credentialsOf = (req: http.IncomingMessage): string | null => {
    const value = req.headers['proxy-authorization'];
    return value?.startsWith('Basic ') ? Buffer.from(value.slice(6), 'base64').toString() : null;
  };
  const allowed = (req: http.IncomingMessage) => opts.credentials === undefined || credentialsOf(req) === opts.credentials;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, target: req.url!, authorization: credentialsOf(req) });
    if (!allowed(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end('credentials needed\n');
    const target = new URL(req.url!);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    seen.at(-1)!.forwardedHeaders = headers;
    const upstream = http.request({ host: resolved(target.hostname), port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', target: req.url!, authorization: credentialsOf(req) });
    client.on('error', () => {});
    if (!allowed(req)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
    if (opts.refuseConnect) return void client.end(`HTTP/1.1 ${opts.refuseConnect} ${http.STATUS_CODES[opts.refuseConnect]}\r\nContent-Length: 0\r\n\r\n`);
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
    const upstream = net.connect({ host: resolved(host.replace(/^\[|\]$/g, '')), port }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
  });
  server.on('connection', (socket: net.Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
