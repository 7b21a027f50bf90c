// Model requests (and MCP over HTTP) through the proxy HTTPS_PROXY / HTTP_PROXY name, lower-case
// forms first as curl and undici read them; HTTPS_PROXY unset falls back on HTTP_PROXY for https,
// and both unset on an HTTP proxy ALL_PROXY names, as curl does.
// Hosts NO_PROXY names go direct. https goes through a CONNECT tunnel, TLS running to the origin
// inside it (the proxy sees the host name, never the content); http is sent to the proxy in
// absolute form. Credentials in the proxy's URL go as Proxy-Authorization and never into a
// message: a proxy is named by its scheme, host and port. Loaded only when a proxy variable is set
// (proxy-variables.ts), so a run without one pays nothing.
import net from 'node:net';
import type http from 'node:http';
import type https from 'node:https';
import type { Duplex } from 'node:stream';
import type tls from 'node:tls';
import { ProviderError } from '../types/provider-error.js';

export interface ProxyRoute {
  /** The proxy as messages name it: scheme, host and port, never the credentials. */
  readonly name: string;
  /** The variable it came from. */
  readonly variable: string;
  readonly host: string;
  readonly port: number;
  /** An https:// proxy: TLS to the proxy itself. */
  readonly secure: boolean;
  /** The Proxy-Authorization header's value, or null. */
  readonly authorization: string | null;
}

type Parsed = { route: ProxyRoute } | { invalid: string } | null;
interface NoProxyEntry {
  /** A name matched with its subdomains, or null for an address entry. */
  domain: string | null;
  addresses: net.BlockList | null;
  port: number | null;
}
export interface Settings {
  https: Parsed;
  http: Parsed;
  bypassAll: boolean;
  noProxy: NoProxyEntry[];
}

let settings: Settings | undefined;

/** The proxy a request to `target` goes through, or null to go direct; a variable that names no usable proxy throws. */
export function proxyFor(target: URL): ProxyRoute | null {
  settings ??= proxySettings(process.env);
  return routeIn(settings, target);
}

/**
 * Whether https requests go through the proxy ALL_PROXY names, neither HTTPS_PROXY nor HTTP_PROXY
 * being set: a client that reads only those two (google-auth-library's requests) goes direct.
 */
export function viaAllProxy(): boolean {
  settings ??= proxySettings(process.env);
  const parsed = settings.https;
  return !!parsed && 'route' in parsed && /^all_proxy$/i.test(parsed.route.variable);
}

/** The proxy `settings` send a request to `target` through, or null. */
export function routeIn(settings: Settings, target: URL): ProxyRoute | null {
  const parsed = target.protocol === 'https:' ? settings.https : target.protocol === 'http:' ? settings.http : null;
  if (!parsed) return null;
  const host = bareHost(target.hostname);
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  if (bypassed(settings, host, port)) return null;
  if ('invalid' in parsed) throw new ProviderError('bad_request', parsed.invalid);
  return parsed.route;
}

/** What the proxy variables of `env` say, read once (proxyFor). */
export function proxySettings(env: Record<string, string | undefined>): Settings {
  const pick = (names: string[]) => {
    for (const variable of names) {
      const value = env[variable]?.trim();
      if (value) return { variable, value };
    }
    return null;
  };
  // ALL_PROXY is curl's (and git's, pip's) proxy for what the others leave unset. A socks one is
  // passed over rather than refused: it is often set beside HTTPS_PROXY for clients that speak
  // socks, and a run that went direct with it before goes direct still.
  const all = pick(['all_proxy', 'ALL_PROXY']);
  const fallback = all && /^(https?:\/\/|(?![a-z][a-z0-9+.-]*:\/\/))/i.test(all.value) ? all : null;
  const http = pick(['http_proxy', 'HTTP_PROXY']) ?? fallback;
  const secure = pick(['https_proxy', 'HTTPS_PROXY']) ?? http;
  const noProxy = (pick(['no_proxy', 'NO_PROXY'])?.value ?? '').toLowerCase().split(/[\s,]+/).filter(Boolean);
  return {
    http: http && parseProxy(http.variable, http.value),
    https: secure && parseProxy(secure.variable, secure.value),
    bypassAll: noProxy.includes('*'),
    noProxy: noProxy.flatMap(noProxyEntry),
  };
}

function parseProxy(variable: string, value: string): Parsed {
  // curl's reading: a proxy written without a scheme is an HTTP proxy.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const shown = text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { invalid: `${variable} is not a proxy URL ('${shown}'): write it as http://host:port, or http://user:password@host:port` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { invalid: `${variable} names a ${url.protocol.slice(0, -1)} proxy (${shown}): unattended speaks to HTTP proxies only; give an http:// or https:// proxy` };
  }
  if (!url.hostname) return { invalid: `${variable} names no proxy host ('${shown}'): write it as http://host:port` };
  const secure = url.protocol === 'https:';
  let authorization: string | null = null;
  if (url.username || url.password) {
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    authorization = `Basic ${Buffer.from(`${decode(url.username)}:${decode(url.password)}`).toString('base64')}`;
  }
  return {
    route: { name: `${url.protocol}//${url.host}`, variable, host: bareHost(url.hostname), port: Number(url.port) || (secure ? 443 : 80), secure, authorization },
  };
}

/** One NO_PROXY entry: a name (its subdomains too: `example.com`, `.example.com`, `*.example.com`), an address or a CIDR range, each with an optional `:port`. */
function noProxyEntry(entry: string): NoProxyEntry[] {
  let host = entry;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ? Number(bracketed[2]) : null;
  } else if (/^[^:]*:\d+$/.test(entry)) {
    const colon = entry.lastIndexOf(':');
    host = entry.slice(0, colon);
    port = Number(entry.slice(colon + 1));
  }
  const [address, prefix] = host.split('/');
  const family = net.isIP(address ?? '');
  if (family) {
    const addresses = new net.BlockList();
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix !== undefined) {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32)) return [];
      addresses.addSubnet(address!, bits, type);
    } else addresses.addAddress(address!, type);
    return [{ domain: null, addresses, port }];
  }
  const domain = host.replace(/^\*?\.+/, '').replace(/\.$/, '');
  return domain && domain !== '*' ? [{ domain, addresses: null, port }] : [];
}

function bypassed(s: Settings, host: string, port: number): boolean {
  if (s.bypassAll) return true;
  const name = host.toLowerCase().replace(/\.$/, '');
  const family = net.isIP(name);
  if (isLoopback(name, family)) return true;
  return s.noProxy.some((entry) => {
    if (entry.port !== null && entry.port !== port) return false;
    if (entry.addresses) return family !== 0 && entry.addresses.check(name, family === 6 ? 'ipv6' : 'ipv4');
    return name === entry.domain || name.endsWith(`.${entry.domain}`);
  });
}

let loopback: net.BlockList | undefined;

/**
 * A loopback endpoint (a local model server, an MCP server on this machine) always goes direct, as
 * Go's net/http decides and unlike curl: a proxy on another machine would connect to its own
 * loopback, never this one's. So a local server needs no NO_PROXY entry beside a corporate proxy.
 */
function isLoopback(name: string, family: number): boolean {
  if (family === 0) return name === 'localhost' || name.endsWith('.localhost');
  if (!loopback) {
    loopback = new net.BlockList();
    loopback.addSubnet('127.0.0.0', 8, 'ipv4');
    loopback.addAddress('::1', 'ipv6');
    loopback.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
  }
  return loopback.check(name, family === 6 ? 'ipv6' : 'ipv4');
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function authority(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Longest CONNECT answer head accepted. */
const MAX_HEAD_BYTES = 64 * 1024;

/** A connection to `host:port` through the proxy's CONNECT tunnel: raw bytes, TLS to the origin is the caller's. */
export function openTunnel(route: ProxyRoute, host: string, port: number, signal?: AbortSignal | null): Promise<net.Socket> {
  const target = authority(host, port);
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = connectToProxy(route);
    let head = Buffer.alloc(0);
    let settled = false;
    const finish = (error: unknown, ok?: net.Socket) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      socket.off('data', onData).off('error', onError).off('end', onEnd).off('close', onEnd);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve(ok!);
    };
    const onAbort = () => finish(signal!.reason);
    const onError = (error: Error) => finish(unreachable(route, host, error));
    const onEnd = () => finish(new ProviderError('network', `the proxy ${route.name} (${route.variable}) closed the connection when asked to connect to ${target}`));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_HEAD_BYTES) finish(new ProviderError('network', `the proxy ${route.name} (${route.variable}) sent no HTTP answer to CONNECT ${target}`));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})(?: ([^\r\n]*))?/.exec(head.toString('latin1', 0, end));
      if (!status) return finish(new ProviderError('network', `the proxy ${route.name} (${route.variable}) sent no HTTP answer to CONNECT ${target}: is it an HTTP proxy?`));
      const code = Number(status[1]);
      if (code < 200 || code > 299) return finish(proxyRefusal(route, target, code, status[2] ?? ''));
      const rest = head.subarray(end + 4);
      // Its errors reach the TLS socket over it, whose owner handles them; none may crash the process.
      socket.on('error', () => {});
      finish(null, socket);
      if (rest.length) socket.unshift(rest);
    };
    if (signal?.aborted) return finish(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData).on('error', onError).on('end', onEnd).on('close', onEnd);
    const auth = route.authorization ? `proxy-authorization: ${route.authorization}\r\n` : '';
    socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n${auth}\r\n`, 'latin1');
  });
}

function connectToProxy(route: ProxyRoute): net.Socket {
  if (!route.secure) return net.connect({ host: route.host, port: route.port });
  const tlsModule: typeof tls = process.getBuiltinModule('node:tls');
  return tlsModule.connect({ host: route.host, port: route.port, servername: net.isIP(route.host) ? undefined : route.host });
}

export function unreachable(route: ProxyRoute, host: string, error: Error): ProviderError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  return new ProviderError('network', `cannot reach the proxy ${route.name} that ${route.variable} names: ${why}; check ${route.variable}, or name ${host} in NO_PROXY to go around the proxy`);
}

/** A proxy's refusal to carry a request to `target` (host:port): what it said, and what to change. */
export function proxyRefusal(route: ProxyRoute, target: string, status: number, reason: string): ProviderError {
  const said = `${status}${reason ? ` ${reason}` : ''}`;
  const by = `the proxy ${route.name} (${route.variable})`;
  if (status === 407) {
    const fix = route.authorization
      ? `it refused the user and password ${route.variable} gives: correct them`
      : // Not written as a URL: the report's redaction would blank user:password out of one.
        `put them in ${route.variable} before the proxy's host: user:password@${authority(route.host, route.port)}`;
    return new ProviderError('auth', `${by} asks for credentials to reach ${target} (${said}): ${fix}`, status);
  }
  if (status === 403) {
    return new ProviderError('auth', `${by} refused to connect to ${target} (${said}): ask its administrators to let it through, or name the host in NO_PROXY if it can be reached directly`, status);
  }
  if (status >= 500) {
    return new ProviderError('network', `${by} could not connect to ${target} (${said}): check the endpoint's host and port, and that the proxy can reach it`, status);
  }
  return new ProviderError('network', `${by} refused to connect to ${target} (${said})`, status);
}

/** The target's host:port as a CONNECT line or a message names it. */
export function targetOf(url: URL): string {
  return authority(bareHost(url.hostname), Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
}

const tunnelAgents = new Map<ProxyRoute, https.Agent>();

/**
 * A keep-alive https.Agent whose connections run through `route`'s CONNECT tunnel, TLS to the
 * origin inside it. `tlsOptions` (an OTLP exporter's CA and client certificate): an agent of its
 * own, not the shared one.
 */
export function tunnelAgent(route: ProxyRoute, tlsOptions?: https.AgentOptions): https.Agent {
  let agent = tlsOptions ? undefined : tunnelAgents.get(route);
  if (agent) return agent;
  const httpsModule: typeof https = process.getBuiltinModule('node:https');
  const tlsModule: typeof tls = process.getBuiltinModule('node:tls');
  class TunnelAgent extends httpsModule.Agent {
    // node:http's Agent takes a connection from a callback when createConnection returns none.
    override createConnection(options: http.RequestOptions & tls.ConnectionOptions, callback?: (error: Error | null, socket: Duplex) => void): undefined {
      const host = bareHost(options.host ?? 'localhost');
      openTunnel(route, host, Number(options.port) || 443).then(
        (socket) => callback?.(null, tlsModule.connect({ ...(options as tls.ConnectionOptions), socket, servername: options.servername ?? (net.isIP(host) ? undefined : host) })),
        (error: Error) => callback?.(error, undefined as never),
      );
      return undefined;
    }
  }
  agent = new TunnelAgent({ ...tlsOptions, keepAlive: true });
  if (!tlsOptions) tunnelAgents.set(route, agent);
  return agent;
}
