// Why the run's AbortSignal fired. The runner aborts with one of these as the reason, so every
// layer that sees the abort can tell a wall-clock limit from Ctrl-C from SIGTERM.
import type { RunOutcome } from '../types/outcome.js';
import { ExitCode } from '../types/outcome.js';
import { durationText } from '../util/duration-text.js';

export type StopKind = 'timeout' | 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The exit code of a run stopped by a signal: 128 + its number, as a shell reports a death by it. */
export function signalExitCode(kind: Exclude<StopKind, 'timeout'>): number {
  return kind === 'SIGTERM' ? ExitCode.sigterm : kind === 'SIGHUP' ? ExitCode.sighup : ExitCode.sigint;
}

export class RunStop extends Error {
  /** `limitMs`: the timeout's value, for a 'timeout', so the error says it as other limits say theirs. */
  constructor(
    readonly kind: StopKind,
    readonly limitMs: number | null = null,
  ) {
    super(kind === 'timeout' ? `the run reached its wall-clock timeout${limitMs === null ? '' : ` (${durationText(limitMs)})`}` : `the run was stopped by ${kind}`);
    this.name = 'RunStop';
  }
}

export function stopOutcome(reason: unknown): RunOutcome {
  const kind = reason instanceof RunStop ? reason.kind : 'SIGINT';
  if (kind === 'timeout') {
    const value = reason instanceof RunStop && reason.limitMs !== null ? ` (${durationText(reason.limitMs)})` : '';
    return { status: 'limit', exitCode: ExitCode.budget, finalAnswer: null, error: `limit reached: timeout${value}` };
  }
  return {
    status: 'cancelled',
    exitCode: signalExitCode(kind),
    finalAnswer: null,
    error: `cancelled by ${kind}`,
  };
}
