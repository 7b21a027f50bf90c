// The gemini provider's transport: one POST per turn through the providers' HTTP/1.1 client
// (http1.ts), its response read as text. No WHATWG Request/Response/Headers/ReadableStream on the
// way, and no node:http (see http1.ts for why). Connection failures reject like fetch does
// (TypeError 'fetch failed' with the socket error as cause), and a body cut off mid-way fails
// like undici's ('terminated'), so the callers classify every transport alike.
import { post as post1, type Http1Response } from './http1.js';

export type PostResponse = Http1Response;

/** Sends `body` and resolves with the response once its head is in; the body is the caller's to read. */
export function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostResponse> {
  return post1(url, headers, body, signal);
}

/**
 * Reads a response body as text, handing each piece to `onText` as it arrives. Rejects with the
 * run's abort reason when `signal` aborts, and with TypeError('terminated') when the connection
 * ends before the body does.
 */
export function readText(res: PostResponse, signal: AbortSignal, onText: (text: string) => void): Promise<void> {
  return res.readText(signal, onText);
}

/** The whole body as one string. */
export async function bodyText(res: PostResponse, signal: AbortSignal): Promise<string> {
  let text = '';
  await res.readText(signal, (piece) => (text += piece));
  return text;
}

/** Response headers behind the `get(name)` the error classifiers read. */
export function headerGetter(res: PostResponse): { get(name: string): string | null } {
  return {
    get(name: string): string | null {
      return res.headers[name.toLowerCase()] ?? null;
    },
  };
}
