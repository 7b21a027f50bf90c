// A programmable fake of the Gemini API on 127.0.0.1, speaking the real wire protocol, so tests
// drive the real @google/genai client (and the built CLI, via GOOGLE_GEMINI_BASE_URL=<url>).
//
//   const fake = await startFakeGemini([
//     { status: 429, retryAfter: 1 },                      // a fault...
//     { calls: [{ name: 'ls', args: { path: '/ws' } }] },  // ...then a function call
//     { text: 'All done.', usage: { input: 120, output: 8 } },
//   ]);
//   // env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.url }
//   fake.requests[0].body.contents  // parsed JSON bodies, headers, byte sizes
//   await fake.close();
//
// Endpoints (also under Vertex AI's /v1beta1/projects/{p}/locations/{l}/publishers/google/ prefix):
// POST /v1beta/models/{model}:streamGenerateContent?alt=sse (SSE: `data: {...}\n\n`
// chunks; text split over several chunks, each function call in its own chunk, usageMetadata and
// finishReason on the last) and POST /v1beta/models/{model}:generateContent (one JSON response).
// Anything else is a 404 with a Gemini-shaped error body.
//
// Steps are consumed one per model request, in order (so "500 then success" is two steps). A
// request after the last step gets a 400 "script exhausted" error: never retried, so a test that
// makes one request too many fails fast and says why. Faults:
//   {status: 429, retryAfter?: 2, retryDelay?: '2s'}  HTTP error with a Gemini error body
//                                                     (Retry-After header / RetryInfo detail)
//   {hang: true}                                       accept the request and never answer
//   {hang: true, partialText: 'Working'}               send headers and one chunk, then stall
//   {cut: true, partialText?}                          stream a chunk, then destroy the socket in
//                                                      the middle of a functionCall event
//   {cut: 'clean', partialText?}                       stream a chunk, end without finishReason
//   {empty: true}                                      a candidate with no parts (finishReason STOP)
//   {raw: 'data: ...\n\n', status?: 200}               send these bytes verbatim (escape hatch)
// close() destroys every open connection, hanging ones included.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface FakeCall {
  name: string;
  /** Sent as-is, so a test can send malformed (non-object) arguments too. Omitted when undefined. */
  args?: unknown;
  id?: string;
}

export interface FakeReply {
  text?: string;
  calls?: FakeCall[];
  /** Defaults: input ≈ request bytes / 4, output ≈ reply size / 4. */
  usage?: { input: number; output: number; cached?: number; thoughts?: number };
  finishReason?: string;
  /** How many SSE chunks the text is split into (default 3, fewer for very short text). */
  textChunks?: number;
  /** Pause between SSE chunks (default 0). */
  chunkDelayMs?: number;
  /** A thought part sent before the text, with an optional signature. */
  thought?: string;
  thoughtSignature?: string;
}

export type FakeFault =
  | { status: number; retryAfter?: number | string; retryDelay?: string; message?: string }
  | { hang: true; partialText?: string }
  | { cut: true | 'clean'; partialText?: string }
  | { empty: true }
  | { raw: string; status?: number; contentType?: string };

export type FakeStep = FakeReply | FakeFault;

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  url: string;
  model: string;
  stream: boolean;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (null when it was not JSON). */
  body: any;
  /** Size of the raw request body in bytes. */
  bytes: number;
  /** Client port: equal ports mean a reused (keep-alive) connection. */
  remotePort: number;
}

export interface FakeGemini {
  /** Base URL for GOOGLE_GEMINI_BASE_URL / httpOptions.baseUrl, e.g. `http://127.0.0.1:43121`. */
  url: string;
  requests: RecordedRequest[];
  /** Steps not consumed yet. */
  remaining(): number;
  close(): Promise<void>;
}

// The Gemini API's path, and Vertex AI's (/v1beta1/projects/P/locations/L/publishers/google/models/M:...).
const ROUTE = /^\/(?:v1beta|v1beta1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google)\/models\/([^/:?]+):(streamGenerateContent|generateContent)(?:\?.*)?$/;
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** `tls`: serve HTTPS with this key and certificate, at https://localhost:PORT. */
export async function startFakeGemini(script: FakeStep[], opts: { tls?: { key: string | Buffer; cert: string | Buffer } } = {}): Promise<FakeGemini> {
  const steps = [...script];
  const requests: RecordedRequest[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const match = req.method === 'POST' ? ROUTE.exec(req.url ?? '') : null;
      if (!match) {
        sendError(res, 404, `fake-gemini: no route for ${req.method} ${req.url}`);
        return;
      }
      let body: any = null;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        // recorded as null; the step still runs so a test can see what was sent
      }
      const stream = match[2] === 'streamGenerateContent';
      requests.push({ method: req.method!, url: req.url!, model: match[1]!, stream, headers: req.headers, body, bytes: raw.length, remotePort: req.socket.remotePort ?? 0 });
      // The API takes images of these types only (ai.google.dev image-understanding, supported formats).
      const image = (body?.contents ?? []).flatMap((c: any) => c.parts ?? []).find((p: any) => /^image\//.test(p.inlineData?.mimeType ?? '') && !/^image\/(png|jpeg|webp|heic|heif)$/.test(p.inlineData.mimeType));
      if (image) {
        sendError(res, 400, `Unsupported MIME type: ${image.inlineData.mimeType}`);
        return;
      }
      const step = steps.shift();
      if (!step) {
        sendError(res, 400, `fake-gemini: script exhausted after ${requests.length - 1} request(s)`);
        return;
      }
      void play(step, res, stream, raw.length);
    });
  };
  const server = opts.tls ? https.createServer(opts.tls, handler) : http.createServer(handler);
  // Clients (undici) discount a second from the server's keep-alive hint; a short one would cost a
  // new connection per request. close() ends idle connections anyway.
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: opts.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    requests,
    remaining: () => steps.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function play(step: FakeStep, res: http.ServerResponse, stream: boolean, requestBytes: number): Promise<void> {
  if ('status' in step && !('raw' in step)) return sendError(res, step.status, step.message, step);
  if ('raw' in step) {
    res.writeHead(step.status ?? 200, { 'content-type': step.contentType ?? (stream ? 'text/event-stream' : 'application/json') });
    res.end(step.raw);
    return;
  }
  if ('hang' in step) {
    // Never answering is the point; close() tears the socket down.
    if (step.partialText === undefined) return;
    startBody(res, stream);
    if (stream) res.write(sse(candidateChunk([{ text: step.partialText }])));
    return;
  }
  if ('cut' in step) {
    startBody(res, stream);
    if (stream && step.partialText !== undefined) res.write(sse(candidateChunk([{ text: step.partialText }])));
    if (step.cut === 'clean') {
      res.end();
      return;
    }
    // Half of an event that carries a function call: no `\n\n`, then the connection dies.
    res.write(`data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"write_file","args":{"file_pa`);
    setTimeout(() => res.socket?.destroy(), 10);
    return;
  }
  if ('empty' in step) {
    const chunk = { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }], usageMetadata: usageOf(undefined, requestBytes, 0) };
    startBody(res, stream);
    res.end(stream ? sse(chunk) : JSON.stringify(chunk));
    return;
  }
  await reply(step, res, stream, requestBytes);
}

async function reply(step: FakeReply, res: http.ServerResponse, stream: boolean, requestBytes: number): Promise<void> {
  const partGroups: object[][] = [];
  if (step.thought !== undefined) {
    const part: Record<string, unknown> = { text: step.thought, thought: true };
    if (step.thoughtSignature) part.thoughtSignature = step.thoughtSignature;
    partGroups.push([part]);
  }
  for (const piece of splitText(step.text ?? '', step.textChunks ?? 3)) partGroups.push([{ text: piece }]);
  for (const call of step.calls ?? []) {
    const functionCall: Record<string, unknown> = { name: call.name };
    if (call.args !== undefined) functionCall.args = call.args;
    if (call.id !== undefined) functionCall.id = call.id;
    partGroups.push([{ functionCall }]);
  }
  const replySize = JSON.stringify(partGroups).length;
  const usage = usageOf(step.usage, requestBytes, replySize);
  const finishReason = step.finishReason ?? 'STOP';
  if (!stream) {
    // One response carries the text whole, as the real unary endpoint does.
    const parts = partGroups.flat().filter((p: any) => p.thought || p.text === undefined);
    if (step.text) parts.splice(step.thought !== undefined ? 1 : 0, 0, { text: step.text });
    const body = { candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }], usageMetadata: usage, modelVersion: 'fake-gemini' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return;
  }
  startBody(res, true);
  if (partGroups.length === 0) partGroups.push([{ text: '' }]);
  for (let i = 0; i < partGroups.length; i++) {
    const last = i === partGroups.length - 1;
    const chunk: Record<string, any> = candidateChunk(partGroups[i]!);
    if (last) {
      chunk.candidates[0].finishReason = finishReason;
      chunk.usageMetadata = usage;
    } else {
      chunk.usageMetadata = { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount };
    }
    if (res.destroyed) return;
    res.write(sse(chunk));
    if (!last && step.chunkDelayMs) await new Promise((r) => setTimeout(r, step.chunkDelayMs));
  }
  res.end();
}

function startBody(res: http.ServerResponse, stream: boolean): void {
  res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
  // Headers go out now, as a real server's would, before the first chunk.
  res.flushHeaders();
}

function candidateChunk(parts: object[]): Record<string, any> {
  return { candidates: [{ content: { role: 'model', parts }, index: 0 }], modelVersion: 'fake-gemini' };
}

function sse(obj: unknown): string {
  return `data: ${JSON.stringify(obj)}\r\n\r\n`;
}

function splitText(text: string, pieces: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function usageOf(usage: FakeReply['usage'], requestBytes: number, replySize: number) {
  const input = usage?.input ?? Math.ceil(requestBytes / 4);
  const output = usage?.output ?? Math.ceil(replySize / 4);
  const thoughts = usage?.thoughts ?? 0;
  const meta: Record<string, number> = {
    promptTokenCount: input,
    candidatesTokenCount: output,
    totalTokenCount: input + output + thoughts,
  };
  if (thoughts) meta.thoughtsTokenCount = thoughts;
  if (usage?.cached !== undefined) meta.cachedContentTokenCount = usage.cached;
  return meta as { promptTokenCount: number } & Record<string, number>;
}

function sendError(
  res: http.ServerResponse,
  status: number,
  message: string | undefined,
  fault?: { retryAfter?: number | string; retryDelay?: string },
): void {
  const error: Record<string, unknown> = {
    code: status,
    message: message ?? `fake-gemini: HTTP ${status}`,
    status: STATUS_NAMES[status] ?? 'UNKNOWN',
  };
  if (fault?.retryDelay) {
    error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: fault.retryDelay }];
  }
  const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json; charset=UTF-8' };
  if (fault?.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error }));
}
