// The runner's filtering HTTP proxy: the only way out of a sandbox whose recipe names hosts in
// `sandbox.network`. HTTPS goes through CONNECT (the proxy sees the host name, never the content);
// plain HTTP through absolute-form requests. A host no rule names gets 403 and is reported, so
// the transcript shows what a command tried to reach. Linux sandboxes reach it through a unix
// socket bound into the sandbox; macOS ones on a loopback port.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HostRules, normaliseHost, splitAuthority } from './hosts.js';

export interface NetworkProxy {
  /** Directory holding the socket `proxy.sock` (Linux), or null. */
  socketDir: string | null;
  /** Loopback port (macOS), or null. */
  port: number | null;
  close(): Promise<void>;
}

/**
 * Where an allowed host may be reached, or why not (a private address): `address` is a host name
 * to resolve as usual, or the first checked address; `addresses`, every checked address, in the
 * order to try them.
 */
export type AddressCheck = (host: string, exactNames: ReadonlySet<string>) => Promise<Admitted | { ok: false; reason: string }>;
type Admitted = { ok: true; address: string; addresses?: readonly string[] };

export interface ProxyOptions {
  rules: HostRules;
  listen: 'unix' | 'tcp';
  onDenied: (host: string, port: number, reason: string) => void;
  /**
   * Resolves an allowed host and refuses loopback, private, link-local and metadata addresses
   * unless the list names the host exactly: `*.example.com` must not lead to 169.254.169.254.
   * The connection goes to the checked addresses, each in turn (a name whose first address does
   * not answer, an IPv6 one on a host without IPv6, still connects), so a second DNS answer
   * cannot redirect it.
   */
  checkAddress: AddressCheck;
}

export const PROXY_SOCKET_NAME = 'proxy.sock';
const CONNECT_TIMEOUT_MS = 30_000;

export async function startNetworkProxy(opts: ProxyOptions): Promise<NetworkProxy> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => forwardPlainRequest(req, res, opts));
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => tunnel(req, client, head, opts, sockets));
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  let socketDir: string | null = null;
  if (opts.listen === 'unix') {
    socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-net-'));
    fs.chmodSync(socketDir, 0o700);
    await listen(server, path.join(socketDir, PROXY_SOCKET_NAME));
  } else {
    await listen(server, { host: '127.0.0.1', port: 0 });
  }
  const address = server.address();
  return {
    socketDir,
    port: typeof address === 'object' && address ? address.port : null,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

function listen(server: http.Server, where: string | net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (typeof where === 'string') server.listen(where, done);
    else server.listen(where, done);
  });
}

function tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer, opts: ProxyOptions, sockets: Set<net.Socket>): void {
  const target = splitAuthority(req.url ?? '');
  client.on('error', () => client.destroy());
  if (!target) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  void admit(target.host, target.port, opts).then((admitted) => {
    if (!admitted.ok) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${admitted.reason}\n`);
      return;
    }
    connectTunnel(target.host, admitted, target.port, client, head, sockets);
  });
}

/** Allowed by the list and by its address; reports a refusal. */
async function admit(host: string, port: number, opts: ProxyOptions): Promise<Admitted | { ok: false; reason: string }> {
  if (!opts.rules.allows(host)) {
    opts.onDenied(host, port, 'not in sandbox.network');
    return { ok: false, reason: refusal(host) };
  }
  const checked = await opts.checkAddress(host, opts.rules.exactNames).catch((error: Error) => ({ ok: false as const, reason: error.message }));
  if (!checked.ok) {
    opts.onDenied(host, port, checked.reason);
    return { ok: false, reason: `unattended sandbox: ${checked.reason}; name the host exactly in sandbox.network to allow it` };
  }
  return checked;
}

/**
 * Where to connect: by name to the checked addresses alone, each in turn (node's
 * autoSelectFamily tries every address the lookup gives); else to the one address or name given.
 */
function upstreamTarget(host: string, admitted: Admitted): { host: string; lookup?: net.LookupFunction; autoSelectFamily?: boolean } {
  const addresses = admitted.addresses ?? [];
  if (addresses.length < 2) return { host: admitted.address };
  const entries = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  const lookup = ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  }) as unknown as net.LookupFunction;
  // By name: node asks the lookup for a name only (an IP address checks as itself alone).
  return { host, lookup, autoSelectFamily: true };
}

function connectTunnel(host: string, admitted: Admitted, port: number, client: net.Socket, head: Buffer, sockets: Set<net.Socket>): void {
  const upstream = net.connect({ ...upstreamTarget(host, admitted), port, timeout: CONNECT_TIMEOUT_MS });
  sockets.add(upstream);
  upstream.once('close', () => sockets.delete(upstream));
  upstream.once('connect', () => {
    upstream.setTimeout(0);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.once('timeout', () => upstream.destroy(new Error('timed out')));
  upstream.on('error', (error) => {
    if (client.writable && upstream.bytesRead === 0) client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${error.message}\n`);
    else client.destroy();
  });
  client.once('close', () => upstream.destroy());
}

function forwardPlainRequest(req: http.IncomingMessage, res: http.ServerResponse, opts: ProxyOptions): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end('a proxy request needs an absolute http:// URL\n');
    return;
  }
  const host = normaliseHost(url.hostname);
  const port = Number(url.port || 80);
  if (url.protocol !== 'http:') {
    res.writeHead(400).end('only http:// goes through as a plain request; https uses CONNECT\n');
    return;
  }
  req.pause();
  void admit(host, port, opts).then((admitted) => {
    if (!admitted.ok) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${admitted.reason}\n`);
      return;
    }
    forward(host, admitted, port, url, req, res);
  });
}

function forward(host: string, admitted: Admitted, port: number, url: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
  // The host the list allowed, not one the client named: a server of many sites at this address
  // (a CDN) would otherwise serve the site the Host header names (domain fronting).
  const headers: http.IncomingHttpHeaders = { ...req.headers, host: url.host };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = http.request(
    { ...upstreamTarget(host, admitted), port, method: req.method, path: `${url.pathname}${url.search}`, headers, timeout: CONNECT_TIMEOUT_MS },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502).end(`${error.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
  req.resume();
}

function refusal(host: string): string {
  return `unattended sandbox: '${host}' is not in sandbox.network; add it to the recipe to allow it`;
}
