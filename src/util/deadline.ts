// A signal for one piece of work: the parent's (the run's), and a timer at `ms`. Both links go
// when the work is disposed of, so nothing of it outlives the work: AbortSignal.timeout keeps its
// timer (and signal) for the whole limit, AbortSignal.any ties each signal to the parent for as
// long, and the MCP SDK keeps its abort listener on a request's signal after the reply (a signal
// that fired later sent notifications/cancelled for requests long answered).
export interface Deadline {
  signal: AbortSignal;
  /** The timer fired (not the parent). */
  expired(): boolean;
  dispose(): void;
}

export function deadline(parent: AbortSignal, ms: number, reason: () => unknown): Deadline {
  const controller = new AbortController();
  let expired = false;
  const follow = () => controller.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener('abort', follow, { once: true });
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(reason());
  }, ms);
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', follow);
    },
  };
}
