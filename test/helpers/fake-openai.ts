// A programmable fake OpenAI-compatible endpoint on 127.0.0.1, for driving the real `openai` SDK
// (and, in end-to-end tests, the spawned CLI with OPENAI_BASE_URL=<url> OPENAI_API_KEY=anything).
//
//   const fake = await startFakeOpenAI([
//     { toolCalls: [{ name: 'ls', arguments: { path: '.' } }] },   // turn 1: a tool call
//     { text: 'Done.', usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 } },
//   ]);
//   ... run against fake.url (ends in /v1) ...
//   fake.requests[1].body.messages   // what the client sent for turn 2
//   await fake.close();
//
// POST {url}/chat/completions consumes one step per request, in order. A request with
// `stream: true` gets SSE: a role chunk, the text and the reasoning split into `pieces` deltas, each
// tool call opened by one delta (index, id, name) and its arguments split over `pieces` more (all
// calls of a step are parallel calls; `interleave` mixes their fragments), a finish chunk, a usage
// chunk when the request asked for `stream_options.include_usage` (as OpenAI does), then
// `data: [DONE]`. Other requests get one `chat.completion` JSON body.
// Faults: {status, retryAfter?, retryAfterMs?, message?} an error response with those headers;
// {hang} never answers (or answers `before`'s chunks and then goes silent); {cut} sends the first
// `keep` chunks of a reply and then ends the response (or `destroy`s the socket) without a
// finish_reason or [DONE]; {empty} a complete answer with no text and no tool calls.
// {raw} answers with exactly that body, content type and status (a web page where the API should be).
// A reply with `noUsage` sends no usage at all, as servers that ignore stream_options do.
// When the steps run out, the fake answers 400 "script exhausted", which fails fast and says why.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

export interface FakeToolCall {
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent as is (so it can be invalid JSON). */
  arguments: string | Record<string, unknown>;
}

export interface FakeReply {
  text?: string;
  /** Streamed as `reasoning_content` (Qwen/DeepSeek/vLLM thinking). */
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  /** Default: 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string;
  usage?: FakeUsage;
  /** How many deltas each text and each argument string is split into (default 3). */
  pieces?: number;
  interleave?: boolean;
  /** Pause between chunks, for tests that act mid-stream. */
  delayMs?: number;
  /** No usage chunk, and no usage in a JSON body (older llama.cpp, some gateways). */
  noUsage?: boolean;
  /** Streamed even to a request that asks for one JSON body (`stream: false`), as a gateway that always streams does. */
  alwaysStreams?: boolean;
}

export type FakeStep =
  | FakeReply
  | { status: number; retryAfter?: string; retryAfterMs?: string; message?: string }
  | { hang: true; before?: FakeReply }
  | { cut: FakeReply; keep?: number; destroy?: boolean }
  | { empty: true }
  | { raw: string; contentType: string; status?: number };

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, without its `?`. */
  query: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it was not JSON. */
  body: any;
}

export interface FakeOpenAI {
  /** Base URL, ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  /** Steps not consumed yet. */
  remaining(): number;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_USAGE: FakeUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

export async function startFakeOpenAI(steps: FakeStep[]): Promise<FakeOpenAI> {
  const queue = [...steps];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let served = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // kept as text: a test may want to see what was sent
      }
      const [path = '', query = ''] = (req.url ?? '').split('?');
      requests.push({ method: req.method ?? '', path, query, headers: req.headers, body });
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        return sendError(res, { status: 404, message: `fake-openai: no route ${req.method} ${path}` });
      }
      const step = queue.shift();
      served += 1;
      if (!step) return sendError(res, { status: 400, message: `fake-openai: script exhausted after ${served - 1} steps` });
      void serve(step, body as RequestBody, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface RequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

async function serve(step: FakeStep, body: RequestBody, res: ServerResponse): Promise<void> {
  const reply0 = 'cut' in step ? step.cut : step;
  const streaming = body?.stream === true || ('alwaysStreams' in reply0 && reply0.alwaysStreams === true);
  const model = body?.model ?? 'fake-model';
  if ('raw' in step) {
    res.writeHead(step.status ?? 200, { 'content-type': step.contentType });
    return void res.end(step.raw);
  }
  if ('status' in step) return sendError(res, step);
  if ('hang' in step) {
    if (step.before && streaming) await writeChunks(res, replyChunks(step.before, model, false).slice(0, -1), step.before);
    return; // silence until the client gives up or the fake is closed
  }
  if ('cut' in step) {
    if (streaming) {
      const all = replyChunks(step.cut, model, false).slice(0, -1);
      await writeChunks(res, all.slice(0, step.keep ?? Math.ceil(all.length / 2)), step.cut);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(JSON.stringify(completion(step.cut, model)).slice(0, 40));
    }
    return void (step.destroy ? res.socket?.destroy() : res.end());
  }
  const reply: FakeReply = 'empty' in step ? { finishReason: 'stop' } : step;
  if (!streaming) {
    // A whole answer takes its time (delayMs) before its first byte, as a real server's does.
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify(completion(reply, model)));
  }
  await writeChunks(res, replyChunks(reply, model, body.stream_options?.include_usage === true && !reply.noUsage), reply);
  res.end('data: [DONE]\n\n');
}

function sendError(res: ServerResponse, step: { status: number; retryAfter?: string; retryAfterMs?: string; message?: string }) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
  if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = step.retryAfterMs;
  res.writeHead(step.status, headers);
  const message = step.message ?? `fake-openai: status ${step.status}`;
  res.end(JSON.stringify({ error: { message, type: 'fake_error', code: String(step.status) } }));
}

async function writeChunks(res: ServerResponse, chunks: object[], reply: FakeReply): Promise<void> {
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  }
}

/** The stream's chunks; the finish chunk is last unless usage follows it. */
function replyChunks(reply: FakeReply, model: string, includeUsage: boolean): object[] {
  const pieces = reply.pieces ?? 3;
  const chunk = (delta: object, finish: string | null = null) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const out: object[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(reply.reasoning ?? '', pieces)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of split(reply.text ?? '', pieces)) out.push(chunk({ content: piece }));
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    open: chunk({ tool_calls: [{ index, id: call.id ?? `call_fake_${index}`, type: 'function', function: { name: call.name, arguments: '' } }] }),
    args: split(argumentsText(call), pieces).map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
  }));
  if (reply.interleave) {
    out.push(...calls.map((c) => c.open));
    for (let i = 0; calls.some((c) => i < c.args.length); i++) out.push(...calls.flatMap((c) => c.args.slice(i, i + 1)));
  } else {
    for (const call of calls) out.push(call.open, ...call.args);
  }
  out.push(chunk({}, finishReason(reply)));
  if (includeUsage) {
    out.push({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage: reply.usage ?? DEFAULT_FAKE_USAGE });
  }
  return out;
}

function completion(reply: FakeReply, model: string): object {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake_${index}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason(reply),
        logprobs: null,
      },
    ],
    ...(reply.noUsage ? {} : { usage: reply.usage ?? DEFAULT_FAKE_USAGE }),
  };
}

function finishReason(reply: FakeReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
}

function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** Splits into up to `n` non-empty pieces on code points, so no surrogate pair is broken. */
function split(text: string, n: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.ceil(chars.length / Math.max(1, n));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
