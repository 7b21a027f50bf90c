// How the command line asked for a run — the recipe file, its parameters, the flags, the directory
// they were given in — recorded in run_start, so that `run --continue` rebuilds the same recipe and
// policy, with the new flags on top. A continued run without a recipe of its own records the
// invocation it continues as its `base`, so a chain of continuations keeps the first one's recipe.
// From the recipe layer's files, not its index.js, which would bring the recipe file reader along
// (see recipeFromInvocation).
import { adHocRecipe, applyOverrides as overrideRecipe, type RecipeOverrides } from '../recipe/overrides.js';
import { parseParamPairs } from '../recipe/params.js';
import type { Recipe } from '../recipe/types.js';
import { InputError } from '../types/errors.js';

export interface Invocation {
  /** Relative paths in the flags, and a recipe without `workspace`, mean this directory. */
  cwd: string;
  /** Absolute path of the recipe file; null: the flags alone, or the base's recipe. */
  recipe: string | null;
  /** The --param pairs as given (`k=v`). */
  params: string[];
  /** The flags, without the prompt (run_start carries it). */
  overrides: RecipeOverrides;
  /** The continued run's invocation, when this one names no recipe of its own. */
  base?: Invocation;
}

export async function recipeFromInvocation(inv: Invocation): Promise<Recipe> {
  const params = parseParamPairs(inv.params);
  if (inv.recipe) {
    // The recipe file reader (YAML positions, goose conversion, the schema's 127 kB validator) is
    // loaded by the runs that have a file: a run from flags alone sends its first request sooner.
    const { loadRecipe } = await import('../recipe/load.js');
    return loadRecipe(inv.recipe, { params, overrides: inv.overrides, cwd: inv.cwd });
  }
  if (inv.params.length) throw new InputError('--param needs a recipe that declares parameters');
  if (inv.base) return overrideRecipe(await recipeFromInvocation(inv.base), inv.overrides, inv.cwd);
  return adHocRecipe(inv.overrides, inv.cwd);
}

/** What run_start records: the prompt is left out (it is the run's own, not its configuration). */
export function recordedInvocation(inv: Invocation): Invocation {
  const { prompt: _prompt, ...overrides } = inv.overrides;
  return { ...inv, overrides, ...(inv.base ? { base: recordedInvocation(inv.base) } : {}) };
}

/** An invocation read back from a transcript; null when there is none or it is not one. */
export function parseInvocation(value: unknown): Invocation | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.cwd !== 'string' || (v.recipe !== null && typeof v.recipe !== 'string')) return null;
  if (!Array.isArray(v.params) || !v.params.every((p) => typeof p === 'string') || typeof v.overrides !== 'object' || v.overrides === null) return null;
  const base = v.base === undefined ? undefined : parseInvocation(v.base);
  if (base === null) return null;
  return {
    cwd: v.cwd,
    recipe: v.recipe as string | null,
    params: v.params as string[],
    overrides: v.overrides as RecipeOverrides,
    ...(base ? { base } : {}),
  };
}
