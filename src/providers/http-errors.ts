// What every network provider shares about a failed call: which ProviderError kind an HTTP status
// is, how long the server asked us to wait, the run's abort reason, and a message fit for one line.
// One copy, so gemini and openai cannot drift apart on what is retried.
import type { ProviderErrorKind } from './provider.js';

/**
 * 401/403 auth (never retried), 429 rate_limit, 408/409/5xx server (retried), any other 4xx
 * bad_request (never retried). 409 is retried: OpenAI documents a conflict as retryable (its SDK
 * retries it) and Google's ABORTED (409) means a concurrency conflict to retry at a higher level.
 */
export function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status === 408 || status === 409 || status >= 500) return 'server';
  return 'bad_request';
}

/** `retry-after-ms` (OpenAI) wins over `retry-after` (delta-seconds or an HTTP date). */
export function retryAfterMs(headers: Pick<Headers, 'get'> | null | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What a call rejects with when the run's signal aborted: the run's own reason when it gave one. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Server text on one line, capped: an HTML error page must not flood the report. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
