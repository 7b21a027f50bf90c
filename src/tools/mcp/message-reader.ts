// JSON-RPC messages from a stdio server, one a line, each at most MAX_MESSAGE_BYTES. The SDK's own
// ReadBuffer throws from inside the pipe's data callback when a message is larger (an uncaught
// exception: the runner died without a report) and copies its whole buffer again on every chunk.
// This reader keeps the chunks of one line and joins them once; past the limit it skips the rest
// of the line, keeping only its two ends, which are enough to tell which request it answers.
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The largest message a stdio server may send: an image of about 24 MB in base64 (more than any
 * provider takes in one request), or a text result far beyond what the model is shown (the rest
 * is saved to a file). Larger, and the reply is refused unread rather than held in memory.
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How much of each end of an oversized line is kept to find its request id. */
const END_BYTES = 1024;

export type RequestId = string | number;

export interface OversizedMessage {
  bytes: number;
  /** The request this reply answers, when the line is a reply whose id could be read. */
  replyTo: RequestId | null;
  /** The line is a request or notification from the server (it answers nothing). */
  fromServer: boolean;
}

export interface MessageSink {
  message(message: JSONRPCMessage): void;
  /** A line that is not a JSON-RPC message. */
  invalid(error: Error): void;
  /**
   * A reply to request `id` that breaks the protocol (`"result": 123`): the SDK would drop it, and
   * the call wait out its whole timeout; it fails at once instead, saying why.
   */
  badReply(id: RequestId, reason: string): void;
  /** The line grew past the limit and does not even start like JSON: nothing in it will be usable. */
  junk(bytes: number): void;
  /** A whole line over the limit, now skipped. */
  oversized(message: OversizedMessage): void;
}

export class MessageReader {
  private chunks: Buffer[] = [];
  private length = 0;
  private skipping: { head: string; tail: Buffer; bytes: number } | null = null;

  constructor(
    private readonly sink: MessageSink,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]));
      return;
    }
    if (this.length + piece.length <= this.maxBytes) {
      this.chunks.push(piece);
      this.length += piece.length;
      return;
    }
    const head = firstBytes([...this.chunks, piece]).toString('utf8');
    this.skipping = { head, tail: lastBytes(piece), bytes: this.length + piece.length };
    this.chunks = [];
    this.length = 0;
    if (!/^\s*\{/.test(head)) this.sink.junk(this.skipping.bytes);
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = null;
      this.sink.oversized({ bytes, ...classify(head, tail.toString('utf8')) });
      return;
    }
    const line = Buffer.concat(this.chunks, this.length).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.length = 0;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      const bad = badReply(line);
      if (bad) this.sink.badReply(bad.id, bad.reason);
      else this.sink.invalid(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.sink.message(message);
  }
}

/** A JSON object with a request's id and a result or error, but no valid response: what is wrong with it. */
function badReply(line: string): { id: RequestId; reason: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return replyProblem(value);
}

/** What is wrong with `value` as a reply to a request (null: it is none, or a valid one). Also for HTTP replies (http-calls.ts). */
export function replyProblem(value: unknown): { id: RequestId; reason: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const reply = value as Record<string, unknown>;
  const id = reply.id;
  if ((typeof id !== 'string' && typeof id !== 'number') || 'method' in reply || !('result' in reply || 'error' in reply)) return null;
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`);
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const problems: string[] = [];
  if (reply.jsonrpc !== '2.0') problems.push('it does not say "jsonrpc": "2.0"');
  if ('result' in reply && 'error' in reply) problems.push('it holds both a result and an error');
  else if ('result' in reply && !isObject(reply.result)) problems.push(`its result is ${kind(reply.result)}, not an object`);
  else if ('error' in reply) {
    const error = reply.error as Record<string, unknown>;
    if (!isObject(error)) problems.push(`its error is ${kind(error)}, not an object`);
    else if (typeof error.code !== 'number' || typeof error.message !== 'string') problems.push('its error lacks a numeric code or a text message');
  }
  if (problems.length === 0) return null;
  const reason = problems.join('; ');
  return { id, reason: `the server's reply is no valid JSON-RPC response: ${reason}` };
}

function firstBytes(chunks: Buffer[]): Buffer {
  const kept: Buffer[] = [];
  let length = 0;
  for (const chunk of chunks) {
    if (length >= END_BYTES) break;
    kept.push(chunk);
    length += chunk.length;
  }
  return Buffer.concat(kept).subarray(0, END_BYTES);
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= END_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - END_BYTES));
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const JSONRPC = String.raw`"jsonrpc"\s*:\s*"2\.0"`;
/** `{"jsonrpc":"2.0","id":7,"result":…` (Python, Go, Rust SDKs): the id comes first. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:${JSONRPC}\s*,\s*)?"id"\s*:\s*${ID}\s*,\s*(?:${JSONRPC}\s*,\s*)?"(?:result|error)"\s*:`);
/** `{"result":…,"jsonrpc":"2.0","id":7}` (the TypeScript SDK): the id comes last. */
const RESULT_FIRST = new RegExp(String.raw`^\s*\{\s*(?:${JSONRPC}\s*,\s*)?"(?:result|error)"\s*:`);
const ID_LAST = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*(?:,\s*${JSONRPC}\s*)?\}\s*$`);
/** A request or notification: `method` before any result. */
const METHOD = new RegExp(String.raw`^\s*\{\s*(?:(?:${JSONRPC}|"id"\s*:\s*${ID})\s*,\s*)*"method"\s*:`);

/** Only the top level's first keys and last key are read: a nested `"id"` never matches. */
function classify(head: string, tail: string): { replyTo: RequestId | null; fromServer: boolean } {
  const first = ID_FIRST.exec(head);
  if (first) return { replyTo: JSON.parse(first[1]!) as RequestId, fromServer: false };
  if (RESULT_FIRST.test(head)) {
    const last = ID_LAST.exec(tail);
    return { replyTo: last ? (JSON.parse(last[1]!) as RequestId) : null, fromServer: false };
  }
  return { replyTo: null, fromServer: METHOD.test(head) };
}
