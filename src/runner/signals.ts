// Ctrl-C, SIGTERM and SIGHUP (a closed terminal or ssh session): the first aborts the run's signal (no new tool call starts, children and MCP
// servers are killed, the report is written, exit 130/143/129); a second, or a run that has not wound
// down within the grace period, kills every child process group and exits at once, after writing
// the run's last event and report (exit 54 when they could not be written). The guard stays until the report is written: a signal while
// the run shuts down (the hand-off, MCP servers closing) is handled like any other.
//
// Before a run's outputs exist (the CLI starting, stdin being read) a signal is held: it stops the
// waiting, and the run then starts already stopped, so it still leaves a report saying so.
import { killAllProcessGroups } from '../tools/process-groups.js';
import { ExitCode } from '../types/outcome.js';
import { RunStop, signalExitCode, type StopKind } from '../loop/stop.js';
import { noteHangUp } from '../util/hung-up-terminal.js';

export const STOP_GRACE_MS = 4_000;

export interface SignalGuard {
  /**
   * The report is written: from now on a signal (a second Ctrl-C while the process exits) only
   * hurries the exit, with the run's own code rather than a death by signal. The new handlers are
   * installed before the guard's go, so no signal meets the default action in between.
   */
  settle(exitCode: number): void;
}

interface HeldSignals {
  kind: StopKind | null;
  signal: AbortSignal;
  release(): void;
}

let held: HeldSignals | null = null;
let signalled = false;

/** Whether this process was asked to stop by a signal (the CLI then exits as soon as its run has ended). */
export function stoppedBySignal(): boolean {
  return signalled;
}

const exitCodeOf = (kind: StopKind) => (kind === 'timeout' ? ExitCode.budget : signalExitCode(kind));
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Holds SIGINT/SIGTERM/SIGHUP until guardSignals() takes over; the returned signal aborts on the first.
 * A second one before that exits at once: there is nothing written yet to complete.
 */
export function holdSignals(): AbortSignal {
  if (held) return held.signal;
  const controller = new AbortController();
  const on = (kind: StopKind) => () => {
    signalled = true;
    if (kind === 'SIGHUP') noteHangUp();
    if (state.kind) process.exit(exitCodeOf(state.kind));
    state.kind = kind;
    controller.abort(new RunStop(kind));
  };
  const handlers = SIGNALS.map((name) => [name, on(name)] as const);
  const state: HeldSignals = {
    kind: null,
    signal: controller.signal,
    release() {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
  for (const [name, handler] of handlers) process.on(name, handler);
  held = state;
  const early = takeEarlySignal();
  if (early) on(early)();
  return controller.signal;
}

/** What the launcher held while the code loaded (scripts/bin/unattended.cjs): its listeners go, and the first signal it kept is returned. */
export function takeEarlySignal(): StopKind | null {
  const key = Symbol.for('unattended.earlySignals');
  const early = (globalThis as Record<symbol, { first: StopKind | null; release(): void } | undefined>)[key];
  if (!early) return null;
  delete (globalThis as Record<symbol, unknown>)[key];
  early.release();
  return early.first;
}

/** The run's last words for an error nothing caught (set by guardSignals): the exit code its record then says. */
let faultWords: ((error: unknown) => number) | null = null;
/** What an error nothing caught prints before the run's directory exists (set by main.ts for a run). */
let earlyFaultWords: ((error: unknown) => Promise<void>) | null = null;
export function onEarlyFault(words: (error: unknown) => Promise<void>): void {
  earlyFaultWords = words;
}
/** The exit code of a run whose report is written (settle): what a later fault exits with. */
let settledCode: number | null = null;

/**
 * An error nothing caught in the CLI's process (a dependency's callback that throws, a promise
 * rejected with no handler; main.ts installs this for a run): Node would die in a stack trace,
 * exit 1, leaving a transcript with no run_end, no report, and the run's commands running. Ended
 * as a forced exit is: every process group killed, run_end and the report written (status error),
 * exit with the code they say (54 when they could not be written). After the report, the run's own code.
 */
export function exitOnFault(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`unattended: unexpected error: ${message}\n`);
  if (process.env.DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  if (settledCode !== null) process.exit(settledCode);
  killAllProcessGroups('SIGKILL');
  const words = faultWords;
  faultWords = null;
  // Before the run has a directory (the CLI starting, stdin being read): no record to end, but
  // stdout still owes what --output-format json|stream-json promised (main.ts).
  const early = words ? null : earlyFaultWords;
  earlyFaultWords = null;
  if (early) {
    void early(error)
      .catch(() => {})
      .finally(() => process.exit(ExitCode.failed));
    return;
  }
  let code: number = ExitCode.failed;
  try {
    if (words) code = words(error);
  } catch (failure) {
    process.stderr.write(`unattended: exit ${ExitCode.fatalTool}: the run's report could not be written (${(failure as Error).message})\n`);
    code = ExitCode.fatalTool;
  } finally {
    process.exit(code);
  }
}

/**
 * `lastWords` writes what can still be written (final event, report) before a forced exit, and
 * says whether the run's record is whole: one that is not exits 54, as at any other exit.
 * `faultWords` does the same for an error nothing caught (exitOnFault), returning the exit code.
 */
export function guardSignals(controller: AbortController, lastWords: (kind: StopKind) => boolean, onFault?: (error: unknown) => number): SignalGuard {
  faultWords = onFault ?? null;
  settledCode = null;
  let first: StopKind | null = null;
  let grace: NodeJS.Timeout | undefined;
  const forceExit = (kind: StopKind) => {
    killAllProcessGroups('SIGKILL');
    let whole = false;
    try {
      whole = lastWords(kind);
    } catch (error) {
      process.stderr.write(`unattended: exit ${ExitCode.fatalTool}: the run was stopped (${kind}), but its report could not be written (${(error as Error).message})\n`);
    } finally {
      process.exit(whole ? exitCodeOf(kind) : ExitCode.fatalTool);
    }
  };
  const onSignal = (kind: StopKind) => () => {
    signalled = true;
    if (kind === 'SIGHUP') noteHangUp();
    if (first) return forceExit(first);
    first = kind;
    // Also cuts the runner's own git recording the workspace to half the grace (the run's abort
    // listener, execute-run.ts), so the run still ends on its normal path, with its final answer.
    controller.abort(new RunStop(kind));
    grace = setTimeout(() => forceExit(kind), STOP_GRACE_MS).unref();
  };
  const handlers = SIGNALS.map((name) => [name, onSignal(name)] as const);
  // Installed before the held handlers go, so no signal falls between the two.
  for (const [name, handler] of handlers) process.on(name, handler);
  const pending = held?.kind ?? null;
  held?.release();
  held = null;
  if (pending) onSignal(pending)();
  return {
    settle(exitCode) {
      // The run wound down within its grace: the forced exit (which kills every process group this
      // process started) is off. A process that still has work to finish (the last export) ends on its own.
      clearTimeout(grace);
      faultWords = null;
      settledCode = exitCode;
      const exitNow = (name: NodeJS.Signals) => () => {
        if (name === 'SIGHUP') noteHangUp();
        process.exit(exitCode);
      };
      for (const [name, handler] of handlers) {
        process.on(name, exitNow(name));
        process.off(name, handler);
      }
    },
  };
}
