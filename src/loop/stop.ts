// Why the run's AbortSignal fired. The runner aborts with one of these as the reason, so every
// layer that sees the abort can tell a wall-clock limit from Ctrl-C from SIGTERM.
import type { RunOutcome } from '../types/outcome.js';
import { ExitCode } from '../types/outcome.js';

export type StopKind = 'timeout' | 'SIGINT' | 'SIGTERM';

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
    exitCode: kind === 'SIGTERM' ? ExitCode.sigterm : ExitCode.sigint,
    finalAnswer: null,
    error: `cancelled by ${kind}`,
  };
}
