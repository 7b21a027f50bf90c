// The two ways a recipe load fails, each with its exit code (DESIGN.md): the recipe file itself
// is wrong (52), or what the user passed with it is wrong (42).

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
export class RecipeError extends Error {
  readonly exitCode = 52;
  constructor(readonly problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'RecipeError';
  }
}

/** Bad parameters or flags: the message names what is wrong and how to fix it. */
export class InputError extends Error {
  readonly exitCode = 42;
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}
