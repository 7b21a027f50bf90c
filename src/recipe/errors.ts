// The two ways a recipe load fails, each with its exit code: the recipe file itself is wrong
// (RecipeError, 52), or what the user passed with it is wrong (InputError, 42, from types/errors.ts).
import { ExitCode } from '../types/outcome.js';
import { InputError, UserFacingError } from '../types/errors.js';

export { InputError };

/** One thing wrong with a recipe file, at the 1-based position of the offending YAML node. */
export interface Problem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}

/** The recipe file is invalid; `problems` holds every problem found, in file order. */
export class RecipeError extends UserFacingError {
  readonly kind = 'recipe';
  readonly exitCode = ExitCode.badRecipe;
  constructor(readonly problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
  }

  override get userMessage(): string {
    return `invalid recipe:\n${this.message}`;
  }
}
