// The providers' HTTP/1.1 client (src/providers/http1.ts) against real sockets: node's own HTTP
// server where a well-behaved server is meant, and raw TCP servers that write exact bytes where
// framing, fragmentation, interim responses, broken responses and closed connections are meant.
// Through the built CLI: a run over TLS against a local HTTPS Gemini endpoint (fake-gemini with
// the fixture certificate, trusted through NODE_EXTRA_CA_CERTS), and a certificate it must refuse.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { post, type Http1Response } from '../../src/providers/http1.js';
import type { ChunkedBody } from '../../src/providers/list-body.js';
import { baseEnv, CLI, removeTempDirs, tempDir } from '../helpers/cli.js';
import { startFakeGemini } from '../helpers/fake-gemini.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});
afterAll(removeTempDirs);

const never = () => new AbortController().signal;
/** `text` as post() takes it, cut into `pieces` chunks (a body ListBody builds comes in several). */
function chunked(text: string, pieces = 1): ChunkedBody {
  const bytes = Buffer.from(text);
  const step = Math.max(1, Math.ceil(bytes.length / pieces));
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += step) chunks.push(bytes.subarray(at, at + step));
  return { chunks, length: bytes.length };
}
/** An empty JSON object, as the bytes post() sends. */
const EMPTY = chunked('{}');

async function text(res: Http1Response): Promise<string> {
  let all = '';
  await res.readText(never(), (piece) => (all += piece));
  return all;
}

/** A TCP server whose every connection gets `onConnection`; counts connections. */
async function rawServer(onConnection: (socket: net.Socket, index: number) => void): Promise<{ url: URL; connections: () => number }> {
  let count = 0;
  const server = net.createServer((socket) => onConnection(socket, count++));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  closers.push(() => sockets.forEach((s) => s.destroy()));
  return { url: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1/x?alt=sse`), connections: () => count };
}

/** Calls `reply` with each whole request (head and body) received on a connection. */
function onRequests(socket: net.Socket, reply: (request: string, n: number) => void): void {
  let buffer = '';
  let n = 0;
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1');
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const request = buffer.slice(0, end + 4 + length);
      buffer = buffer.slice(end + 4 + length);
      reply(request, n++);
    }
  });
}

/** Writes `pieces` one at a time, a few milliseconds apart, so each arrives as its own packet. */
async function trickle(socket: net.Socket, pieces: Array<string | Buffer>): Promise<void> {
  for (const piece of pieces) {
    socket.write(piece);
    await new Promise((r) => setTimeout(r, 3));
  }
}

describe('the providers HTTP/1.1 client', () => {
  it('sends the request as written and keeps one connection for many requests', async () => {
    const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string; port: number }> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ url: req.url!, headers: req.headers, body, port: req.socket.remotePort! });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body.length }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => (server.closeAllConnections(), server.close()));
    const url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1beta/models/m:generateContent?key=k`);
    for (let i = 0; i < 5; i++) {
      const body = JSON.stringify({ turn: i, text: 'héllo ✓'.repeat(1000 * i) });
      const res = await post(url, { 'content-type': 'application/json', 'x-goog-api-key': 'secret' }, chunked(body, i + 1), never());
      expect(res.status).toBe(200);
      expect(JSON.parse(await text(res))).toEqual({ echo: body.length });
    }
    expect(seen.map((s) => s.url)).toEqual(Array(5).fill('/v1beta/models/m:generateContent?key=k'));
    expect(seen[4]!.headers).toMatchObject({ host: url.host, 'content-type': 'application/json', 'x-goog-api-key': 'secret', 'content-length': String(Buffer.byteLength(seen[4]!.body)) });
    expect(new Set(seen.map((s) => s.port)).size).toBe(1);
    // The head is built once per headers object: another object's headers are the ones sent.
    const kept = { 'x-goog-api-key': 'first' };
    await text(await post(url, kept, EMPTY, never()));
    await text(await post(url, kept, EMPTY, never()));
    await text(await post(url, { 'x-goog-api-key': 'second' }, EMPTY, never()));
    expect(seen.slice(5).map((s) => s.headers['x-goog-api-key'])).toEqual(['first', 'first', 'second']);
  });

  it('reads a chunked SSE stream cut at every awkward place, multi-byte characters included', async () => {
    const events = ['data: {"a":"Grüße ✓"}\r\n\r\n', 'data: {"b":"日本語"}\r\n\r\n'];
    const body = Buffer.from(events.join(''), 'utf8');
    const { url } = await rawServer((socket) =>
      onRequests(socket, () => {
        // Chunks of 5 bytes: chunk sizes, CRLFs and UTF-8 sequences all split across packets.
        const wire: Buffer[] = [Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n')];
        for (let i = 0; i < body.length; i += 5) {
          const piece = body.subarray(i, i + 5);
          wire.push(Buffer.concat([Buffer.from(`${piece.length.toString(16)};ext=1\r\n`), piece, Buffer.from('\r\n')]));
        }
        wire.push(Buffer.from('0\r\nx-trailer: yes\r\n\r\n'));
        const bytes = Buffer.concat(wire);
        void trickle(socket, Array.from({ length: Math.ceil(bytes.length / 3) }, (_, i) => bytes.subarray(i * 3, i * 3 + 3)));
      }),
    );
    const res = await post(url, {}, EMPTY, never());
    expect(res.headers['content-type']).toBe('text/event-stream');
    const pieces: string[] = [];
    await res.readText(never(), (piece) => pieces.push(piece));
    expect(pieces.join('')).toBe(events.join(''));
    expect(pieces.join('')).not.toContain('\uFFFD');
  });

  it('skips interim 1xx responses, joins repeated headers, and reads a body that ends with the connection', async () => {
    const { url, connections } = await rawServer((socket) =>
      onRequests(socket, () => {
        void trickle(socket, ['HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n', 'HTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\n\r\n', 'part one, ', 'part two']).then(() => socket.end());
      }),
    );
    const first = await post(url, {}, EMPTY, never());
    expect(first.status).toBe(200);
    expect(first.headers['x-a']).toBe('1, 2');
    expect(await text(first)).toBe('part one, part two');
    // That connection ended with the body: the next request opens another.
    expect(await text(await post(url, {}, EMPTY, never()))).toBe('part one, part two');
    expect(connections()).toBe(2);
  });

  it('says when the request is in the kernel, before the answer, once per attempt', async () => {
    const order: string[] = [];
    const { url } = await rawServer((socket, index) =>
      onRequests(socket, (_request, n) => {
        order.push(`server read ${index}.${n}`);
        if (index === 0 && n === 1) return void socket.destroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }),
    );
    const sent = () => order.push('sent');
    const first = post(url, {}, EMPTY, never(), sent).then((res) => (order.push('answer'), res));
    expect(await text(await first)).toBe('ok');
    expect(order).toEqual(['sent', 'server read 0.0', 'answer']);
    // The second goes out on the kept connection, which the server closes: sent twice, answered once.
    order.length = 0;
    expect(await text(await post(url, {}, EMPTY, never(), sent))).toBe('ok');
    expect(order.filter((step) => step === 'sent')).toHaveLength(2);
  });

  it('sends a request once more on a new connection when the reused one was closed by the server', async () => {
    // The server answers the first request, then closes the connection as soon as the second
    // arrives (its keep-alive time ran out just then): the client never got a byte back.
    const { url, connections } = await rawServer((socket, index) =>
      onRequests(socket, (_request, n) => {
        if (index === 0 && n === 1) return void socket.destroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }),
    );
    expect(await text(await post(url, {}, EMPTY, never()))).toBe('ok');
    expect(await text(await post(url, {}, EMPTY, never()))).toBe('ok');
    expect(connections()).toBe(2);
  });

  it('drops a connection the server closed while it was idle', async () => {
    const { url, connections } = await rawServer((socket) =>
      onRequests(socket, () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        setTimeout(() => socket.end(), 5);
      }),
    );
    expect(await text(await post(url, {}, EMPTY, never()))).toBe('ok');
    await new Promise((r) => setTimeout(r, 50));
    expect(await text(await post(url, {}, EMPTY, never()))).toBe('ok');
    expect(connections()).toBe(2);
  });

  it.each([
    ['a status line that is not HTTP/1.1', 'SPDY/3 200 OK\r\n\r\n', 'fetch failed', /not an HTTP\/1.1 response/],
    ['a malformed header line', 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', 'fetch failed', /malformed header line/],
    ['a transfer coding it did not ask for', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 'fetch failed', /transfer coding/],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok', 'fetch failed', /Content-Length/],
    ['a head over 64 KB', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70_000)}\r\n`, 'fetch failed', /head is over/],
    ['a switch of protocols', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n', 'fetch failed', /switched protocols/],
  ])('refuses %s before the response', async (_name, wire, message, cause) => {
    const { url } = await rawServer((socket) => onRequests(socket, () => socket.write(wire)));
    const error = (await post(url, {}, EMPTY, never()).catch((e: unknown) => e)) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(message);
    expect(String((error.cause as Error).message)).toMatch(cause);
  });

  it.each([
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n', /bad chunk size/],
    ['a chunk without its CRLF', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXY', /does not end with CRLF/],
    ['a body cut off by the connection', 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this', /closed before the response ended/],
  ])('fails the read of %s as terminated, keeping what came before', async (_name, wire, cause) => {
    const { url } = await rawServer((socket) => onRequests(socket, () => void trickle(socket, [wire]).then(() => socket.end())));
    const res = await post(url, {}, EMPTY, never());
    let got = '';
    const error = (await res.readText(never(), (piece) => (got += piece)).catch((e: unknown) => e)) as TypeError;
    expect(error.message).toBe('terminated');
    expect(String((error.cause as Error).message)).toMatch(cause);
    expect(['hello', 'only this']).toContain(got);
  });

  it('ends a request the server never answers when the signal aborts, and a body mid-way', async () => {
    const { url } = await rawServer((socket, index) =>
      onRequests(socket, () => {
        if (index === 1) socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n');
      }),
    );
    const first = new AbortController();
    setTimeout(() => first.abort(new Error('run stopped')), 30);
    const started = Date.now();
    await expect(post(url, {}, EMPTY, first.signal)).rejects.toThrow('run stopped');
    expect(Date.now() - started).toBeLessThan(2_000);
    const second = new AbortController();
    const res = await post(url, {}, EMPTY, second.signal);
    let got = '';
    const reading = res.readText(second.signal, (piece) => {
      got += piece;
      second.abort(new Error('enough'));
    });
    await expect(reading).rejects.toThrow('enough');
    expect(got).toBe('abc');
  });

  it('refuses a header that would split the request, before connecting', async () => {
    const { url, connections } = await rawServer(() => {});
    await expect(post(url, { 'x-a': 'ok\r\nx-injected: 1' }, EMPTY, never())).rejects.toThrow(/invalid value of HTTP header 'x-a'/);
    await expect(post(url, { 'bad name': 'v' }, EMPTY, never())).rejects.toThrow(/invalid HTTP header name/);
    expect(connections()).toBe(0);
  });

  it('says fetch failed with the cause when nothing listens', async () => {
    const { url } = await rawServer(() => {});
    closers.splice(0).forEach((close) => close());
    await new Promise((r) => setTimeout(r, 20));
    const error = (await post(url, {}, EMPTY, never()).catch((e: unknown) => e)) as TypeError;
    expect(error.message).toBe('fetch failed');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });
});

describe('a run over TLS', () => {
  const tls = { key: fs.readFileSync(path.join(FIXTURES, 'localhost.key')), cert: fs.readFileSync(path.join(FIXTURES, 'localhost.crt')) };

  async function runAgainst(extraCa: string | undefined) {
    const gemini = await startFakeGemini([{ text: 'Hello over TLS.' }, { text: 'And again.' }], { tls });
    closers.push(() => void gemini.close());
    const dir = tempDir();
    const env = baseEnv({ GEMINI_API_KEY: 'test', GOOGLE_GEMINI_BASE_URL: gemini.url, NODE_EXTRA_CA_CERTS: extraCa });
    const argv = [CLI, 'run', '--prompt', 'Say hello.', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--model-retries', '1', '--out', path.join(dir, 'out')];
    const r = await execa(process.execPath, argv, { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
    return { r, gemini };
  }

  it('verifies the server against the trusted CAs (NODE_EXTRA_CA_CERTS) and reads its answer', async () => {
    const { r, gemini } = await runAgainst(path.join(FIXTURES, 'localhost.crt'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello over TLS.');
    expect(gemini.requests).toHaveLength(1);
  });

  it('refuses a server whose certificate no trusted CA signed, and says why', async () => {
    const { r, gemini } = await runAgainst(undefined);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/cannot reach https:\/\/localhost:\d+: fetch failed: DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect(gemini.requests).toHaveLength(0);
  });
});
