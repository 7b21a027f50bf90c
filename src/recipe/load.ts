// The recipe layer's entry points: validate a file (every problem, positioned), load one into
// a frozen Recipe with its parameters and the command-line flags applied.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildRecipe, parameterSpecs, type RawRecipe, type RecipeDraft } from './build.js';
import { InputError, RecipeError, type Problem } from './errors.js';
import { checkGitRef } from './git-ref.js';
import { applyOverrides, type RecipeOverrides } from './overrides.js';
import { resolveParams } from './params.js';
import { RecipeSource, sortProblems } from './positions.js';
import { checkSchema } from './schema-check.js';
import { checkSemantics } from './semantic.js';
import type { Recipe } from './types.js';

export interface LoadOptions {
  /** Values given with --param name=value. */
  params: Record<string, string>;
  overrides?: RecipeOverrides;
  /** Where a recipe without `workspace` runs, and what relative flag paths mean; default process.cwd(). */
  cwd?: string;
}

/** Every problem in the recipe file, in file order; empty when it is valid. */
export function validateRecipeFile(file: string): Problem[] {
  return check(file).problems;
}

/** Throws RecipeError (the file is wrong) or InputError (parameters or flags are wrong). */
export function loadRecipe(file: string, opts: LoadOptions): Recipe {
  const { problems, data, source } = check(file, opts.overrides);
  if (problems.length) throw new RecipeError(problems);
  const raw = data as RawRecipe;
  const cwd = opts.cwd ?? process.cwd();
  const values = resolveParams(parameterSpecs(raw), opts.params);
  const draft = buildRecipe(raw, { file: resolve(file), cwd, values });
  if (source) placeRules(draft, source);
  const branchProblem = draft.git && checkGitRef(draft.git.branch);
  if (branchProblem) throw new InputError(`git.branch after substituting parameters: ${branchProblem}`);
  return applyOverrides(draft, opts.overrides ?? {}, cwd);
}

/** Each rule remembers where the recipe writes it, so a denial can point at its line. */
function placeRules(draft: RecipeDraft, source: RecipeSource): void {
  for (const kind of ['allow', 'deny'] as const) {
    draft.confirmation[kind] = draft.confirmation[kind].map((rule, i) => ({
      ...rule,
      position: { file: source.file, ...source.positionOf(['confirmation', kind, i]) },
    }));
  }
}

function check(file: string, overrides?: RecipeOverrides): { problems: Problem[]; data: unknown; source?: RecipeSource } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    return { problems: [{ file, line: 1, col: 1, message: `cannot read recipe: ${why}` }], data: undefined };
  }
  const source = new RecipeSource(file, text);
  if (source.data !== undefined) {
    checkSchema(source, source.data);
    checkSemantics(source, source.data, { baseDir: dirname(resolve(file)), overrides });
  }
  return { problems: sortProblems(source.problems), data: source.data, source };
}
