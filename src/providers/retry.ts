// The one place that decides whether a failed model call is tried again, and how long to wait.
// Providers only classify failures (ProviderError kinds); SDK-level retries stay off.
//
// - rate_limit, server, network, stalled: exponential backoff with full jitter
//   (random in [0, min(maxDelay, base * 2^(n-1))]); a 429 waits at least retryAfterFloorMs.
// - A server-given delay (Retry-After / RetryInfo) is honoured, raised to the floor; one above
//   maxRetryAfterMs fails at once: waiting that long unattended is worse than failing clearly.
// - empty (no content, or a cut-off stream): retried once, then the run fails.
// - auth, bad_request, script_exhausted, and anything that is not a ProviderError: never retried;
//   nor a rate_limit that says why waiting cannot help (`notRetried`: a spent quota).
// - Waits end early when the run's signal aborts; the call then rejects with the abort reason.
import type { GenerateOptions, ModelProvider, ModelRequest, ModelTurn, ProviderErrorKind, RetryInfo } from './provider.js';

export type { RetryInfo };
import { ProviderError, sameModelAs } from './provider.js';
import { abortReason } from './http-errors.js';

export interface RetryOptions {
  /** Total attempts, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryAfterFloorMs: number;
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  retryAfterFloorMs: 1000,
  maxRetryAfterMs: 60_000,
});

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'network', 'stalled', 'cut_off', 'empty']);
const EMPTY_RETRIES = 1;

export function withRetries(inner: ModelProvider, options: Partial<RetryOptions> = {}): ModelProvider {
  const opts: RetryOptions = { ...DEFAULT_RETRY_OPTIONS, ...definedOnly(options) };
  return {
    ...sameModelAs(inner),
    async generate(request: ModelRequest, generateOptions: GenerateOptions): Promise<ModelTurn> {
      let emptyFailures = 0;
      for (let attempt = 1; ; attempt++) {
        try {
          return await inner.generate(request, generateOptions);
        } catch (err) {
          if (generateOptions.signal.aborted || !(err instanceof ProviderError) || !RETRYABLE.has(err.kind)) throw err;
          if (err.notRetried) throw annotate(err, `${err.notRetried}: not retried`);
          // No whole answer (none at all, or one cut off in transit): asked once more, not five
          // times, since each try may cost a generation the server already paid for.
          if ((err.kind === 'empty' || err.kind === 'cut_off') && ++emptyFailures > EMPTY_RETRIES) {
            throw annotate(err, err.kind === 'empty' ? 'still empty after a retry' : 'no whole answer after a retry');
          }
          if (attempt >= opts.maxAttempts) throw annotate(err, `gave up after ${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}`);
          const delayMs = delayFor(err, attempt, opts);
          await generateOptions.onRetry?.({ attempt, delayMs, kind: err.kind, reason: err.message, ...(err.spent ? { usage: err.spent } : {}) });
          await abortableSleep(delayMs, generateOptions.signal);
        }
      }
    },
  };
}

/** How long to wait after `attempt` failed with `err`; throws when the server asks for too long. */
export function delayFor(err: ProviderError, attempt: number, opts: RetryOptions): number {
  const floor = err.kind === 'rate_limit' ? opts.retryAfterFloorMs : 0;
  if (err.retryAfterMs !== undefined) {
    if (err.retryAfterMs > opts.maxRetryAfterMs) {
      throw annotate(
        err,
        `the server asked to wait ${seconds(err.retryAfterMs)} before retrying, more than the ${seconds(opts.maxRetryAfterMs)} maximum; not retrying`,
      );
    }
    return Math.max(err.retryAfterMs, floor);
  }
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  return Math.max(floor, Math.round(Math.random() * ceiling));
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function annotate(err: ProviderError, note: string): ProviderError {
  return err.withMessage(`${err.message} (${note})`);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
