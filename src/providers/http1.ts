// An HTTP/1.1 client of our own for the gemini provider's one kind of request (the SDK providers
// keep their SDKs' clients): a POST whose response is read as text (an SSE stream or a JSON
// document), over a kept-alive connection. node:http costs ~0.27 ms
// of CPU per request on this machine (a ClientRequest, an IncomingMessage, their streams, events
// and ticks); this costs ~0.1 ms, and a run makes a request per turn. undici's Client was measured
// too: 0.25 ms. What it does:
// - one connection per request at a time, kept for the next request to the same origin; a
//   connection the server closed while idle is dropped, and a request whose reused connection
//   fails before any byte of the response is sent once more on a new one (the server never read it);
// - TLS with the process's trusted CAs (NODE_EXTRA_CA_CERTS included) and the host's name checked;
// - responses framed by Content-Length, chunked transfer coding, or the connection's end; 1xx
//   responses skipped; anything else malformed (a bad status line or chunk size, a head over 64 KB,
//   a transfer coding it did not ask for) is an error, never a guess;
// - errors shaped like fetch's: TypeError('fetch failed') with the socket's error as its cause
//   before the response, TypeError('terminated') when the body is cut off, the signal's reason on
//   abort;
// - the proxy HTTPS_PROXY / HTTP_PROXY name (util/proxy.ts, loaded only when one is set).
import net from 'node:net';
import type tls from 'node:tls';
import { StringDecoder } from 'node:string_decoder';
import type { ChunkedBody } from './list-body.js';
import type { ProxyRoute } from '../util/proxy.js';
import { proxyVariablesSet } from '../util/proxy-variables.js';

export interface Http1Response {
  status: number;
  /** Lower-case names; a repeated header's values joined with ', '. */
  headers: Record<string, string>;
  /**
   * Hands the body to `onText` piece by piece as it arrives (UTF-8 decoded, sequences split
   * between packets joined first) and resolves at its end. Once only.
   */
  readText(signal: AbortSignal, onText: (text: string) => void): Promise<void>;
}

/** The whole body as one string. */
export async function bodyText(res: Http1Response, signal: AbortSignal): Promise<string> {
  let text = '';
  await res.readText(signal, (piece) => (text += piece));
  return text;
}

/** Response headers behind the `get(name)` the error classifiers read. */
export function headerGetter(res: Http1Response): { get(name: string): string | null } {
  return { get: (name) => res.headers[name.toLowerCase()] ?? null };
}

/** Longest response head (status line and headers) accepted. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest chunk-size line (with extensions) or trailer line accepted. */
const MAX_LINE_BYTES = 4096;
/** Idle connections kept per origin. */
const MAX_IDLE_PER_ORIGIN = 4;
/** Header names and values as RFC 9110 allows them: no CR, LF or NUL may reach the wire. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[\r\n\0]/;

const idle = new Map<string, net.Socket[]>();
/** What watches each idle connection for the server closing it: removed when it is taken. */
const idleWatch = new Map<net.Socket, () => void>();
let tlsModule: typeof tls | undefined;

/**
 * POSTs `body` to `url`; resolves once the response's head is in. The head is built once per `url`
 * and `headers` object: new headers come as a new object (the gemini provider's is frozen).
 */
/** `onSent`: the request's bytes are in the kernel (the write's callback). */
export async function post(url: URL, headers: Record<string, string>, body: ChunkedBody, signal: AbortSignal, onSent?: () => void): Promise<Http1Response> {
  signal.throwIfAborted();
  const route = proxyVariablesSet() ? (await import('../util/proxy.js')).proxyFor(url) : null;
  const head = requestHead(url, headers, body.length, route);
  const origin = `${url.protocol}//${url.host}`;
  const reused = takeIdle(origin);
  if (reused) {
    try {
      return await viaProxy(route, url, await exchange(reused, origin, head, body, signal, true, onSent));
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      // The server had closed it: it never read this request. Once more, on a new connection.
    }
  }
  const socket = await connect(url, signal, route);
  return viaProxy(route, url, await exchange(socket, origin, head, body, signal, false, onSent));
}

/** A 407 to a request sent to the proxy in absolute form is the proxy's, not the endpoint's. */
async function viaProxy(route: ProxyRoute | null, url: URL, res: Http1Response): Promise<Http1Response> {
  if (!route || url.protocol !== 'http:' || res.status !== 407) return res;
  const proxy = await import('../util/proxy.js');
  throw proxy.proxyRefusal(route, proxy.targetOf(url), res.status, '');
}

/** The head of the last request but its length: a provider posts every turn to one URL with one set of headers. */
let lastHead: { url: string; headers: Record<string, string>; text: string } | null = null;

function requestHead(url: URL, headers: Record<string, string>, length: number, route: ProxyRoute | null): string {
  if (lastHead?.url !== url.href || lastHead.headers !== headers) lastHead = { url: url.href, headers, text: headLines(url, headers, route) };
  return `${lastHead.text}content-length: ${length}\r\n\r\n`;
}

/** `route`: the proxy an http request goes to, in absolute form with the proxy's credentials (https tunnels through it). */
function headLines(url: URL, headers: Record<string, string>, route: ProxyRoute | null): string {
  const absolute = route !== null && url.protocol === 'http:';
  let head = `POST ${absolute ? url.origin : ''}${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  if (absolute && route.authorization) head += `proxy-authorization: ${route.authorization}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length' || lower === 'connection' || lower === 'transfer-encoding') continue;
    if (!HEADER_NAME.test(name)) throw new TypeError(`invalid HTTP header name '${name}'`);
    if (BAD_VALUE.test(value)) throw new TypeError(`invalid value of HTTP header '${name}': it holds a line break or NUL`);
    head += `${name}: ${value}\r\n`;
  }
  return head;
}

function takeIdle(origin: string): net.Socket | undefined {
  const sockets = idle.get(origin);
  while (sockets?.length) {
    const socket = sockets.pop()!;
    const drop = idleWatch.get(socket);
    idleWatch.delete(socket);
    if (drop) socket.off('data', drop).off('end', drop).off('close', drop).off('error', drop);
    if (!socket.destroyed && socket.readable && socket.writable) return socket;
  }
  return undefined;
}

function putIdle(origin: string, socket: net.Socket): void {
  let sockets = idle.get(origin);
  if (!sockets) idle.set(origin, (sockets = []));
  if (sockets.length >= MAX_IDLE_PER_ORIGIN) return void socket.destroy();
  // An idle connection does not keep the process alive.
  socket.unref();
  // Closed by the server (or broken) while idle: dropped; data while idle is a protocol error.
  const drop = () => {
    socket.destroy();
    idleWatch.delete(socket);
    const at = sockets.indexOf(socket);
    if (at !== -1) sockets.splice(at, 1);
  };
  socket.on('data', drop).on('end', drop).on('close', drop).on('error', drop);
  idleWatch.set(socket, drop);
  sockets.push(socket);
}

async function connect(url: URL, signal: AbortSignal, route: ProxyRoute | null): Promise<net.Socket> {
  let secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new TypeError(`fetch failed`, { cause: new Error(`unsupported protocol ${url.protocol}`) });
  let host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let port = Number(url.port) || (secure ? 443 : 80);
  // https: TLS to the endpoint inside the proxy's tunnel; http: a connection to the proxy itself.
  const tunnel = route && secure ? await (await import('../util/proxy.js')).openTunnel(route, host, port, signal) : null;
  if (route && !secure) ({ host, port, secure } = route);
  if (secure) tlsModule ??= (await import('node:tls')).default;
  return new Promise<net.Socket>((resolve, reject) => {
    const socket: net.Socket = secure
      ? tlsModule!.connect({ host, port, socket: tunnel ?? undefined, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host, port });
    // Whoever holds the socket handles its errors (this connect, an exchange, the idle pool); one
    // between two of them must not crash the process: the socket is destroyed, and the next write
    // on it fails where it is handled.
    socket.on('error', () => {});
    const ready = secure ? 'secureConnect' : 'connect';
    const done = (error?: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', done).off(ready, onReady);
      if (error) {
        socket.destroy();
        if (signal.aborted) return reject(signal.reason);
        if (route && !tunnel) return void import('../util/proxy.js').then((proxy) => reject(proxy.unreachable(route, url.hostname, error)));
        reject(new TypeError('fetch failed', { cause: error }));
      } else resolve(socket);
    };
    const onReady = () => done();
    const onAbort = () => done(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', done).once(ready, onReady);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
  });
}

/** A reused connection that failed before any byte of the response: safe to send again. */
class StaleConnection extends Error {}

/**
 * Writes the request on `socket` and reads its response. The socket goes back to the idle pool
 * once the whole body is read and the server keeps the connection open; otherwise it is closed.
 */
function exchange(socket: net.Socket, origin: string, head: string, body: ChunkedBody, signal: AbortSignal, reused: boolean, onSent?: () => void): Promise<Http1Response> {
  socket.ref();
  return new Promise<Http1Response>((resolve, reject) => {
    const parser = new ResponseParser();
    const decoder = new StringDecoder('utf8');
    let response: Http1Response | null = null;
    /** Body text that arrived before readText was called. */
    let early: string[] = [];
    let reader: { onText: (text: string) => void; resolve: () => void; reject: (error: unknown) => void; signal: AbortSignal } | null = null;
    let settled = false;
    let received = false;
    let ended = false;
    let failure: unknown = null;

    const cleanup = () => {
      socket.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onError);
      signal.removeEventListener('abort', onAbort);
      reader?.signal.removeEventListener('abort', onReaderAbort);
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      socket.destroy();
      if (!response) reject(error);
      else if (reader) reader.reject(error);
      else failure = error;
    };
    const complete = () => {
      settled = true;
      cleanup();
      const rest = decoder.end();
      if (rest) deliver(rest);
      if (parser.keepAlive && !parser.extra) putIdle(origin, socket);
      else socket.destroy();
      ended = true;
      reader?.resolve();
    };
    const deliver = (text: string) => {
      if (!text) return;
      if (reader) reader.onText(text);
      else early.push(text);
    };
    const onData = (chunk: Buffer) => {
      received = true;
      let broken: unknown = null;
      try {
        parser.feed(chunk, (bytes) => deliver(decoder.write(bytes)));
      } catch (error) {
        broken = error;
      }
      // A head that came in whole is the response, even when what follows it is broken: the
      // reader gets the body up to the fault, then the fault.
      if (!response && parser.head) {
        const { status, headers } = parser.head;
        response = { status, headers, readText };
        resolve(response);
      }
      if (broken) return fail(broken);
      if (parser.done) complete();
    };
    const onEnd = () => {
      if (settled) return;
      if (parser.head && parser.endsAtClose()) return complete();
      onClose();
    };
    const onClose = () => {
      if (settled) return;
      if (!received && reused) return fail(new StaleConnection());
      const cause = new Error('the connection closed before the response ended');
      fail(response ? new TypeError('terminated', { cause }) : new TypeError('fetch failed', { cause }));
    };
    const onError = (error: Error) => {
      if (settled) return;
      if (!received && reused) return fail(new StaleConnection());
      fail(response ? new TypeError('terminated', { cause: error }) : new TypeError('fetch failed', { cause: error }));
    };
    const onAbort = () => fail(signal.reason);
    const onReaderAbort = () => fail(reader!.signal.reason);

    function readText(readSignal: AbortSignal, onText: (text: string) => void): Promise<void> {
      if (reader) return Promise.reject(new Error('the response body was already read'));
      return new Promise<void>((resolveRead, rejectRead) => {
        // An exception from onText ends the read with it, and closes the connection.
        let thrown = false;
        const guarded = (text: string) => {
          if (thrown) return;
          try {
            onText(text);
          } catch (error) {
            thrown = true;
            if (settled) rejectRead(error);
            else fail(error);
          }
        };
        reader = { onText: guarded, resolve: resolveRead, reject: rejectRead, signal: readSignal };
        for (const text of early) guarded(text);
        early = [];
        if (thrown) return;
        if (failure) return rejectRead(failure);
        if (ended) return resolveRead();
        if (readSignal.aborted) return fail(readSignal.reason);
        readSignal.addEventListener('abort', onReaderAbort, { once: true });
      });
    }

    socket.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
    // Corked: the head and every chunk leave in one writev.
    socket.cork();
    socket.write(head, 'latin1');
    const last = body.chunks.length - 1;
    for (let i = 0; i < last; i++) socket.write(body.chunks[i]!);
    socket.write(body.chunks[last] ?? '', (error) => {
      if (!error) onSent?.();
    });
    socket.uncork();
  });
}

type BodyState = 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' | 'done';

/**
 * An HTTP/1.1 response, fed as it arrives: the head (1xx responses skipped), then the body's
 * bytes handed on as they come, framed as RFC 9112 says.
 */
class ResponseParser {
  head: { status: number; headers: Record<string, string> } | null = null;
  keepAlive = false;
  /** Bytes after the end of the response: the connection cannot be reused. */
  extra = false;
  private pending: Buffer = Buffer.alloc(0);
  private state: BodyState | null = null;
  private remaining = 0;

  get done(): boolean {
    return this.state === 'done';
  }

  /** True when the body ends with the connection (no length, no chunks): its end completes it. */
  endsAtClose(): boolean {
    return this.state === 'close';
  }

  feed(chunk: Buffer, onBody: (bytes: Buffer) => void): void {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.state === null) {
        const end = data.indexOf('\r\n\r\n');
        if (end === -1) {
          if (data.length > MAX_HEAD_BYTES) throw new TypeError('fetch failed', { cause: new Error(`the response head is over ${MAX_HEAD_BYTES} bytes`) });
          this.pending = data;
          return;
        }
        this.readHead(data.toString('latin1', 0, end));
        data = data.subarray(end + 4);
        continue;
      }
      switch (this.state) {
        case 'length':
        case 'chunk-data': {
          const take = Math.min(this.remaining, data.length);
          if (take > 0) onBody(data.subarray(0, take));
          this.remaining -= take;
          data = data.subarray(take);
          if (this.remaining === 0) this.state = this.state === 'length' ? 'done' : 'chunk-end';
          break;
        }
        case 'chunk-end': {
          if (data.length < 2) {
            this.pending = data;
            return;
          }
          if (data[0] !== 0x0d || data[1] !== 0x0a) throw new TypeError('terminated', { cause: new Error('a chunk of the response does not end with CRLF') });
          data = data.subarray(2);
          this.state = 'chunk-size';
          break;
        }
        case 'chunk-size':
        case 'trailers': {
          const eol = data.indexOf('\r\n');
          if (eol === -1) {
            if (data.length > MAX_LINE_BYTES) throw new TypeError('terminated', { cause: new Error('a chunk-size or trailer line of the response is too long') });
            this.pending = data;
            return;
          }
          const line = data.toString('latin1', 0, eol);
          data = data.subarray(eol + 2);
          if (this.state === 'trailers') {
            if (line === '') this.state = 'done';
            continue;
          }
          const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
          if (!size) throw new TypeError('terminated', { cause: new Error(`a bad chunk size in the response: '${line.slice(0, 40)}'`) });
          this.remaining = parseInt(size[1]!, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'close':
          onBody(data);
          data = data.subarray(data.length);
          break;
        case 'done':
          this.extra = true;
          return;
      }
    }
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n');
    const statusLine = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: .*)?$/.exec(lines[0]!);
    if (!statusLine) throw new TypeError('fetch failed', { cause: new Error(`not an HTTP/1.1 response: '${lines[0]!.slice(0, 60)}'`) });
    const status = Number(statusLine[2]);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!HEADER_NAME.test(name)) throw new TypeError('fetch failed', { cause: new Error(`a malformed header line in the response: '${line.slice(0, 60)}'`) });
      const key = name.toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
    }
    // 1xx: an interim response (103 Early Hints, say); the real one follows on the same connection.
    if (status < 200) {
      if (status === 101) throw new TypeError('fetch failed', { cause: new Error('the server switched protocols') });
      return;
    }
    this.frame(statusLine[1] === '1', status, headers);
    // Set last: a head whose framing is refused is no response.
    this.head = { status, headers };
  }

  private frame(http11: boolean, status: number, headers: Record<string, string>): void {
    const close = /(?:^|,)\s*close\s*(?:,|$)/i.test(headers.connection ?? '');
    this.keepAlive = http11 && !close;
    if (status === 204 || status === 304) {
      this.state = 'done';
      return;
    }
    const coding = headers['transfer-encoding'];
    if (coding !== undefined) {
      if (coding.trim().toLowerCase() !== 'chunked') throw new TypeError('fetch failed', { cause: new Error(`a transfer coding the client did not ask for: '${coding}'`) });
      // RFC 9112 6.3: chunked wins over a Content-Length beside it, and the connection is not reused.
      if (headers['content-length'] !== undefined) this.keepAlive = false;
      this.state = 'chunk-size';
      return;
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const values = new Set(length.split(',').map((v) => v.trim()));
      const only = values.size === 1 ? [...values][0]! : '';
      if (!/^\d{1,15}$/.test(only)) throw new TypeError('fetch failed', { cause: new Error(`a bad Content-Length in the response: '${length}'`) });
      this.remaining = Number(only);
      this.state = this.remaining === 0 ? 'done' : 'length';
      return;
    }
    this.keepAlive = false;
    this.state = 'close';
  }
}
