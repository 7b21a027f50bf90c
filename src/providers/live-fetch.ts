// The transport the OpenAI and Anthropic SDKs are given: node:http (node-fetch.ts), HTTP errors
// classified while the whole body is in reach (the SDKs keep only `body.error`, so Google's array
// bodies read "(no body)"), and a hook told of every byte of a response body, so SSE comments
// (`: OPENROUTER PROCESSING`), pings and empty events count as a live stream: the SDKs drop them
// before our loop ever sees a chunk, and a long thinking phase sends nothing else. And one told
// when the request is written (GenerateOptions.onSent: what can wait for the answer starts then).
import { nodeFetch, ON_SENT } from './node-fetch.js';
import type { ProviderError } from './provider.js';

/** A request option (`fetchOptions: {[ON_BYTES]: fn}`) our fetch reads; the SDKs pass it through. */
export const ON_BYTES = Symbol('unattended.onBytes');

export type HttpClassifier = (status: number, bodyText: string, headers: Headers) => ProviderError;
/** A 2xx that is a document, not an API answer: its content type and first characters. */
export type PageClassifier = (status: number, contentType: string, head: string) => ProviderError;

/** Content types no model API answers with: a web UI, a login or proxy page at the configured URL. */
const PAGE_TYPES = /^\s*(text\/html|application\/xhtml\+xml|text\/xml|application\/xml)\b/i;

/** `fetchOptions` for one request: `onBytes` for every chunk of its response body, `onSent` once it is written. */
export function requestHooks(hooks: { onBytes?: (chunk: Uint8Array) => void; onSent?: () => void }): never {
  return { [ON_BYTES]: hooks.onBytes, [ON_SENT]: hooks.onSent } as never;
}

/**
 * `nameEvents`: an event without an `event:` line is named by its data's `type` (the Anthropic
 * SDK drops unnamed events, and some Anthropic-compatible gateways send `data:` lines alone).
 */
export function liveFetch(classify: HttpClassifier, classifyPage: PageClassifier, { nameEvents = false } = {}) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const response = await nodeFetch(input, init);
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw classify(response.status, text, response.headers);
    }
    // The SDKs would parse no event from it, and the answer would read as cut off.
    const contentType = response.headers.get('content-type') ?? '';
    if (PAGE_TYPES.test(contentType)) throw classifyPage(response.status, contentType, await firstChars(response));
    const onBytes = (init as Record<symbol, unknown>)[ON_BYTES];
    let sse = contentType.includes('text/event-stream');
    const labelledJson = !sse && /json/i.test(contentType);
    if ((typeof onBytes !== 'function' && !labelledJson) || !response.body) return response;
    const counted =
      typeof onBytes === 'function'
        ? response.body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, controller) {
                (onBytes as (chunk: Uint8Array) => void)(chunk);
                controller.enqueue(chunk);
              },
            }),
          )
        : response.body;
    let body = counted;
    let headers = response.headers;
    if (labelledJson) {
      // Told by its first character: JSON stays JSON (the providers read a whole answer, or an
      // error, from it); events labelled as JSON are relabelled, so the SDKs parse them. Also
      // with streaming off: a gateway that streams anyway and calls it JSON made the SDK's JSON
      // parse fail, a 'network' failure asked again five times, each a generation paid for.
      const peeked = await peekFirstChar(counted);
      body = peeked.stream;
      if (peeked.first !== '' && peeked.first !== '{' && peeked.first !== '[') {
        headers = new Headers(headers);
        headers.set('content-type', 'text/event-stream');
        sse = true;
      }
    }
    return new Response(sse ? body.pipeThrough(withoutEmptyEvents(nameEvents)) : body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The body's first character that is not white space ('' when there is none), and the body whole. */
async function peekFirstChar(body: ReadableStream<Uint8Array>): Promise<{ first: string; stream: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const read: Uint8Array[] = [];
  let first = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read.push(value);
    const at = value.findIndex((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d);
    if (at >= 0) {
      first = String.fromCharCode(value[at]!);
      break;
    }
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of read) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { first, stream };
}

/** The start of a body, for a message; the rest is not read. */
async function firstChars(response: Response, max = 200): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  let head = '';
  try {
    const decoder = new TextDecoder();
    while (head.length < max) {
      const { done, value } = await reader.read();
      if (done) break;
      head += decoder.decode(value, { stream: true });
    }
  } catch {
    // what arrived is enough
  } finally {
    void reader.cancel().catch(() => {});
  }
  return head.slice(0, max);
}

/**
 * llama.cpp's server before September 2025 (ggml-org/llama.cpp#16109) wrote a failure mid-stream,
 * at HTTP 200, as an `error: {code, message, type}` field, which SSE readers drop: the stream read
 * as an answer cut off, asked again, with the server's words (a full context window, which the
 * loop answers by compacting) lost. Such an event becomes the `data: {"error": ...}` event it sends
 * now, judged by its code like any error inside a stream; '' for an event with nothing to say.
 */
function errorEvent(event: string): string {
  const line = event.split(/\r\n|\n|\r/).find((l) => l.startsWith('error:'));
  const value = line?.slice(line[6] === ' ' ? 7 : 6).trim() ?? '';
  if (value === '') return '';
  let json = value;
  try {
    JSON.parse(value);
  } catch {
    json = JSON.stringify(value);
  }
  return `data: {"error":${json}}\n\n`;
}

/**
 * Drops SSE events that carry no data (`event: keep-alive` alone, `data:` with nothing after it):
 * the SDKs parse every event's data as JSON and would fail the whole answer on an empty one.
 * Events with data pass through byte for byte (named first when `nameEvents` asks, see liveFetch);
 * comments go with the events they are in.
 */
export function withoutEmptyEvents(nameEvents = false): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const flushEvents = (controller: TransformStreamDefaultController<Uint8Array>, final: boolean) => {
    const boundary = /\r\n\r\n|\n\n|\r\r/g;
    let start = 0;
    let out = '';
    for (let m = boundary.exec(pending); m !== null; m = boundary.exec(pending)) {
      const event = pending.slice(start, m.index + m[0].length);
      if (hasData(event)) out += nameEvents ? named(event) : event;
      else out += errorEvent(event);
      start = m.index + m[0].length;
    }
    pending = pending.slice(start);
    if (final && pending !== '') out += hasData(pending) ? (nameEvents ? named(pending) : pending) : errorEvent(pending);
    if (out !== '') controller.enqueue(encoder.encode(out));
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      flushEvents(controller, false);
    },
    flush(controller) {
      pending += decoder.decode();
      flushEvents(controller, true);
    },
  });
}

/** The event with an `event:` line from its data's `type` when it has none (and the data says one). */
function named(event: string): string {
  const lines = event.split(/\r\n|\n|\r/);
  if (lines.some((line) => line.startsWith('event:'))) return event;
  const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(line[5] === ' ' ? 6 : 5)).join('\n');
  try {
    const type = (JSON.parse(data) as { type?: unknown } | null)?.type;
    return typeof type === 'string' && /^[\w.-]+$/.test(type) ? `event: ${type}\n${event}` : event;
  } catch {
    return event;
  }
}

function hasData(event: string): boolean {
  return event.split(/\r\n|\n|\r/).some((line) => line.startsWith('data:') && line.slice(5).trim() !== '');
}
