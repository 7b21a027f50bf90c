// The transport the OpenAI and Anthropic SDKs are given: node:http (node-fetch.ts), HTTP errors
// classified while the whole body is in reach (the SDKs keep only `body.error`, so Google's array
// bodies read "(no body)"), and a hook told of every byte of a response body, so SSE comments
// (`: OPENROUTER PROCESSING`), pings and empty events count as a live stream: the SDKs drop them
// before our loop ever sees a chunk, and a long thinking phase sends nothing else.
import { nodeFetch } from './node-fetch.js';
import type { ProviderError } from './provider.js';

/** A request option (`fetchOptions: {[ON_BYTES]: fn}`) our fetch reads; the SDKs pass it through. */
export const ON_BYTES = Symbol('unattended.onBytes');

export type HttpClassifier = (status: number, bodyText: string, headers: Headers) => ProviderError;

/** `fetchOptions` for one request whose body bytes call `onBytes`. */
export function bytesHook(onBytes: () => void): never {
  return { [ON_BYTES]: onBytes } as never;
}

export function liveFetch(classify: HttpClassifier) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const response = await nodeFetch(input, init);
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw classify(response.status, text, response.headers);
    }
    const onBytes = (init as Record<symbol, unknown>)[ON_BYTES];
    if (typeof onBytes !== 'function' || !response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          (onBytes as () => void)();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
