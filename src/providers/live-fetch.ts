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

export function liveFetch(classify: HttpClassifier, classifyPage: PageClassifier) {
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
    if (typeof onBytes !== 'function' || !response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          (onBytes as (chunk: Uint8Array) => void)(chunk);
          controller.enqueue(chunk);
        },
      }),
    );
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    return new Response(sse ? counted.pipeThrough(withoutEmptyEvents()) : counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
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
 * Drops SSE events that carry no data (`event: keep-alive` alone, `data:` with nothing after it):
 * the SDKs parse every event's data as JSON and would fail the whole answer on an empty one.
 * Events with data pass through byte for byte; comments go with the events they are in.
 */
export function withoutEmptyEvents(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const flushEvents = (controller: TransformStreamDefaultController<Uint8Array>, final: boolean) => {
    const boundary = /\r\n\r\n|\n\n|\r\r/g;
    let start = 0;
    let out = '';
    for (let m = boundary.exec(pending); m !== null; m = boundary.exec(pending)) {
      const event = pending.slice(start, m.index + m[0].length);
      if (hasData(event)) out += event;
      start = m.index + m[0].length;
    }
    pending = pending.slice(start);
    if (final && pending !== '' && hasData(pending)) out += pending;
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

function hasData(event: string): boolean {
  return event.split(/\r\n|\n|\r/).some((line) => line.startsWith('data:') && line.slice(5).trim() !== '');
}
