// Replays recorded HTTP responses byte for byte on 127.0.0.1, one per request, in order, and
// records what the client sent: the dialect tests feed the real SDKs a server's exact stream and
// then look at the next request. A response's body may be written in pieces of `chunkBytes`
// bytes (a multi-byte UTF-8 character, or an escape inside the arguments JSON, then lands in two
// TCP writes, as it does from a real server), or in the given `pieces`, with `gapMs` between pieces.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReplayResponse {
  status?: number;
  /** Default content type: text/event-stream for a body starting with `data:`/`event:`/`:`, else JSON. */
  headers?: Record<string, string>;
  body: string;
  chunkBytes?: number;
  /** The body's pieces, written one by one (instead of `body` cut every `chunkBytes`). */
  pieces?: string[];
  gapMs?: number;
}

export interface ReplayedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface ReplayServer {
  url: string;
  requests: ReplayedRequest[];
  close(): Promise<void>;
}

/** SSE text from a list of `data:` payloads (objects are JSON-encoded), ending with `data: [DONE]` when asked. */
export function sse(events: Array<object | string>, done = true): string {
  const lines = events.map((e) => (typeof e === 'string' ? `${e}\n\n` : `data: ${JSON.stringify(e)}\n\n`));
  return lines.join('') + (done ? 'data: [DONE]\n\n' : '');
}

export async function startReplayServer(responses: ReplayResponse[]): Promise<ReplayServer> {
  const queue = [...responses];
  const requests: ReplayedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // kept as text
      }
      requests.push({ path: (req.url ?? '').split('?')[0] ?? '', headers: req.headers, body });
      const next = queue.shift();
      if (!next) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: { message: `replay: no response left for request ${requests.length}` } }));
      }
      const streamed = /^(data:|event:|:)/.test(next.body);
      res.writeHead(next.status ?? 200, { 'content-type': streamed ? 'text/event-stream' : 'application/json', ...next.headers });
      const pieces = next.pieces?.map((piece) => Buffer.from(piece, 'utf8')) ?? cut(Buffer.from(next.body, 'utf8'), next.chunkBytes);
      for (const piece of pieces) {
        if (res.destroyed) return;
        res.write(piece);
        if (next.gapMs) await new Promise((r) => setTimeout(r, next.gapMs));
        else if (pieces.length > 1) await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
  });
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function cut(bytes: Buffer, size = bytes.length): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}
