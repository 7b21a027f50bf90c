// The OpenAI and Anthropic SDKs' transport over node:http, against a raw HTTP server on 127.0.0.1
// that misbehaves as real servers and proxies do with kept-alive connections.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../src/providers/node-fetch.js';

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  // The client's agent keeps its connections open: close them from this side.
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/**
 * Answers `ok` to the first request of each connection and keeps it open (HTTP/1.1 keep-alive,
 * no `connection: close`); `later` decides what the next requests on that connection get.
 */
async function server(later: 'reset' | 'answer', first: 'answer' | 'reset' = 'answer'): Promise<{ url: string; connections: () => number; requests: () => number }> {
  let connections = 0;
  let requests = 0;
  const srv = net.createServer((socket) => {
    sockets.push(socket);
    connections++;
    let onThis = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const head = buffered.indexOf('\r\n\r\n');
        if (head === -1) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, head))?.[1] ?? 0);
        if (buffered.length < head + 4 + length) return;
        buffered = buffered.slice(head + 4 + length);
        requests++;
        const what = onThis++ === 0 ? first : later;
        // A server that closed the connection as the request arrived: no answer, a reset.
        if (what === 'reset') return void socket.resetAndDestroy();
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok');
      }
    });
    socket.on('error', () => {});
  });
  servers.push(srv);
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}/v1/chat/completions`, connections: () => connections, requests: () => requests };
}

const post = (url: string) => nodeFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m"}' });

describe('nodeFetch over kept-alive connections', () => {
  it('sends a request again at once, on a new connection, when the server had closed the kept-alive one under it', async () => {
    const fake = await server('reset');
    for (let i = 0; i < 4; i++) {
      const res = await post(fake.url);
      expect(await res.text()).toBe('ok');
    }
    // Each request after the first met a connection the server closed on it, and was sent again.
    expect(fake.requests()).toBe(7);
    expect(fake.connections()).toBe(4);
  });

  it('reuses a connection the server keeps', async () => {
    const fake = await server('answer');
    for (let i = 0; i < 3; i++) expect(await (await post(fake.url)).text()).toBe('ok');
    expect(fake.connections()).toBe(1);
  });

  it('does not send again when a new connection fails: that is the server, not a stale connection', async () => {
    const fake = await server('reset', 'reset');
    const error = (await post(fake.url).catch((e: unknown) => e)) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    expect(fake.requests()).toBe(1);
  });
});
