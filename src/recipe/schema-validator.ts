// The recipe schema's validator. Compiled with ajv at first use here; the build (scripts/build.mjs)
// replaces this whole module with the same validator generated ahead of time by ajv's standalone
// code generator, so the shipped CLI never compiles the schema: compiling it cost ~45 ms of every
// run's and every `validate`'s start-up. Both paths use RECIPE_AJV_OPTIONS, so they report the
// same errors; the e2e tests exercise the generated one, the unit tests this one.
import { Ajv, type ValidateFunction } from 'ajv';
import { RECIPE_AJV_OPTIONS, RECIPE_SCHEMA } from './schema.js';

let validator: ValidateFunction | undefined;

export function recipeValidator(): ValidateFunction {
  validator ??= new Ajv(RECIPE_AJV_OPTIONS).compile(RECIPE_SCHEMA);
  return validator;
}
