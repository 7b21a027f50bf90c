// One stopping policy for every child the runner starts on the model's or the recipe's behalf (a
// shell call, a success check): each is spawned detached, leading its own process group, so the
// whole group is what gets stopped. On its timeout or the run's abort: SIGTERM to the group, then
// SIGKILL after a grace. When the leader exits, whatever it left in the background is killed (a
// background job would otherwise keep the pipes open and the caller waiting).
//
// A process that left the group (`setsid cmd &`, a daemon) escapes that kill and may still hold the
// output pipes, and the caller would wait for it however long it runs, past every timeout. So once
// the leader has exited, the pipes get OUTPUT_GRACE_MS (less when the timeout or the abort comes
// first): then whoever holds them is killed (pipe-holders.ts; Linux) and the pipes are closed on
// our side, and `outputHeldBy` tells the caller so it can say what happened.
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
import { killPipeHolders, markedOutputHolders, outputEndsOf, pipeHolders, type PipeHolder } from './pipe-holders.js';

/** Between SIGTERM to the group and SIGKILL: time for a clean exit, not for a negotiation. */
export const KILL_GRACE_MS = 2_000;

/** How long output pipes may stay open after the leader exited: what it printed is read by then. */
export const OUTPUT_GRACE_MS = 500;
/** After killing the pipes' holders, time for what they wrote to be read before the pipes are closed. */
const DRAIN_MS = 200;

export type StopReason = 'timeout' | 'aborted';

/** Processes that held the output open after the leader exited; empty when they could not be named. */
export interface OutputHold {
  holders: PipeHolder[];
}

export interface GroupSupervisor {
  /** Why the group was stopped, or null while it runs or when it ended by itself. */
  readonly stoppedBy: StopReason | null;
  /** Set when something outside the group kept the output open after the leader exited (see above). */
  readonly outputHeldBy: OutputHold | null;
  /** Clears the timers and listeners; call once the child has been awaited. */
  release(): void;
}

export interface SuperviseOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** What was spawned, when it is a sandbox wrapper whose clones must go too (see above). */
  wrapperArgv?: readonly string[];
  /** The `NAME=value` marker the child was started with (pipe-holders.ts callMarker): finds the holders when its ends could not be read. */
  marker?: string;
}

export function superviseGroup(child: ChildProcess, opts: SuperviseOptions): GroupSupervisor {
  const pid = child.pid;
  let stoppedBy: StopReason | null = null;
  let exited = false;
  let escalation: NodeJS.Timeout | undefined;
  let outputHeldBy: OutputHold | null = null;
  let outputGrace: NodeJS.Timeout | undefined;
  let drain: NodeJS.Timeout | undefined;
  const pipes = [child.stdout, child.stderr].filter((pipe) => pipe !== null);
  const pipesOpen = () => pipes.some((pipe) => !pipe.closed);
  const outputEnds = pid === undefined ? new Set<string>() : outputEndsOf(pid);
  const releaseOutput = () => {
    clearTimeout(outputGrace);
    if (outputHeldBy || !pipesOpen()) return;
    const holders = outputEnds.size > 0 ? pipeHolders(outputEnds) : opts.marker ? markedOutputHolders(opts.marker) : [];
    outputHeldBy = { holders };
    killPipeHolders(holders);
    drain = setTimeout(() => {
      for (const pipe of pipes) pipe.destroy();
    }, holders.length > 0 ? DRAIN_MS : 0);
  };
  const stop = (why: StopReason) => {
    if (exited) releaseOutput();
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
      if (pipesOpen()) outputGrace = setTimeout(releaseOutput, OUTPUT_GRACE_MS);
    });
  }
  return {
    get stoppedBy() {
      return stoppedBy;
    },
    get outputHeldBy() {
      return outputHeldBy;
    },
    release() {
      clearTimeout(timer);
      clearTimeout(escalation);
      clearTimeout(outputGrace);
      clearTimeout(drain);
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
