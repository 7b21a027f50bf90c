// Every failure the user can cause maps to one clear message and a documented exit code; a stack
// trace is printed only for a bug (an error none of these classes describe), and only with DEBUG.
import type { RunOutcome } from '../types/outcome.js';
import { ExitCode } from '../types/outcome.js';
import { ProviderError } from '../providers/provider.js';
import { InputError, RecipeError } from '../recipe/index.js';
import { NoPromptError } from '../runner/execute-run.js';

export function classifyError(error: unknown): RunOutcome {
  const fail = (status: RunOutcome['status'], exitCode: number, message: string): RunOutcome => ({ status, exitCode, finalAnswer: null, error: message });
  if (error instanceof RecipeError) return fail('error', ExitCode.badRecipe, `invalid recipe:\n${error.message}`);
  if (error instanceof InputError || error instanceof NoPromptError) return fail('error', ExitCode.badInput, error.message);
  if (error instanceof ProviderError) {
    return error.kind === 'auth' ? fail('error', ExitCode.auth, error.message) : fail('failed', ExitCode.failed, `model: ${error.message}`);
  }
  const name = (error as Error | undefined)?.name;
  // Where the run's outputs cannot be written there is no report either: say where, and how to fix.
  if (name === 'OutputDirError' || name === 'TranscriptWriteError') return fail('error', ExitCode.badInput, (error as Error).message);
  // Configuration the recipe points at (a script file, discovered tools, a required MCP server).
  if (name === 'ScriptError' || name === 'DiscoveryError' || name === 'McpStartError') {
    return fail('error', ExitCode.badRecipe, (error as Error).message);
  }
  return fail('error', ExitCode.failed, `unexpected error: ${(error as Error)?.message ?? String(error)}`);
}

/** For commands other than run: print one line (or the recipe's problems) and return the code. */
export function reportCliError(error: unknown): number {
  const outcome = classifyError(error);
  process.stderr.write(`unattended: ${outcome.error}\n`);
  if (process.env.DEBUG && error instanceof Error && outcome.error?.startsWith('unexpected')) process.stderr.write(`${error.stack}\n`);
  return outcome.exitCode;
}
