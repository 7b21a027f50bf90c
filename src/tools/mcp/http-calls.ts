// Calls in flight on a Streamable HTTP server that goes away. The SDK reads a call's reply from the
// SSE stream its POST opened; when that stream breaks or ends without the reply (the server died,
// a proxy cut the connection) and the server offered no way to resume it, the SDK only reports an
// error and the call waits out its whole timeout. Here each POST's stream is watched through the
// transport's fetch, and a call its stream ended without answering fails at once, saying so; so
// does a call answered with a reply that breaks the protocol, which the SDK drops as unreadable.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { proxiedFetch } from '../../providers/proxied-fetch.js';
import { errorText } from './errors.js';
import { replyProblem } from './message-reader.js';

/** Lets the SDK deliver what the stream held before its end: its parsing runs on promise jobs, never on timers. */
const SETTLE_MS = 50;
/** JSON-RPC's "internal error": what a call its stream dropped ends with. */
const INTERNAL_ERROR = -32603;

type RequestId = string | number;

export class HttpCallWatch {
  /** Requests sent and not yet answered; true once their stream ended resumable (the SDK reconnects). */
  private readonly pending = new Map<RequestId, boolean>();
  private transport: Transport | null = null;

  /** For the transport's `fetch` option. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // The global fetch knows no proxy variable: a server behind the proxy goes through it (proxied-fetch.ts).
    const response = await proxiedFetch(input, init);
    const ids = init?.method === 'POST' ? requestIds(init.body) : [];
    for (const id of ids) this.pending.set(id, false);
    const contentType = response.headers.get('content-type') ?? '';
    const eventStream = /^text\/event-stream\b/i.test(contentType);
    if (ids.length === 0 || !response.ok || !response.body) return response;
    if (!eventStream) {
      if (!/json/i.test(contentType)) return response;
      const text = await response.text();
      this.checkReplies(text);
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    const body = watchedBody(response.body, (ended) => this.streamEnded(ids, ended), (data) => this.checkReplies(data));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** Before the SDK's Client connects: the Client chains its own handlers after these. */
  attach(transport: Transport): void {
    this.transport = transport;
    transport.onmessage = (message: JSONRPCMessage) => {
      if (!('method' in message) && 'id' in message) this.pending.delete(message.id as RequestId);
    };
    transport.onerror = (error: Error) => {
      // The SDK gave up resuming a stream: the calls waiting on one can no longer be answered.
      if (/Maximum reconnection attempts/.test(error.message)) {
        for (const [id, resuming] of this.pending) if (resuming) this.fail(id, `the server's reply stream broke and could not be resumed (${error.message})`);
      }
    };
  }

  /**
   * A reply that breaks the protocol (`"result": 123`) is dropped by the SDK's parser, and its call
   * would wait out the whole timeout: it fails at once instead, saying what is wrong with it.
   */
  private checkReplies(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const bad = replyProblem(message);
      if (bad && this.pending.has(bad.id)) this.fail(bad.id, bad.reason);
    }
  }

  private streamEnded(ids: RequestId[], ended: { error: unknown; resumable: boolean }): void {
    if (ended.resumable) {
      for (const id of ids) if (this.pending.has(id)) this.pending.set(id, true);
      return;
    }
    const reason =
      ended.error === null
        ? "the server ended its reply stream without answering"
        : `the connection to the server broke before it answered (${errorText(ended.error)}); the server may have stopped`;
    setTimeout(() => {
      for (const id of ids) if (this.pending.get(id) === false) this.fail(id, reason);
    }, SETTLE_MS).unref();
  }

  private fail(id: RequestId, message: string): void {
    this.pending.delete(id);
    this.transport?.onmessage?.({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message } });
  }
}

function requestIds(body: RequestInit['body']): RequestId[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((m: { method?: unknown; id?: unknown }) =>
    typeof m?.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id] : [],
  );
}

/**
 * The same bytes, telling `onEnd` when they stop, and whether the server gave the events ids (an
 * `id:` line): then the stream can be resumed, and the SDK tries to.
 */
function watchedBody(source: ReadableStream<Uint8Array>, onEnd: (ended: { error: unknown; resumable: boolean }) => void, onData: (data: string) => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  // The events' data, for onData: the line being read, and the data lines of the event so far.
  let partial = '';
  let data: string[] = [];
  const readLines = (text: string) => {
    const lines = (partial + text).split(/\r\n|\r|\n/);
    partial = lines.pop()!;
    for (const line of lines) {
      if (line === '') {
        if (data.length) onData(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  };
  // The start of the line being read, with the line break before it (the stream starts a line).
  let lineStart = '\n';
  let resumable = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(error);
        onEnd({ error, resumable });
        return;
      }
      if (chunk.done) {
        controller.close();
        onEnd({ error: null, resumable });
        return;
      }
      const decoded = decoder.decode(chunk.value, { stream: true });
      readLines(decoded);
      const text = lineStart + decoded;
      if (/[\r\n]id:/.test(text)) resumable = true;
      // Longer than `\nid` and not matched: that line is no id line, whatever follows.
      const line = text.slice(Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')));
      lineStart = line.length <= 3 ? line : '';
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
