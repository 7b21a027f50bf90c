// A stream that stops sending is abandoned, not waited on forever: the watch aborts its signal
// when no data has arrived for `ms`; the provider re-arms it on every chunk. The signal also aborts
// when the run's does, and dispose() unhooks it from the run's: AbortSignal.any() would do the same,
// but in Node 20 every signal it makes stays reachable from the run's signal until the run ends
// (about 1 KB per request, so a long run's memory grew with its turns).
import { MAX_TIMER_MS } from '../recipe/duration.js';

/**
 * With streaming off nothing arrives until the answer is whole, so silence says nothing about a
 * dead server: the whole answer gets this many idle timeouts (10 minutes at the default 60 s, the
 * OpenAI SDK's own request timeout), then it is abandoned and retried like a stalled stream.
 */
export const WHOLE_ANSWER_IDLE_TIMEOUTS = 10;

/** How long a request may go without a byte: the idle timeout, or the whole answer's time when not streamed. */
export function silenceAllowedMs(idleTimeoutMs: number, stream: boolean): number {
  // Within what a timer can count: past 2^31 - 1 ms, Node fires it after 1 ms.
  return stream ? idleTimeoutMs : Math.min(idleTimeoutMs * WHOLE_ANSWER_IDLE_TIMEOUTS, MAX_TIMER_MS);
}

/** The SDK's own timer runs this much past the watch, which speaks first (stalled, in the runner's words). */
const SDK_TIMEOUT_SLACK_MS = 5000;

/**
 * The `timeout` to hand an SDK (openai, anthropic) for a request the watch bounds: its own default
 * is ten minutes, which would cut an answer that a longer model_idle_timeout allows. Kept within
 * what a timer can count, or it would fire after 1 ms.
 */
export function sdkTimeoutMs(watch: IdleWatch): number {
  return Math.min(watch.ms + SDK_TIMEOUT_SLACK_MS, MAX_TIMER_MS);
}

export class IdleWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;
  readonly signal = this.controller.signal;
  private readonly onRunAbort = () => this.controller.abort(this.run?.reason);

  constructor(
    readonly ms: number,
    private readonly run?: AbortSignal,
  ) {
    if (!run) return;
    if (run.aborted) this.controller.abort(run.reason);
    else run.addEventListener('abort', this.onRunAbort, { once: true });
  }

  /** (Re)starts the idle timer; on every chunk, so the same timer is moved, not a new one made. */
  arm(): void {
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort();
    }, this.ms);
    this.timer.unref();
  }

  /** Stops the idle timer (the run's abort still reaches the signal). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Stops the timer and lets go of the run's signal: call when the request is over. */
  dispose(): void {
    this.stop();
    this.run?.removeEventListener('abort', this.onRunAbort);
  }
}
