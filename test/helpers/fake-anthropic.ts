// A programmable fake Anthropic Messages API on 127.0.0.1, driving the real `@anthropic-ai/sdk`
// (and, end to end, the spawned CLI with ANTHROPIC_BASE_URL=<url> ANTHROPIC_API_KEY=anything).
//
// POST {url}/v1/messages consumes one step per request. A streaming request gets the event
// sequence of the Messages API streaming docs (docs.anthropic.com/en/api/messages-streaming):
//   event: message_start        {message: {..., content: [], usage: {input_tokens, cache_*, output_tokens: 1}}}
//   event: content_block_start  {index, content_block: {type: thinking|redacted_thinking|text|tool_use, ...}}
//   event: ping                 (after the first block opens, as the docs show)
//   event: content_block_delta  {index, delta: thinking_delta | signature_delta | text_delta | input_json_delta}
//   event: content_block_stop   {index}
//   event: message_delta        {delta: {stop_reason, stop_sequence}, usage: {output_tokens}}
//   event: message_stop
// Text and tool input JSON are split into `pieces` deltas on UTF-16 code units, so a multi-byte
// character or an escape may be cut between two deltas, as real streams do. Non-streaming
// requests get one Message JSON. Faults: {status, type?, message?, retryAfter?} an HTTP error with
// an Anthropic error body; {streamError: {type, message}, before?} an `event: error` after `before`'s
// first events; {cut: reply, keep?} the first `keep` events, then the response ends; {hang: true}.
// A request the real API refuses (an empty text block, an image over 5 MB of base64, or whose bytes
// are not its media_type, a PNG over 8000 pixels a side, or more than 20 images with one over 2000)
// gets its 400.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface AnthropicToolCall {
  id?: string;
  name: string;
  /** An object is sent as JSON; a string as is. */
  input: Record<string, unknown> | string;
}

export interface AnthropicReply {
  thinking?: { text: string; signature: string };
  redactedThinking?: string;
  text?: string;
  toolCalls?: AnthropicToolCall[];
  /** Blocks of a server tool the API ran itself (server_tool_use, web_search_tool_result), sent whole after the text. */
  serverBlocks?: Array<Record<string, unknown>>;
  /** Default: tool_use when there are tool calls, else end_turn. */
  stopReason?: string;
  usage?: { input_tokens: number; output_tokens: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
  pieces?: number;
  /** SSE comment lines sent before the first event, each after `delayMs` (a slow thinking phase). */
  keepAlive?: number;
  delayMs?: number;
  /** A non-streamed answer is sent only after this long (a long answer, written whole). */
  wholeAfterMs?: number;
  /** Streamed even to a request that asks for one JSON body (`stream: false`), as a gateway that always streams does. */
  alwaysStreams?: boolean;
}

export type AnthropicStep =
  | AnthropicReply
  | { status: number; type?: string; message?: string; retryAfter?: string }
  | { streamError: { type: string; message: string }; before?: AnthropicReply }
  | { cut: AnthropicReply; keep?: number }
  | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeAnthropic {
  /** Base URL without /v1 (as ANTHROPIC_BASE_URL is given). */
  url: string;
  requests: RecordedRequest[];
  remaining(): number;
  close(): Promise<void>;
}

export async function startFakeAnthropic(steps: AnthropicStep[]): Promise<FakeAnthropic> {
  const queue = [...steps];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // kept as text
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ path, headers: req.headers, body });
      if (req.method !== 'POST' || path !== '/v1/messages') return sendError(res, { status: 404, type: 'not_found_error', message: `fake-anthropic: no route ${req.method} ${path}` });
      const refused = requestProblem(body);
      if (refused) return sendError(res, { status: 400, type: 'invalid_request_error', message: refused });
      const step = queue.shift();
      if (!step) return sendError(res, { status: 400, type: 'invalid_request_error', message: `fake-anthropic: script exhausted after ${requests.length - 1} steps` });
      void serve(step, body, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What the real API refuses in a request's messages, in its words (null: nothing). */
function requestProblem(body: { messages?: unknown }): string | null {
  if (!Array.isArray(body?.messages)) return null;
  for (const [i, message] of (body.messages as Array<{ content?: unknown }>).entries()) {
    if (!Array.isArray(message.content)) continue;
    const texts = (message.content as Array<{ type?: string; text?: unknown }>).filter((block) => block.type === 'text' && typeof block.text === 'string');
    if (texts.some((block) => block.text === '')) return `messages.${i}: text content blocks must be non-empty`;
    // A blank block passes beside a block of real text; alone it is refused (what a model's "\n\n" before a tool call meets).
    if (texts.length > 0 && texts.every((block) => (block.text as string).trim() === '')) return 'messages: text content blocks must contain non-whitespace text';
    const tooBig = oversizedImage(message.content as unknown[], `messages.${i}.content`);
    if (tooBig) return tooBig;
  }
  // A last assistant message (a prefill, or a paused turn sent back) may not end in white space.
  const last = (body.messages as Array<{ role?: string; content?: unknown }>).at(-1);
  const lastBlock = last?.role === 'assistant' && Array.isArray(last.content) ? (last.content.at(-1) as { type?: string; text?: unknown } | undefined) : undefined;
  if (lastBlock?.type === 'text' && typeof lastBlock.text === 'string' && lastBlock.text !== lastBlock.text.trimEnd()) return 'messages: final assistant content cannot end with trailing whitespace';
  // More than 20 images: none may be over 2000 pixels a side (anthropics/claude-code#9375).
  const images = (body.messages as Array<{ content?: unknown }>).flatMap((m) => imagesIn(Array.isArray(m.content) ? m.content : []));
  if (images.length > 20 && images.some((data) => pngSide(data) > 2000)) return 'messages.1.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels';
  return null;
}

function imagesIn(blocks: unknown[]): string[] {
  return (blocks as Array<{ type?: string; source?: { data?: unknown }; content?: unknown }>).flatMap((block) =>
    block?.type === 'image' && typeof block.source?.data === 'string' ? [block.source.data] : block?.type === 'tool_result' && Array.isArray(block.content) ? imagesIn(block.content) : [],
  );
}

/** The longer side of a PNG, from its IHDR (0 for another image). */
function pngSide(data: string): number {
  const head = Buffer.from(data.slice(0, 32), 'base64');
  return head.length >= 24 && head.toString('latin1', 12, 16) === 'IHDR' ? Math.max(head.readUInt32BE(16), head.readUInt32BE(20)) : 0;
}

/** The image type base64 data's first bytes say, as the API checks it. */
function bytesSay(data: string): string | null {
  const head = Buffer.from(data.slice(0, 16), 'base64');
  if (head.subarray(0, 4).toString('hex') === '89504e47') return 'image/png';
  if (head.subarray(0, 3).toString('hex') === 'ffd8ff') return 'image/jpeg';
  if (head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** An image over the API's 5 MB of base64, at the top of a message or in a tool result, in its words (anthropics/claude-code#13381). */
function oversizedImage(blocks: unknown[], at: string): string | null {
  for (const [j, block] of (blocks as Array<{ type?: string; source?: { data?: unknown }; content?: unknown }>).entries()) {
    const size = typeof block?.source?.data === 'string' ? block.source.data.length : 0;
    if (block?.type === 'image' && size > 5 * 1024 * 1024) return `${at}.${j}.image.source.base64: image exceeds 5 MB maximum: ${size} bytes > 5242880 bytes`;
    if (block?.type === 'image' && typeof block.source?.data === 'string' && pngSide(block.source.data) > 8000) {
      return `${at}.${j}.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels`;
    }
    // anthropics/claude-code#12009: a PNG sent as image/jpeg.
    const source = block?.source as { media_type?: string; data?: string } | undefined;
    if (block?.type === 'image' && typeof source?.data === 'string' && bytesSay(source.data) !== source.media_type) {
      return `${at}.${j}.image.source.base64.data: Image does not match the provided media type ${source.media_type}`;
    }
    if (block?.type === 'tool_result' && Array.isArray(block.content)) {
      const inner = oversizedImage(block.content, `${at}.${j}.tool_result.content`);
      if (inner) return inner;
    }
  }
  return null;
}

async function serve(step: AnthropicStep, body: { stream?: boolean; model?: string }, res: ServerResponse): Promise<void> {
  const model = body?.model ?? 'claude-fake';
  if ('status' in step) return sendError(res, step);
  if ('hang' in step) return;
  if ('streamError' in step) {
    const events = step.before ? replyEvents(step.before, model).slice(0, 3) : [];
    await writeEvents(res, [...events, ['error', { type: 'error', error: step.streamError }]], {});
    return void res.end();
  }
  if ('cut' in step) {
    const events = replyEvents(step.cut, model);
    await writeEvents(res, events.slice(0, step.keep ?? Math.ceil(events.length / 2)), step.cut);
    return void res.end();
  }
  if (body?.stream !== true && !step.alwaysStreams) {
    if (step.wholeAfterMs) await new Promise((r) => setTimeout(r, step.wholeAfterMs));
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify(wholeMessage(step, model)));
  }
  await writeEvents(res, replyEvents(step, model), step);
  res.end();
}

function sendError(res: ServerResponse, step: { status: number; type?: string; message?: string; retryAfter?: string }): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': 'req_fake' };
  if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
  res.writeHead(step.status, headers);
  res.end(JSON.stringify({ type: 'error', error: { type: step.type ?? 'api_error', message: step.message ?? `fake-anthropic: status ${step.status}` } }));
}

type SseEvent = [string, object];

async function writeEvents(res: ServerResponse, events: SseEvent[], reply: Pick<AnthropicReply, 'keepAlive' | 'delayMs'>): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (let i = 0; i < (reply.keepAlive ?? 0); i++) {
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    res.write(': keep-alive\n\n');
  }
  for (const [name, data] of events) {
    if (res.destroyed) return;
    res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    if (reply.delayMs && !reply.keepAlive) await new Promise((r) => setTimeout(r, reply.delayMs));
  }
}

function usageOf(reply: AnthropicReply) {
  return { input_tokens: 25, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...reply.usage };
}

function stopReason(reply: AnthropicReply): string {
  return reply.stopReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn');
}

function inputText(call: AnthropicToolCall): string {
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
}

export function replyEvents(reply: AnthropicReply, model: string): SseEvent[] {
  const pieces = reply.pieces ?? 3;
  const usage = usageOf(reply);
  const events: SseEvent[] = [
    ['message_start', { type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
  ];
  let index = 0;
  const block = (start: object, deltas: object[]) => {
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    if (index === 0) events.push(['ping', { type: 'ping' }]);
    for (const delta of deltas) events.push(['content_block_delta', { type: 'content_block_delta', index, delta }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  };
  if (reply.thinking) {
    const { text, signature } = reply.thinking;
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...split(text, pieces).map((t) => ({ type: 'thinking_delta', thinking: t })),
      { type: 'signature_delta', signature },
    ]);
  }
  if (reply.redactedThinking) block({ type: 'redacted_thinking', data: reply.redactedThinking }, []);
  if (reply.text) block({ type: 'text', text: '' }, split(reply.text, pieces).map((t) => ({ type: 'text_delta', text: t })));
  for (const server of reply.serverBlocks ?? []) block(server, []);
  (reply.toolCalls ?? []).forEach((call, i) => {
    block(
      { type: 'tool_use', id: call.id ?? `toolu_fake_${i}`, name: call.name, input: {} },
      split(inputText(call), pieces).map((p) => ({ type: 'input_json_delta', partial_json: p })),
    );
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

function wholeMessage(reply: AnthropicReply, model: string): object {
  const content: object[] = [];
  if (reply.thinking) content.push({ type: 'thinking', thinking: reply.thinking.text, signature: reply.thinking.signature });
  if (reply.redactedThinking) content.push({ type: 'redacted_thinking', data: reply.redactedThinking });
  if (reply.text) content.push({ type: 'text', text: reply.text });
  content.push(...(reply.serverBlocks ?? []));
  (reply.toolCalls ?? []).forEach((call, i) =>
    content.push({ type: 'tool_use', id: call.id ?? `toolu_fake_${i}`, name: call.name, input: typeof call.input === 'string' ? JSON.parse(call.input) : call.input }),
  );
  return { id: 'msg_fake', type: 'message', role: 'assistant', model, content, stop_reason: stopReason(reply), stop_sequence: null, usage: usageOf(reply) };
}

/** Up to `n` pieces cut on UTF-16 code units: a surrogate pair or an escape may straddle two. */
function split(text: string, n: number): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / Math.max(1, n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
