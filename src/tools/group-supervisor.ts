// One stopping policy for every child the runner starts on the model's or the recipe's behalf (a
// shell call, a success check): each is spawned detached, leading its own process group, so the
// whole group is what gets stopped. On its timeout or the run's abort: SIGTERM to the group, then
// SIGKILL after a grace. When the leader exits, whatever it left in the background is killed (a
// background job would otherwise keep the pipes open and the caller waiting).
import type { ChildProcess } from 'node:child_process';
import { killProcessGroup, track, untrack } from './process-groups.js';

/** Between SIGTERM to the group and SIGKILL: time for a clean exit, not for a negotiation. */
export const KILL_GRACE_MS = 2_000;

export type StopReason = 'timeout' | 'aborted';

export interface GroupSupervisor {
  /** Why the group was stopped, or null while it runs or when it ended by itself. */
  readonly stoppedBy: StopReason | null;
  /** Clears the timers and listeners; call once the child has been awaited. */
  release(): void;
}

export function superviseGroup(child: ChildProcess, opts: { timeoutMs: number; signal: AbortSignal }): GroupSupervisor {
  const pid = child.pid;
  let stoppedBy: StopReason | null = null;
  let exited = false;
  let escalation: NodeJS.Timeout | undefined;
  const stop = (why: StopReason) => {
    if (stoppedBy || exited || pid === undefined) return;
    stoppedBy = why;
    killProcessGroup(pid, 'SIGTERM');
    escalation = setTimeout(() => killProcessGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
  };
  const onAbort = () => stop('aborted');
  const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  opts.signal.addEventListener('abort', onAbort, { once: true });
  // The abort may have come before this was called (while execa was loading, say): the listener alone would miss it.
  if (opts.signal.aborted) onAbort();
  if (pid !== undefined) {
    track(pid);
    child.once('exit', () => {
      exited = true;
      killProcessGroup(pid, 'SIGKILL');
    });
  }
  return {
    get stoppedBy() {
      return stoppedBy;
    },
    release() {
      clearTimeout(timer);
      clearTimeout(escalation);
      opts.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) untrack(pid);
    },
  };
}
