// A model with a context window, on 127.0.0.1, in each provider's wire protocol (OpenAI chat
// completions, Anthropic messages, Gemini streamGenerateContent; all streamed as SSE), for the
// real clients and the built CLI. It refuses any request body past `maxBytes` the way the chosen
// provider says "too long" (an HTTP error or an error event inside the stream), and refuses, as
// each provider does, a tool result whose call is not in the message before it, or a call left
// without its result (`wireErrors`).
//
// The model follows a chain of files: each says `VALUE-k=v` and `NEXT: <file>` (or `NEXT: END`) on
// its first lines. It reads the first file, then the file the last result names (with `parallel`,
// another file beside it in the same turn), and at END answers `SUM=<the sum of every VALUE it can
// still see>`: right only when the values of the turns compaction removed reached it through the
// summary. Asked for a summary (the runner's SUMMARY_REQUEST), it lists every VALUE it sees.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SUMMARY_REQUEST } from '../../src/loop/compaction-history.js';

export type WireProtocol = 'openai' | 'anthropic' | 'gemini';

/**
 * How a too-long request is refused: an HTTP error, an error event after the stream started, or
 * (Anthropic) an answer the full window ended before a word, stop_reason model_context_window_exceeded,
 * billed for its input.
 */
export type TooLong = { status: number; body: (tokens: number, window: number) => unknown } | { streamError: (tokens: number, window: number) => unknown } | { windowFull: true };

export interface WindowedModelOptions {
  protocol: WireProtocol;
  maxBytes: number;
  /** Default: the provider's own HTTP refusal. */
  tooLong?: TooLong;
  /** The workspace the files are in (for read_file's absolute path). */
  workspace: () => string;
  /** Read a second file (`pad-<n>.txt`) beside each chain file, in the same turn. */
  parallel?: boolean;
  /** Keep the bodies of the requests answered (`bodies`). */
  keepBodies?: boolean;
  /** Replies to summary requests, in order, before the model's own (e.g. a 500, an empty text). */
  summaryFaults?: Array<{ status: number; message: string } | { text: string; stopReason?: string }>;
  /** The input tokens the usage reports for a request of `tokens` (bytes / 4); default: those. */
  reportedTokens?: (tokens: number) => number;
  /** Text streamed before a refusal sent as an error event (a refusal mid-stream). */
  textBeforeError?: string;
  /** Offered `task`, hand the chain to a sub-agent this many times over, one after another, and answer what the last one answers. */
  viaTask?: number;
  /** With viaTask: the agent follows the chain itself first, and hands it to the sub-agents at its END. */
  readsFirst?: boolean;
  /**
   * (openai) A self-hosted server asked with no output cap (vLLM, llama.cpp): an answer needs this
   * many tokens, and a request that leaves less room in the window (maxBytes / 4) is answered with
   * what fits, a part of it, ended by finish_reason "length"; its counts add up to the window.
   */
  answerRoom?: number;
  /**
   * (openai) Count the request's output cap (max_tokens or max_completion_tokens) into the window
   * with the request, as vLLM and OpenAI do: a request whose size and cap pass it is refused
   * ("However, you requested N tokens (M in the messages, C in the completion)").
   */
  capInWindow?: boolean;
}

export interface WindowedModel {
  url: string;
  /** Every request's body size; refused ones too. */
  sizes: number[];
  refused: number;
  /** Answers ended by finish_reason "length" (answerRoom). */
  lengthStops: number;
  summaries: number;
  wireErrors: string[];
  /** The bodies of the requests answered, with keepBodies. */
  bodies: string[];
  close(): Promise<void>;
}

export const DEFAULT_TOO_LONG: Record<WireProtocol, TooLong> = {
  openai: {
    status: 400,
    body: (tokens, window) => ({ error: { message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }),
  },
  anthropic: { status: 400, body: (tokens, window) => ({ type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${window} maximum` } }) },
  gemini: { status: 400, body: (tokens, window) => ({ error: { code: 400, message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`, status: 'INVALID_ARGUMENT' } }) },
};

/** A chain file: its value and the next file first, then `padLines` lines of filler. */
export function chainFile(k: number, count: number, padLines = 40): string {
  const next = k + 1 < count ? `f${k + 1}.txt` : 'END';
  return [`VALUE-${k}=${k * 7 + 3}`, `NEXT: ${next}`, ...Array.from({ length: padLines }, (_, i) => `filler ${k}.${i} ${'x'.repeat(60)}`)].join('\n');
}

export function chainSum(count: number): number {
  let sum = 0;
  for (let k = 0; k < count; k++) sum += k * 7 + 3;
  return sum;
}

interface Reply {
  text?: string;
  /** Anthropic's stop_reason or Gemini's finishReason (default: tool_use or end_turn; STOP). */
  stopReason?: string;
  calls?: Array<{ name: string; args: Record<string, unknown> }>;
}

export async function startWindowedModel(opts: WindowedModelOptions): Promise<WindowedModel> {
  const model: WindowedModel = { url: '', sizes: [], refused: 0, lengthStops: 0, summaries: 0, wireErrors: [], bodies: [], close: async () => {} };
  const sockets = new Set<Socket>();
  const summaryFaults = [...(opts.summaryFaults ?? [])];
  let callCounter = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      model.sizes.push(raw.length);
      const body = JSON.parse(raw.toString('utf8')) as any;
      const window = Math.floor(opts.maxBytes / 4);
      const cap = opts.capInWindow ? Number(body.max_tokens ?? body.max_completion_tokens ?? 0) : 0;
      if (cap > 0 && Math.ceil(raw.length / 4) + cap > window) {
        model.refused++;
        const tokens = Math.ceil(raw.length / 4);
        const message = `This model's maximum context length is ${window} tokens. However, you requested ${tokens + cap} tokens (${tokens} in the messages, ${cap} in the completion). Please reduce the length of the messages or completion.`;
        return json(res, 400, { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } });
      }
      if (raw.length > opts.maxBytes) {
        model.refused++;
        const tooLong = opts.tooLong ?? DEFAULT_TOO_LONG[opts.protocol];
        const tokens = Math.ceil(raw.length / 4);
        if ('status' in tooLong) return json(res, tooLong.status, tooLong.body(tokens, window));
        if ('windowFull' in tooLong) return stream(res, opts.protocol, { stopReason: 'model_context_window_exceeded' }, [], opts.reportedTokens?.(tokens) ?? tokens);
        return streamError(res, opts.protocol, tooLong.streamError(tokens, window), opts.textBeforeError);
      }
      const wire = wireError(opts.protocol, body);
      if (wire) {
        model.wireErrors.push(wire);
        return json(res, 400, errorBody(opts.protocol, wire));
      }
      const tokensIn = Math.ceil(raw.length / 4);
      if (opts.answerRoom !== undefined && tokensIn + opts.answerRoom > window) {
        model.lengthStops++;
        return lengthStop(res, tokensIn, window - tokensIn, ++callCounter);
      }
      const all = JSON.stringify(body);
      if (opts.keepBodies) model.bodies.push(all);
      const last = lastUserText(opts.protocol, body);
      let reply: Reply;
      if (last.includes(SUMMARY_REQUEST.slice(0, 60))) {
        model.summaries++;
        const fault = summaryFaults.shift();
        if (fault && 'status' in fault) return json(res, fault.status, errorBody(opts.protocol, fault.message));
        const { sum, through } = tally(all);
        reply = fault ?? { text: `SUMMARY: the values of f0.txt to f${through}.txt add up to RUNNING=${sum} THROUGH=${through}.` };
      } else {
        const next = /NEXT: ([\w.-]+)/.exec(last)?.[1];
        const read = (name: string) => ({ name: 'read_file', args: { absolute_path: `${opts.workspace()}/${name}` } });
        const readNext = (): Reply => {
          const file = next ?? 'f0.txt';
          return { calls: opts.parallel ? [read(file), read(`pad-${file}`)] : [read(file)] };
        };
        if (opts.viaTask && toolNames(opts.protocol, body).includes('task')) {
          const answers = [...all.matchAll(/SUM=\d+/g)];
          const task = { name: 'task', args: { description: 'follow the chain', prompt: 'Follow the chain from f0.txt and answer SUM=<the sum of the values>.' } };
          if (opts.readsFirst && answers.length === 0 && next !== 'END') reply = readNext();
          else reply = answers.length >= opts.viaTask ? { text: answers.at(-1)![0] } : { calls: [task] };
        } else if (next === 'END') reply = { text: `SUM=${tally(all).sum}` };
        else reply = readNext();
      }
      const ids = (reply.calls ?? []).map(() => `call_${++callCounter}`);
      const tokens = Math.ceil(raw.length / 4);
      stream(res, opts.protocol, reply, ids, opts.reportedTokens?.(tokens) ?? tokens);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  model.url = opts.protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  model.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return model;
}

/**
 * What the model knows: the running sum of an earlier summary (`RUNNING=s THROUGH=k`, the values of
 * files 0 to k), plus every `VALUE-j=v` in view past k.
 */
function tally(text: string): { sum: number; through: number } {
  let sum = 0;
  let through = -1;
  for (const found of text.matchAll(/RUNNING=(\d+) THROUGH=(-?\d+)/g)) {
    if (Number(found[2]) > through) [sum, through] = [Number(found[1]), Number(found[2])];
  }
  let last = through;
  for (const [k, v] of valuesIn(text)) {
    if (k <= through) continue;
    sum += v;
    last = Math.max(last, k);
  }
  return { sum, through: last };
}

/** Every `VALUE-k=v` in the text (JSON-escaped or not), by k. */
function valuesIn(text: string): Map<number, number> {
  const values = new Map<number, number>();
  for (const found of text.matchAll(/VALUE-(\d+)=(\d+)/g)) values.set(Number(found[1]), Number(found[2]));
  return values;
}

/** The names of the tools the request offers. */
function toolNames(protocol: WireProtocol, body: any): string[] {
  if (protocol === 'openai') return (body.tools ?? []).map((t: any) => t.function?.name);
  if (protocol === 'anthropic') return (body.tools ?? []).map((t: any) => t.name);
  return (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((d: any) => d.name));
}

/** The text of what follows the last model message: the latest results (or the prompt). */
function lastUserText(protocol: WireProtocol, body: any): string {
  if (protocol === 'openai') {
    const messages: any[] = body.messages;
    const from = messages.map((m) => m.role).lastIndexOf('assistant');
    return JSON.stringify(messages.slice(from + 1));
  }
  const list: any[] = protocol === 'anthropic' ? body.messages : body.contents;
  return JSON.stringify(list.at(-1));
}

/** What the provider refuses about a conversation's calls and results, or null. */
function wireError(protocol: WireProtocol, body: any): string | null {
  if (protocol === 'openai') {
    const messages: any[] = body.messages;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      if (message.role === 'tool') {
        let j = i;
        while (j > 0 && messages[j - 1].role === 'tool') j--;
        const owner = messages[j - 1];
        if (owner?.role !== 'assistant' || !(owner.tool_calls ?? []).some((c: any) => c.id === message.tool_call_id)) {
          return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
        }
      }
      if (message.role === 'assistant' && message.tool_calls?.length) {
        const answered = new Set<string>();
        for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; j++) answered.add(messages[j].tool_call_id);
        const open = message.tool_calls.find((c: any) => !answered.has(c.id));
        if (open) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.id}`;
      }
    }
    return null;
  }
  if (protocol === 'anthropic') {
    const messages: any[] = body.messages;
    if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';
    for (let i = 0; i < messages.length; i++) {
      const blocks = (m: any): any[] => (Array.isArray(m?.content) ? m.content : []);
      const uses = new Set(blocks(messages[i - 1]).filter((b) => b.type === 'tool_use').map((b) => b.id));
      for (const block of blocks(messages[i])) {
        if (block.type === 'tool_result' && !(messages[i - 1]?.role === 'assistant' && uses.has(block.tool_use_id))) {
          return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
      if (messages[i].role === 'assistant') {
        const results = new Set(blocks(messages[i + 1]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
        const open = blocks(messages[i]).find((b) => b.type === 'tool_use' && !results.has(b.id));
        if (open) return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${open.id}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
    return null;
  }
  const contents: any[] = body.contents;
  for (let i = 0; i < contents.length; i++) {
    const calls = (contents[i].parts ?? []).filter((p: any) => p.functionCall).length;
    const responses = (contents[i + 1]?.parts ?? []).filter((p: any) => p.functionResponse).length;
    if (contents[i].role === 'model' && calls !== responses) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
    const answers = (contents[i].parts ?? []).filter((p: any) => p.functionResponse).length;
    if (answers > 0 && contents[i - 1]?.role !== 'model') {
      return 'Please ensure that function response turn comes immediately after a function call turn.';
    }
  }
  return null;
}

function errorBody(protocol: WireProtocol, message: string): unknown {
  if (protocol === 'anthropic') return { type: 'error', error: { type: 'invalid_request_error', message } };
  if (protocol === 'gemini') return { error: { code: 400, message, status: 'INVALID_ARGUMENT' } };
  return { error: { message, type: 'invalid_request_error', param: 'messages', code: null } };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A stream that starts, then fails with the provider's error event. */
function streamError(res: ServerResponse, protocol: WireProtocol, error: unknown, text?: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (protocol === 'anthropic') {
    const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    res.write(event('message_start', { message: { id: 'msg_x', type: 'message', role: 'assistant', content: [], model: 'm', stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }));
    if (text) res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) + event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
    res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error })}\n\n`);
  } else if (protocol === 'openai') {
    res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: text ?? '' }, finish_reason: null }] })}\n\n`);
    res.end(`data: ${JSON.stringify({ error })}\n\n`);
  } else {
    if (text) res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], modelVersion: 'm' })}\n\n`);
    res.end(`data: ${JSON.stringify({ error })}\n\n`);
  }
}

/** (openai) What fitted of an answer: a word, then a read_file call whose arguments the full window cut off, finish_reason "length". */
function lengthStop(res: ServerResponse, inputTokens: number, outputTokens: number, id: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  let out = chunk({ role: 'assistant', content: 'Reading the next file. ' });
  out += chunk({ tool_calls: [{ index: 0, id: `call_${id}`, type: 'function', function: { name: 'read_file', arguments: '{"absolute_path": "/ws/f' } }] });
  out += chunk({}, 'length');
  out += `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens } })}\n\n`;
  res.end(`${out}data: [DONE]\n\n`);
}

function stream(res: ServerResponse, protocol: WireProtocol, reply: Reply, ids: string[], inputTokens: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const calls = reply.calls ?? [];
  if (protocol === 'openai') {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let out = chunk({ role: 'assistant', content: '' });
    if (reply.text) out += chunk({ content: reply.text });
    calls.forEach((call, index) => (out += chunk({ tool_calls: [{ index, id: ids[index], type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] })));
    out += chunk({}, calls.length ? 'tool_calls' : 'stop');
    out += `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: inputTokens, completion_tokens: 10, total_tokens: inputTokens + 10 } })}\n\n`;
    return void res.end(`${out}data: [DONE]\n\n`);
  }
  if (protocol === 'anthropic') {
    const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    let out = event('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'm', stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } });
    const blocks: Array<[object, object]> = reply.text !== undefined ? [[{ type: 'text', text: '' }, { type: 'text_delta', text: reply.text }]] : [];
    calls.forEach((call, i) => blocks.push([{ type: 'tool_use', id: ids[i], name: call.name, input: {} }, { type: 'input_json_delta', partial_json: JSON.stringify(call.args) }]));
    blocks.forEach(([start, delta], index) => {
      out += event('content_block_start', { index, content_block: start }) + event('content_block_delta', { index, delta }) + event('content_block_stop', { index });
    });
    out += event('message_delta', { delta: { stop_reason: reply.stopReason ?? (calls.length ? 'tool_use' : 'end_turn'), stop_sequence: null }, usage: { output_tokens: 10 } });
    return void res.end(out + event('message_stop', {}));
  }
  const parts = reply.text !== undefined ? [{ text: reply.text }] : calls.map((call, i) => ({ functionCall: { id: ids[i], name: call.name, args: call.args } }));
  const data = { candidates: [{ content: { role: 'model', parts }, finishReason: reply.stopReason ?? 'STOP', index: 0 }], usageMetadata: { promptTokenCount: inputTokens, candidatesTokenCount: 10, totalTokenCount: inputTokens + 10 }, modelVersion: 'm' };
  res.end(`data: ${JSON.stringify(data)}\n\n`);
}
