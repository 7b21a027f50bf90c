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

/**
 * google.rpc.RetryInfo in a Google error body, `"retryDelay": "2.5s"`: Gemini's own API and its
 * OpenAI-compatible endpoint (which wraps the body in an array) say there how long a quota lasts,
 * and send no Retry-After.
 */
export function retryDelayFromBody(body: unknown): number | undefined {
  const error = (Array.isArray(body) ? body[0] : body) as { error?: { details?: unknown } } | null | undefined;
  const details = Array.isArray(error?.error?.details) ? (error.error.details as Array<Record<string, unknown> | null>) : [];
  for (const detail of details) {
    if (typeof detail?.['@type'] === 'string' && detail['@type'].endsWith('RetryInfo')) {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(String(detail.retryDelay ?? ''));
      if (match) return Math.round(Number(match[1]) * 1000);
    }
  }
  return undefined;
}

/**
 * The wait a rate limit's message names, for a server (or a proxy before it) that sends no
 * Retry-After: OpenAI and Groq write "Please try again in 20s" (also "1.898s", "6ms", "1m30.5s",
 * "2h10m"), Azure OpenAI "Please retry after 6 seconds", Gemini "Please retry in 43.5s". Without it
 * the backoff gives up within about 15 s while the limit lasts longer; with it a wait past the
 * maximum fails at once, saying so.
 */
export function retryDelayFromMessage(message: string | null | undefined): number | undefined {
  const found = /\b(?:try again|retry)(?: (?:in|after))? ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+\b|\d+(?:\.\d+)? ?(?:seconds?|secs?|minutes?|mins?|milliseconds?)\b)/i.exec(message ?? '');
  if (!found) return undefined;
  const text = found[1]!.trim().toLowerCase();
  const words = /^([\d.]+) ?([a-z]{3,})$/.exec(text);
  if (words) return Math.round(Number(words[1]) * (words[2]!.startsWith('milli') ? 1 : words[2]!.startsWith('min') ? 60_000 : 1000));
  let ms = 0;
  for (const [, value, unit] of text.matchAll(/([\d.]+)(ms|h|m|s)/g)) ms += Number(value) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** What a call rejects with when the run's signal aborted: the run's own reason when it gave one. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Server text on one line, capped: an HTML error page must not flood the report. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
