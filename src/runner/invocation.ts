// How the command line asked for a run — the recipe file, its parameters, the flags, the directory
// they were given in — recorded in run_start, so that `run --continue` rebuilds the same recipe and
// policy, with the new flags on top. A continued run without a recipe of its own records the
// invocation it continues as its `base`, so a chain of continuations keeps the first one's recipe.
import { adHocRecipe, InputError, loadRecipe, overrideRecipe, parseParamPairs, type Recipe, type RecipeOverrides } from '../recipe/index.js';

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

export function recipeFromInvocation(inv: Invocation): Recipe {
  const params = parseParamPairs(inv.params);
  if (inv.recipe) return loadRecipe(inv.recipe, { params, overrides: inv.overrides, cwd: inv.cwd });
  if (inv.params.length) throw new InputError('--param needs a recipe that declares parameters');
  if (inv.base) return overrideRecipe(recipeFromInvocation(inv.base), inv.overrides, inv.cwd);
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
