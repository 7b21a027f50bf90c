// Ctrl-C and SIGTERM: the first aborts the run's signal (no new tool call starts, children are
// killed, the report is written, exit 130/143); a second, or a run that has not wound down within
// the grace period, kills every child process group and exits at once.
import { killAllProcessGroups } from '../tools/process-groups.js';
import { ExitCode } from '../types/outcome.js';
import { RunStop, type StopKind } from '../loop/stop.js';

export const STOP_GRACE_MS = 4_000;

export interface SignalGuard {
  dispose(): void;
}

/** `lastWords` writes what can still be written (final event, report) before a forced exit. */
export function guardSignals(controller: AbortController, lastWords: (kind: StopKind) => void): SignalGuard {
  let first: StopKind | null = null;
  const forceExit = (kind: StopKind) => {
    killAllProcessGroups('SIGKILL');
    try {
      lastWords(kind);
    } finally {
      process.exit(kind === 'SIGTERM' ? ExitCode.sigterm : ExitCode.sigint);
    }
  };
  const onSignal = (kind: StopKind) => () => {
    if (first) return forceExit(first);
    first = kind;
    controller.abort(new RunStop(kind));
    setTimeout(() => forceExit(kind), STOP_GRACE_MS).unref();
  };
  const onInt = onSignal('SIGINT');
  const onTerm = onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
