// Every failure the user can cause is a UserFacingError (types/errors.ts) that carries its exit
// code, status and hint; anything else is a bug: exit 1 with "unexpected error", and a stack trace
// only with DEBUG.
import { UserFacingError } from '../types/errors.js';
import { ExitCode, type RunOutcome } from '../types/outcome.js';
import { terminalSafe } from '../util/terminal.js';

export function classifyError(error: unknown): RunOutcome {
  if (error instanceof UserFacingError) {
    return { status: error.runStatus, exitCode: error.exitCode, finalAnswer: null, error: error.userMessage, errorKind: error.kind };
  }
  return { status: 'error', exitCode: ExitCode.failed, finalAnswer: null, error: `unexpected error: ${(error as Error)?.message ?? String(error)}` };
}

/** For commands other than run: print one line (or the recipe's problems) and return the code. */
export function reportCliError(error: unknown): number {
  const outcome = classifyError(error);
  process.stderr.write(`unattended: ${terminalSafe(outcome.error ?? '')}\n`);
  if (process.env.DEBUG && !(error instanceof UserFacingError) && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return outcome.exitCode;
}
