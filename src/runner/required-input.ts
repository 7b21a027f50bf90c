// `input: required`: a recipe that works on piped input (a diff, an issue) ends before any model
// call when there is none, instead of paying for an answer about nothing (exit 42).
import path from 'node:path';
import type { Recipe } from '../recipe/types.js';
import { InputError } from '../types/errors.js';

/** Throws when the recipe needs piped input and `stdinContext` is absent or blank; `ignored`: --no-stdin kept it unread. */
export function requireInput(recipe: Recipe, stdinContext: string | null, ignored = false): void {
  if (recipe.input !== 'required' || stdinContext?.trim()) return;
  // Whatever was piped, --no-stdin left it unread: "nothing was piped" would send the user to look at the pipe.
  const what = ignored ? '--no-stdin says not to read it' : stdinContext === null ? 'nothing was piped to it' : 'the piped input was empty';
  const name = recipe.file ? path.basename(recipe.file) : 'this recipe';
  throw new InputError(
    `${name} needs input on standard input (input: required), but ${what}; no model was called`,
    `${ignored ? 'drop --no-stdin and ' : ''}pipe what it works on into the run, e.g. \`git diff | unattended run ${name}\` (in the GitHub Action: the stdin-file input)`,
  );
}

