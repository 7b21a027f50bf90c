import { adHocRecipe, InputError, loadRecipe, type Recipe, type RecipeOverrides } from '../recipe/index.js';

/** `--param k=v` pairs; the value may itself contain `=`. */
export function parseParams(pairs: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InputError(`--param '${pair}' must be name=value, e.g. --param old=foo`);
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return params;
}

/** The recipe a command works on: the file with its --param values, or one made from the flags alone. */
export function recipeFromArgs(file: string | null | undefined, paramPairs: readonly string[], overrides: RecipeOverrides = {}): Recipe {
  const params = parseParams(paramPairs);
  if (file) return loadRecipe(file, { params, overrides });
  if (Object.keys(params).length) throw new InputError('--param needs a recipe that declares parameters');
  return adHocRecipe(overrides, process.cwd());
}
