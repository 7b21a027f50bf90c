// One HTTP GET for web_fetch, under the SSRF guard: every hop's host is checked (net-guard.ts)
// and the socket goes to the address that was checked, redirects are followed by hand so each one
// is checked too, and the body is read only up to a byte limit (after decompression, so a small
// gzip bomb cannot grow past it).
import type http from 'node:http';
import type https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import type zlib from 'node:zlib';
import { checkHost, isExempt, normalizeHost, type CheckedAddress, type ExactHost, type ResolveHost } from './net-guard.js';

export interface GuardedGetOptions {
  /** Hosts that may resolve to private addresses, each on its port or any (see parseExactHost). */
  allowPrivateHosts: readonly ExactHost[];
  resolveHost: ResolveHost;
  maxRedirects: number;
  maxBytes: number;
  signal: AbortSignal;
  headers?: Record<string, string>;
  /** Asked before each redirect is followed: a reason to refuse it, or null (e.g. the policy's host rules). */
  checkRedirect?: (url: string) => string | null;
}

export type GetOutcome =
  | {
      ok: true;
      url: string;
      /** Every URL before the final one, in order. */
      redirectedFrom: string[];
      status: number;
      contentType: string;
      body: Buffer;
      /** The body was longer than maxBytes; `body` holds the first maxBytes. */
      truncated: boolean;
      /** Time ran out (a timeout signal) while the body was still arriving; `body` holds what came. */
      cutOff: boolean;
    }
  | { ok: false; type: 'policy_denied' | 'execution_failed'; message: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NONE_EXEMPT: ReadonlySet<string> = new Set();
const ERROR_PREVIEW_BYTES = 4096;
// TLS and zlib are loaded by the first fetch that needs them, not at start-up: most runs never fetch.
const zlibModule = (): typeof zlib => process.getBuiltinModule('node:zlib');
const DECODERS: Readonly<Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress>> = {
  gzip: () => zlibModule().createGunzip(),
  'x-gzip': () => zlibModule().createGunzip(),
  deflate: () => zlibModule().createInflate(),
  br: () => zlibModule().createBrotliDecompress(),
};

export async function guardedGet(url: string, opts: GuardedGetOptions): Promise<GetOutcome> {
  let current = new URL(url);
  const redirectedFrom: string[] = [];
  for (;;) {
    // Exempt on the host and port the allow rule names, and only there.
    const exempt = isExempt(opts.allowPrivateHosts, current) ? new Set([normalizeHost(current.hostname)]) : NONE_EXEMPT;
    const check = await untilAborted(checkHost(current.hostname, exempt, opts.resolveHost), opts.signal);
    if (!check.ok) {
      const hop = redirectedFrom.length > 0 ? ` (redirected to ${current.href})` : '';
      // A name DNS cannot answer for is a failed fetch, not a denial: it counts toward no max_denials.
      if (check.unresolved) {
        const why = check.unresolved.code ?? 'no address';
        return { ok: false, type: 'execution_failed', message: `cannot resolve ${normalizeHost(current.hostname)}${hop}: ${why}` };
      }
      return { ok: false, type: 'policy_denied', message: `refused to fetch${hop}: ${check.reason}` };
    }
    const response = await request(current, check.targets, opts);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.destroy();
      if (redirectedFrom.length >= opts.maxRedirects) {
        return { ok: false, type: 'execution_failed', message: `more than ${opts.maxRedirects} redirects (last: ${current.href} -> ${location})` };
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return { ok: false, type: 'execution_failed', message: `${current.href} redirected to an invalid URL '${location}'` };
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return { ok: false, type: 'execution_failed', message: `${current.href} redirected to a ${next.protocol} URL; only http and https are fetched` };
      }
      // Refused as a first URL with them is: following it would send them (Authorization: Basic)
      // to wherever the server chose. The message names the target without them.
      if (next.username || next.password) {
        const bare = new URL(next.href);
        bare.username = '';
        bare.password = '';
        return { ok: false, type: 'execution_failed', message: `refused to follow the redirect from ${current.href} to ${bare.href}: the target carries a user name or password, which web_fetch never sends` };
      }
      const refusal = opts.checkRedirect?.(next.href) ?? null;
      if (refusal) return { ok: false, type: 'policy_denied', message: `refused to follow the redirect from ${current.href} to ${next.href}: ${refusal}` };
      redirectedFrom.push(current.href);
      current = next;
      continue;
    }
    const contentType = String(response.headers['content-type'] ?? '');
    if (status < 200 || status > 299) {
      const preview = await readBody(response, ERROR_PREVIEW_BYTES).catch(() => ({ body: Buffer.alloc(0), truncated: false }));
      return { ok: false, type: 'execution_failed', message: httpErrorMessage(current.href, response, contentType, preview.body) };
    }
    const { body, truncated, cutOff } = await readBody(response, opts.maxBytes, opts.signal);
    return { ok: true, url: current.href, redirectedFrom, status, contentType, body, truncated, cutOff };
  }
}

function request(url: URL, targets: readonly CheckedAddress[], opts: GuardedGetOptions): Promise<http.IncomingMessage> {
  // The name was resolved and checked already: the socket must go to those addresses and no other.
  // Every checked address is handed over, and Node tries the next when one refuses or does not
  // answer (net's autoSelectFamily, on by default since Node 20): localhost is ::1 first on
  // Debian, and a dev server often listens on 127.0.0.1 alone. Host header and TLS servername
  // still come from the URL, so virtual hosts and certificates work.
  const pinned = ((_host, options, callback) => {
    if (options?.all) (callback as any)(null, targets.map((t) => ({ address: t.address, family: t.family })));
    else (callback as any)(null, targets[0]!.address, targets[0]!.family);
  }) as LookupFunction;
  const client: typeof http | typeof https = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'GET', headers: opts.headers, lookup: pinned, agent: false, signal: opts.signal }, resolve);
    // `on`, not `once`: the request can emit 'error' again after the first (a reset while the body
    // is read), and an 'error' with no listener left would crash the whole run.
    req.on('error', reject);
    req.end();
  });
}

/**
 * Reads up to maxBytes of the decoded body, then lets go of the connection. When `signal` times out
 * while bytes are still coming (a slow drip), what arrived is kept: the server answered, and its
 * partial answer is worth more than none. A cancelled run throws as ever.
 */
async function readBody(response: http.IncomingMessage, maxBytes: number, signal?: AbortSignal): Promise<{ body: Buffer; truncated: boolean; cutOff: boolean }> {
  let stream: Readable;
  try {
    stream = decoded(response);
  } catch (error) {
    response.destroy();
    throw error;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let cutOff = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    // A stream that ends, rather than fails, when the request is aborted for time.
    if (!truncated && signal?.aborted && isTimeout(signal.reason)) cutOff = true;
  } catch (error) {
    if (!(signal?.aborted && isTimeout(signal.reason))) throw error;
    cutOff = true;
  } finally {
    response.destroy();
    if (stream !== response) stream.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated, cutOff };
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return response;
  const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding]!() : null;
  if (!decoder) throw new Error(`unsupported content-encoding '${encoding}'`);
  response.once('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function httpErrorMessage(url: string, response: http.IncomingMessage, contentType: string, body: Buffer): string {
  const status = `HTTP ${response.statusCode}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
  let text = body.toString('utf8');
  if (/html/i.test(contentType)) text = text.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ');
  text = text.replace(/\s+/g, ' ').trim().slice(0, 500);
  return `${status} from ${url}${text ? `: ${text}` : ''}`;
}

/** An abort for time (AbortSignal.timeout's reason), not a cancelled run. */
export function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

/** dns.lookup cannot be cancelled; the call stops waiting for it when the signal fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
