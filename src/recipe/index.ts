// The recipe layer's public surface: import from here, not from the files behind it.
export { validateRecipeFile, inspectRecipeFile, loadRecipe, convertRecipeFile, type LoadOptions } from './load.js';
export { adHocRecipe, applyOverrides as overrideRecipe, DEFAULT_MODELS, type RecipeOverrides } from './overrides.js';
export { RecipeError, InputError, formatProblem, type Problem } from './errors.js';
export { parseDuration } from './duration.js';
export { ruleKind, splitCliRule, type RuleKind } from './rules.js';
export { peerToolNameHint } from './peer-tool-names.js';
export { closest } from './suggest.js';
export { RECIPE_SCHEMA } from './schema.js';
export type * from './types.js';
export { DEFAULT_LIMITS } from './types.js';
export { parseParamPairs } from './params.js';
