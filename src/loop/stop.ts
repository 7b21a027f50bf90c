// Why the run's AbortSignal fired. The runner aborts with one of these as the reason, so every
// layer that sees the abort can tell a wall-clock limit from Ctrl-C from SIGTERM.
import type { RunOutcome } from '../types/outcome.js';
import { ExitCode } from '../types/outcome.js';

export type StopKind = 'timeout' | 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The exit code of a run stopped by a signal: 128 + its number, as a shell reports a death by it. */
export function signalExitCode(kind: Exclude<StopKind, 'timeout'>): number {
  return kind === 'SIGTERM' ? ExitCode.sigterm : kind === 'SIGHUP' ? ExitCode.sighup : ExitCode.sigint;
}

export class RunStop extends Error {
  constructor(readonly kind: StopKind) {
    super(kind === 'timeout' ? 'the run reached its wall-clock timeout' : `the run was stopped by ${kind}`);
    this.name = 'RunStop';
  }
}

export function stopOutcome(reason: unknown): RunOutcome {
  const kind = reason instanceof RunStop ? reason.kind : 'SIGINT';
  if (kind === 'timeout') return { status: 'limit', exitCode: ExitCode.budget, finalAnswer: null, error: 'limit reached: timeout' };
  return {
    status: 'cancelled',
    exitCode: signalExitCode(kind),
    finalAnswer: null,
    error: `cancelled by ${kind}`,
  };
}
