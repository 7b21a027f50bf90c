// One POST over node:http(s) with keep-alive agents, the response handed over as node's own
// stream: no WHATWG Request/Response/Headers/ReadableStream on the way (each of those costs a
// share of a millisecond per request, and the first use loads undici's internals). The agents are
// shared with node-fetch.ts, so every provider reuses its connections. Connection failures reject
// like fetch does (TypeError 'fetch failed' with the socket error as cause), and a body cut off
// mid-way fails like undici's ('terminated'), so the callers classify every transport alike.
import http from 'node:http';
import type https from 'node:https';
import { urlToHttpOptions } from 'node:url';

const httpAgent = new http.Agent({ keepAlive: true });
// TLS is loaded when the first https request is made: a local endpoint never needs it.
let secure: { client: typeof https; agent: https.Agent } | undefined;

export interface Transport {
  client: typeof http | typeof https;
  agent: http.Agent;
}

export async function transportFor(url: URL): Promise<Transport> {
  if (url.protocol !== 'https:') return { client: http, agent: httpAgent };
  if (!secure) {
    const client = (await import('node:https')).default;
    secure = { client, agent: new client.Agent({ keepAlive: true }) };
  }
  return secure;
}

/**
 * The request options of the last URL posted to: a provider posts every turn to the same one, and
 * node would otherwise convert the URL object again on each request (`urlToHttpOptions`).
 */
let lastTarget: { href: string; options: http.RequestOptions } | null = null;

function targetOf(url: URL): http.RequestOptions {
  const href = url.href;
  if (lastTarget?.href !== href) lastTarget = { href, options: urlToHttpOptions(url) };
  return lastTarget.options;
}

/** Sends `body` and resolves with the response once its headers are in; the body is the caller's to read. */
export async function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<http.IncomingMessage> {
  signal.throwIfAborted();
  const { client, agent } = await transportFor(url);
  return new Promise((resolve, reject) => {
    // The abort is watched here until the response's headers are in, then by readText, which the
    // caller reads the body with: node's own `signal` option would add (and later remove) a
    // second listener on the signal and an end-of-stream watch on the request, every request.
    const onAbort = () => req.destroy(signal.reason as Error);
    const req = client.request({ ...targetOf(url), method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent }, (res) => {
      signal.removeEventListener('abort', onAbort);
      resolve(res);
    });
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    req.end(body);
  });
}

/**
 * Reads a response body as text, handing each piece to `onText` as it arrives (UTF-8 sequences
 * split between packets are joined first). Rejects with the run's abort reason when `signal`
 * aborts, and with TypeError('terminated') when the connection ends before the body does.
 */
export function readText(res: http.IncomingMessage, signal: AbortSignal, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => {
      res.destroy();
      finish(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      if (done) return;
      try {
        onText(text);
      } catch (error) {
        res.destroy();
        finish(error);
      }
    });
    res.on('end', () => finish());
    res.on('error', (cause) => finish(signal.aborted ? signal.reason : new TypeError('terminated', { cause })));
    res.on('close', () => {
      if (!res.complete) finish(signal.aborted ? signal.reason : new TypeError('terminated', { cause: new Error('the connection closed before the response ended') }));
    });
  });
}

/** The whole body as one string. */
export async function bodyText(res: http.IncomingMessage, signal: AbortSignal): Promise<string> {
  let text = '';
  await readText(res, signal, (piece) => (text += piece));
  return text;
}

/** Response headers behind the `get(name)` the error classifiers read. */
export function headerGetter(res: http.IncomingMessage): { get(name: string): string | null } {
  return {
    get(name: string): string | null {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}
