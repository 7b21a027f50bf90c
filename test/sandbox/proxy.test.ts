// The runner's filtering proxy on its own: the host list, then the address rules web_fetch uses
// (tools/net-guard.ts, here with a fake DNS): a wildcard may not lead to loopback, private or
// metadata addresses, a host named exactly may. Spoken to over its unix socket, as the in-sandbox
// forwarder does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostRules } from '../../src/sandbox/hosts.js';
import { PROXY_SOCKET_NAME, startNetworkProxy, type NetworkProxy } from '../../src/sandbox/proxy.js';
import { checkHost, type ResolveHost } from '../../src/tools/net-guard.js';

const fakeDns: Record<string, string> = {
  'api.example.test': '127.0.0.1', // a wildcard match that resolves to loopback
  'meta.example.test': '169.254.169.254',
  'named.example.test': '127.0.0.1', // the same, but named exactly
};
const resolve: ResolveHost = async (host) => {
  const address = fakeDns[host];
  if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

let server: http.Server;
let port = 0;
let proxy: NetworkProxy;
const denied: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => res.end(`reached ${req.headers.host}\n`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  proxy = await startNetworkProxy({
    rules: new HostRules(['*.example.test', 'named.example.test']),
    listen: 'unix',
    onDenied: (host, p, reason) => denied.push(`${host}:${p} ${reason}`),
    checkAddress: async (host, exact) => {
      const checked = await checkHost(host, exact, resolve);
      return checked.ok ? { ok: true, address: checked.targets[0].address } : checked;
    },
  });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A plain proxied GET of http://host:port/ through the proxy's socket. */
function get(host: string, hostHeader = `${host}:${port}`, through = proxy): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: path.join(through.socketDir!, PROXY_SOCKET_NAME), path: `http://${host}:${port}/`, headers: { host: hostHeader } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy's socket: the status line it answers. */
function connect(host: string, through = proxy): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: path.join(through.socketDir!, PROXY_SOCKET_NAME), method: 'CONNECT', path: `${host}:${port}` });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', reject);
    req.end();
  });
}

describe('the network proxy', () => {
  it('lets a host named exactly reach even a loopback address (the recipe said so)', async () => {
    expect(await get('named.example.test')).toEqual({ status: 200, body: `reached named.example.test:${port}\n` });
    expect(await connect('named.example.test')).toBe(200);
  });

  // A server that serves many sites at one address (a CDN) picks the site by the Host header:
  // passed on as sent, it would lead to a host the list does not name (domain fronting).
  it('sends a plain request to the host the list allowed, whatever Host header the client sent', async () => {
    expect(await get('named.example.test', 'elsewhere.example.org')).toEqual({ status: 200, body: `reached named.example.test:${port}\n` });
  });

  it('refuses a wildcard match that resolves to loopback or a metadata address, and reports why', async () => {
    denied.length = 0;
    const plain = await get('api.example.test');
    expect(plain.status).toBe(403);
    expect(plain.body).toMatch(/resolves to 127\.0\.0\.1, a loopback address/);
    expect(await connect('meta.example.test')).toBe(403);
    expect(denied).toEqual([
      `api.example.test:${port} 'api.example.test' resolves to 127.0.0.1, a loopback address`,
      `meta.example.test:${port} 'meta.example.test' resolves to 169.254.169.254, a link-local address (cloud metadata lives here)`,
    ]);
  });

  it('refuses hosts the list does not name, before any DNS lookup', async () => {
    denied.length = 0;
    expect((await get('127.0.0.1')).status).toBe(403);
    expect(await connect('example.test')).toBe(403);
    expect(denied).toEqual([`127.0.0.1:${port} not in sandbox.network`, `example.test:${port} not in sandbox.network`]);
  });
});

describe('a host with several checked addresses', () => {
  it('connects to the next when the first does not answer, and to none but those', async () => {
    // 127.0.0.2 has nothing on the port (a name whose first address is unreachable, such as an
    // IPv6 one on a machine without IPv6); the check's list is all the proxy may use.
    const lookups: string[] = [];
    const several = await startNetworkProxy({
      rules: new HostRules(['*.example.test']),
      listen: 'unix',
      onDenied: () => {},
      checkAddress: async (host) => {
        lookups.push(host);
        return { ok: true, address: '127.0.0.2', addresses: ['127.0.0.2', '127.0.0.1'] };
      },
    });
    try {
      expect(await get('api.example.test', 'evil.test', several)).toEqual({ status: 200, body: `reached api.example.test:${port}\n` });
      expect(await connect('api.example.test', several)).toBe(200);
      expect(lookups).toEqual(['api.example.test', 'api.example.test']);
    } finally {
      await several.close();
    }
  });
});
