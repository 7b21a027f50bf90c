// The idle watch's signal: aborted by silence or by the run, and let go of by the run when done.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { IdleWatch, silenceAllowedMs } from '../../src/providers/idle-watch.js';
import { MAX_TIMER_MS } from '../../src/recipe/duration.js';

describe('IdleWatch', () => {
  it("aborts with the run's reason, and unhooks from the run's signal on dispose", () => {
    const run = new AbortController();
    const requests = Array.from({ length: 3 }, () => new IdleWatch(60_000, run.signal));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(3);
    requests[0]!.dispose();
    requests[1]!.dispose();
    // A long run makes a request per turn: finished ones must not stay reachable from the run.
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    run.abort(new Error('SIGTERM'));
    expect(requests[2]!.signal.reason).toEqual(new Error('SIGTERM'));
    expect(requests[0]!.signal.aborted).toBe(false);
  });

  it('aborts after the idle time, and says so', async () => {
    const watch = new IdleWatch(20, new AbortController().signal);
    watch.arm();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect([watch.fired, watch.signal.aborted]).toEqual([true, true]);
    watch.dispose();
  });

  it('starts aborted when the run already is', () => {
    const run = new AbortController();
    run.abort();
    expect(new IdleWatch(1000, run.signal).signal.aborted).toBe(true);
  });
});

// How long a request may stay silent: a stream, the idle timeout; an answer not streamed, ten of
// them, never past what a timer can count (Node fires a longer one after 1 ms).
describe('silenceAllowedMs', () => {
  it('is the idle timeout for a stream, and ten of them for a whole answer', () => {
    expect(silenceAllowedMs(60_000, true)).toBe(60_000);
    expect(silenceAllowedMs(60_000, false)).toBe(600_000);
  });

  it("stays within a timer's range for the longest idle timeout a recipe may give", () => {
    expect(silenceAllowedMs(MAX_TIMER_MS, false)).toBe(MAX_TIMER_MS);
    expect(silenceAllowedMs(MAX_TIMER_MS, true)).toBe(MAX_TIMER_MS);
  });
});
