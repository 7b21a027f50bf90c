// The grace period after a first SIGINT/SIGTERM ends with the report: a run that wound down in
// time is not force-exited later (which would kill every process group the process started, other
// runs' children included, and exit with the signal's code); a run that did not is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardSignals, STOP_GRACE_MS } from '../../src/runner/signals.js';

describe('the grace period after a first signal', () => {
  // The signal listeners of this process are set aside meanwhile: the only ones are the guard's
  // (files run one after another in a shared worker, and earlier runs in it leave theirs).
  const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
  let saved: Record<(typeof SIGNALS)[number], NodeJS.SignalsListener[]>;
  beforeEach(() => {
    saved = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    for (const name of SIGNALS) process.removeAllListeners(name);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    for (const name of SIGNALS) {
      process.removeAllListeners(name);
      for (const listener of saved[name]) process.on(name, listener);
    }
  });

  it('ends when the run settles: no forced exit afterwards', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const lastWords = vi.fn(() => true);
    const controller = new AbortController();
    const guard = guardSignals(controller, lastWords);
    process.emit('SIGTERM');
    expect(controller.signal.aborted).toBe(true);
    guard.settle(143);
    vi.advanceTimersByTime(STOP_GRACE_MS * 2);
    expect(lastWords).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
  });

  it('forces the exit, after the last words, when the run has not settled by then', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const lastWords = vi.fn(() => true);
    guardSignals(new AbortController(), lastWords);
    process.emit('SIGINT');
    vi.advanceTimersByTime(STOP_GRACE_MS - 1);
    expect(exit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(lastWords).toHaveBeenCalledWith('SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
  });
});
