import { adHocRecipe, InputError, loadRecipe, parseParamPairs as parseParams, type Recipe, type RecipeOverrides } from '../recipe/index.js';

export { parseParams };

/** The recipe a command works on: the file with its --param values, or one made from the flags alone. */
export function recipeFromArgs(file: string | null | undefined, paramPairs: readonly string[], overrides: RecipeOverrides = {}): Recipe {
  const params = parseParams(paramPairs);
  if (file) return loadRecipe(file, { params, overrides });
  if (Object.keys(params).length) throw new InputError('--param needs a recipe that declares parameters');
  return adHocRecipe(overrides, process.cwd());
}
