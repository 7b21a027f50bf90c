// One stopping policy for every child the runner starts on the model's or the recipe's behalf (a
// shell call, a success check): each is spawned detached, leading its own process group, so the
// whole group is what gets stopped. On its timeout or the run's abort: SIGTERM to the group, then
// SIGKILL after a grace. When the leader exits, whatever it left in the background is killed (a
// background job would otherwise keep the pipes open and the caller waiting).
//
// A sandboxed child needs one more step. bwrap runs the command in a session of its own inside a
// PID namespace, so the group signal reaches only bwrap, and the namespace dies with it through
// --die-with-parent. But a stop that lands while bwrap is still setting up (a Ctrl-C right after the
// call started) can kill it before its child asked for that: the sandbox's init is orphaned, the
// command runs on (15% of such stops in a measurement) and holds the pipes, and the call never
// ends. Once stopped, the supervisor kills every process whose command line is the spawned one (the
// sandbox's init is bwrap's own clone): killing a PID namespace's init ends all of it.
import type { ChildProcess } from 'node:child_process';
import { procFile, processIds } from '../util/proc.js';
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

export interface SuperviseOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** What was spawned, when it is a sandbox wrapper whose clones must go too (see above). */
  wrapperArgv?: readonly string[];
}

export function superviseGroup(child: ChildProcess, opts: SuperviseOptions): GroupSupervisor {
  const pid = child.pid;
  let stoppedBy: StopReason | null = null;
  let exited = false;
  let escalation: NodeJS.Timeout | undefined;
  const stop = (why: StopReason) => {
    if (stoppedBy || exited || pid === undefined) return;
    stoppedBy = why;
    killProcessGroup(pid, 'SIGTERM');
    escalation = setTimeout(() => {
      killProcessGroup(pid, 'SIGKILL');
      killClones(opts.wrapperArgv, pid);
    }, KILL_GRACE_MS);
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
      if (stoppedBy) killClones(opts.wrapperArgv, pid);
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

/** The argv to pass as wrapperArgv: what was spawned, when a sandbox wrapped `program`. */
export function wrapperArgvOf(spawn: { file: string; args: readonly string[] }, program: string): readonly string[] | undefined {
  return spawn.file === program ? undefined : [spawn.file, ...spawn.args];
}

/** SIGKILLs every process but `leader` whose command line is `argv`; Linux only, best effort. */
function killClones(argv: readonly string[] | undefined, leader: number): void {
  if (!argv || process.platform !== 'linux') return;
  const wanted = `${argv.join('\0')}\0`;
  for (const pid of processIds() ?? []) {
    if (pid === leader || pid === process.pid) continue;
    if (procFile(pid, 'cmdline') !== wanted) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}
