// A fetch for the provider SDKs over node:http with a keep-alive agent. The SDK stays the client
// (request building, auth, streaming, parsing); this is only its transport (httpOptions.fetch).
// Why not the global fetch: each undici request costs about half a millisecond more on the
// runner's side, and a run makes a request per turn; node:http also parses responses natively
// instead of in WebAssembly. Errors look like undici's (TypeError 'fetch failed' / 'terminated'
// with the socket error as cause), so callers classify both alike.
import http from 'node:http';
import type https from 'node:https';
import { ProviderError } from './provider.js';
import type { ProxyRoute } from '../util/proxy.js';
import { proxyVariablesSet } from '../util/proxy-variables.js';

const httpAgent = new http.Agent({ keepAlive: true });
// TLS is loaded when the first https request is made: a local endpoint never needs it.
let secure: { client: typeof https; agent: https.Agent } | undefined;

/** node:http's client and a keep-alive agent for `url`, shared by every SDK provider in the process. */
async function transportFor(url: URL): Promise<{ client: typeof http | typeof https; agent: http.Agent }> {
  if (url.protocol !== 'https:') return { client: http, agent: httpAgent };
  if (!secure) {
    const client = (await import('node:https')).default;
    secure = { client, agent: new client.Agent({ keepAlive: true }) };
  }
  return secure;
}

/** A request option (`init[ON_SENT]`): called once the request, body and all, is written to the connection. */
export const ON_SENT = Symbol('unattended.onSent');

export async function nodeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  // The SDKs pass a URL string; anything else takes the standard path.
  if (typeof input !== 'string' && !(input instanceof URL)) return fetch(input, init);
  const url = new URL(input);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fetch(input, init);
  // The proxy code is loaded only when a proxy variable is set (util/proxy.ts).
  const route = proxyVariablesSet() ? (await import('../util/proxy.js')).proxyFor(url) : null;
  const { client, agent } = await transportFor(route?.secure ? new URL('https://proxy') : url);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const body = await requestBody(init.body);
  const headers = headerRecord(init.headers);
  // A kept-alive connection the server closed as the request went out (a server or proxy that
  // closes after each answer without saying so, or an idle timeout that just passed) fails before
  // any answer: the server never read the request. It goes once more at once, as a browser does,
  // rather than through the retry policy's backoff (half a second or more, every turn).
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(client, route ? await proxied(route, url, agent, headers) : { agent }, url, init, headers, body, signal);
    } catch (error) {
      if (!(error instanceof StaleConnection) || attempt > MAX_STALE_RESENDS) throw error instanceof StaleConnection ? error.failure : error;
    }
  }
}

/**
 * Request options for a request through `route`: https through the proxy's CONNECT tunnel (its own
 * keep-alive agent), http to the proxy in absolute form with the proxy's credentials.
 */
async function proxied(route: ProxyRoute, url: URL, agent: http.Agent, headers: Record<string, string>): Promise<http.RequestOptions & { route: ProxyRoute }> {
  const proxy = await import('../util/proxy.js');
  if (url.protocol === 'https:') return { agent: proxy.tunnelAgent(route), route };
  if (route.authorization) headers['proxy-authorization'] = route.authorization;
  headers.host = url.host;
  const host = route.host.includes(':') ? `[${route.host}]` : route.host;
  return { agent, route, protocol: route.secure ? 'https:' : 'http:', host, hostname: route.host, port: route.port, path: url.href, servername: route.secure && !route.host.includes(':') ? route.host : undefined } as http.RequestOptions & { route: ProxyRoute };
}

/** Errors of a connection that could not be opened. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/** Resends after a kept-alive connection turned out closed: one per idle connection the agent may hold, then a new one. */
const MAX_STALE_RESENDS = 3;

/** A request that failed on a reused connection before any response: the server had closed it. */
class StaleConnection extends Error {
  constructor(readonly failure: unknown) {
    super('stale connection');
  }
}

function send(
  client: typeof http | typeof https,
  options: http.RequestOptions & { route?: ProxyRoute },
  url: URL,
  init: RequestInit,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let responded = false;
    const { route, ...target } = options;
    const req = client.request(url, { ...target, method: init.method ?? 'GET', headers, signal }, (res) => {
      responded = true;
      const status = res.statusCode ?? 502;
      // Asked in absolute form, the proxy itself wants credentials: no answer of the endpoint's.
      if (status === 407 && route && url.protocol === 'http:') {
        res.resume();
        return void import('../util/proxy.js').then((proxy) => reject(proxy.proxyRefusal(route, proxy.targetOf(url), status, res.statusMessage ?? '')));
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const noBody = status === 204 || status === 304 || init.method === 'HEAD';
      if (noBody) res.resume();
      resolve(new Response(noBody ? null : webStream(res, signal), { status, statusText: res.statusMessage ?? '', headers }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted) return reject(signal.reason);
      // The proxy refused or could not be reached (util/proxy.ts): its own message says what to fix.
      if (error instanceof ProviderError) return reject(error);
      // Sent in absolute form, the connection that failed to open was the proxy's.
      if (route && url.protocol === 'http:' && !req.reusedSocket && error.syscall !== undefined && CONNECT_FAILURES.has(error.code ?? '')) {
        return void import('../util/proxy.js').then((proxy) => reject(proxy.unreachable(route, url.hostname, error)));
      }
      const failure = new TypeError('fetch failed', { cause: error });
      const closedUnderUs = req.reusedSocket && !responded && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      reject(closedUnderUs ? new StaleConnection(failure) : failure);
    });
    const onSent = (init as Record<symbol, unknown>)[ON_SENT];
    req.end(body, typeof onSent === 'function' ? (onSent as () => void) : undefined);
  });
}

/** The response body as a web stream; a connection lost before the end is an error, never an early EOF. */
function webStream(res: http.IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
      res.on('end', () => {
        ended = true;
        controller.close();
      });
      const fail = (cause?: unknown) => {
        if (ended) return;
        ended = true;
        controller.error(signal?.aborted ? signal.reason : new TypeError('terminated', { cause }));
      };
      res.on('error', fail);
      res.on('close', () => fail(new Error('the connection closed before the response ended')));
    },
    cancel() {
      res.destroy();
    },
  });
}

async function requestBody(body: RequestInit['body']): Promise<string | Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
