// The recipe layer's entry points: validate a file (every problem, positioned), load one into
// a frozen Recipe with its parameters and the command-line flags applied.
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { buildRecipe, parameterSpecs, type RawRecipe, type RecipeDraft } from './build.js';
import { InputError, RecipeError, type Problem } from './errors.js';
import { checkGitRef } from './git-ref.js';
import { applyOverrides, DEFAULT_MODELS, type RecipeOverrides } from './overrides.js';
import { settledProvider } from './provider-of-model.js';
import { resolveParams } from './params.js';
import { convertGooseRecipe, isGooseRecipe } from './goose/convert.js';
import { readRecipeText } from './recipe-text.js';
import { looksLikeToml, tomlRecipeProblem } from './toml-config.js';
import { frontMatterProblem, looksLikeFrontMatter } from './front-matter.js';
import { MappedSource, RecipeSource, sortProblems, type ProblemSink } from './positions.js';
import { checkSchema } from './schema-check.js';
import { checkSemantics } from './semantic.js';
import type { ProviderName, Recipe, RecipeConversion } from './types.js';
import { compileAnswerSchema } from '../util/json-schema.js';

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

/** The problems, and for a goose recipe what its conversion ignored or changed (`validate` prints both). */
export function inspectRecipeFile(file: string): { problems: Problem[]; warnings: string[] } {
  const { problems, data, conversion } = check(file);
  const warnings = [...(conversion?.warnings ?? [])];
  const missing = problems.length === 0 ? modelToGive(data as RawRecipe) : null;
  if (missing) warnings.push(missing);
  if (problems.length === 0) warnings.push(...uncheckedFormats(data as RawRecipe));
  return { problems, warnings };
}

/** The answer schema's formats nothing checks (the run says so too, as it starts). */
function uncheckedFormats(recipe: RawRecipe): string[] {
  const schema = (recipe.output as { schema?: unknown } | undefined)?.schema;
  return schema !== null && typeof schema === 'object' ? compileAnswerSchema(schema).unchecked : [];
}

/**
 * A recipe for a provider with no default model (openai, anthropic behind some gateways) and none
 * set is valid, since the model can come with --model, but a run without that flag stops at once
 * (exit 42): said here, not first at 3 a.m.
 */
function modelToGive(recipe: RawRecipe): string | null {
  const provider = settledProvider([recipe.provider as ProviderName | undefined], [recipe.model]);
  if (recipe.model !== undefined || DEFAULT_MODELS[provider] !== null) return null;
  return `provider '${provider}' has no default model: a run of this recipe needs --model NAME; set model: here to run it without`;
}

/** Throws RecipeError (the file is wrong) or InputError (parameters or flags are wrong). */
export function loadRecipe(file: string, opts: LoadOptions): Recipe {
  const cwd = opts.cwd ?? process.cwd();
  const { problems, data, source, conversion } = check(file, opts.overrides, cwd);
  if (problems.length) throw new RecipeError(problems);
  const raw = data as RawRecipe;
  const values = resolveParams(parameterSpecs(raw), opts.params);
  const draft = buildRecipe(raw, { file: resolve(file), cwd, values, baseDir: baseDirOf(file, cwd) });
  if (source) placeRules(draft, source);
  if (conversion) draft.conversion = conversion;
  const branchProblem = draft.git && checkGitRef(draft.git.branch);
  if (branchProblem) throw new InputError(`${draft.git!.section ?? 'git'}.branch after substituting parameters: ${branchProblem}`);
  return applyOverrides(draft, opts.overrides ?? {}, cwd);
}

/** Each rule remembers where the recipe writes it, so a denial can point at its line. */
function placeRules(draft: RecipeDraft, source: ProblemSink): void {
  for (const kind of ['allow', 'deny'] as const) {
    draft.confirmation[kind] = draft.confirmation[kind].map((rule, i) => ({
      ...rule,
      position: { file: source.file, ...source.positionOf(['confirmation', kind, i]) },
    }));
  }
}

interface Checked {
  problems: Problem[];
  /** The recipe in our format (converted when the file is a goose recipe). */
  data: unknown;
  source?: ProblemSink;
  conversion?: RecipeConversion;
}

/**
 * `unattended convert`: a goose recipe file in our format, checked as a run would check it, with
 * what the conversion ignored or changed. Throws RecipeError (every problem, at the goose file's
 * lines) when the file is not a goose recipe or has problems.
 */
export function convertRecipeFile(file: string): { recipe: Record<string, unknown>; warnings: string[] } {
  const { problems, data, conversion } = check(file);
  if (problems.length) throw new RecipeError(problems);
  if (!conversion) {
    throw new RecipeError([{ file, line: 1, col: 1, message: 'not a goose recipe (it has no title): this file is already in unattended\'s format' }]);
  }
  return { recipe: data as Record<string, unknown>, warnings: conversion.warnings };
}

/**
 * What a recipe's relative paths mean: its file's directory, or, for a recipe read from a pipe
 * (`unattended run <(cat r.yaml)` names /dev/fd/63), the current directory.
 */
function baseDirOf(file: string, cwd: string): string {
  return statSync(file, { throwIfNoEntry: false })?.isFile() === false ? resolve(cwd) : dirname(resolve(file));
}

/** A file's problems and data; a goose recipe is converted first, its problems placed in the goose file. */
function check(file: string, overrides?: RecipeOverrides, cwd = process.cwd()): Checked {
  const read = readRecipeText(file);
  if ('problem' in read) return { problems: [read.problem], data: undefined };
  const source = new RecipeSource(file, read.text);
  const isMap = typeof source.data === 'object' && source.data !== null && !Array.isArray(source.data);
  // Codex's config.toml given as a recipe: its kind and where each setting goes, not a YAML error.
  if (!isMap && looksLikeToml(read.text)) return { problems: [{ file, line: 1, col: 1, message: tomlRecipeProblem(basename(file), read.text) }], data: undefined };
  // A Claude Code sub-agent or slash command (Markdown under front matter): its kind, not "a second YAML document".
  if (source.data === undefined && looksLikeFrontMatter(read.text, file)) return { problems: [{ file, line: 1, col: 1, message: frontMatterProblem(basename(file)) }], data: undefined };
  if (source.data === undefined) return { problems: sortProblems(source.problems), data: undefined };
  let data = source.data;
  let sink: ProblemSink = source;
  let conversion: RecipeConversion | undefined;
  if (isGooseRecipe(data)) {
    const goose = convertGooseRecipe(data as Record<string, unknown>, { file: resolve(file), dir: baseDirOf(file, cwd), approvalGiven: overrides?.approval !== undefined });
    for (const p of goose.problems) source.add(p.path, p.message);
    data = goose.recipe;
    sink = new MappedSource(source, goose.origin, goose.rename);
    conversion = { from: 'goose', warnings: goose.warnings };
  }
  checkSchema(sink, data);
  // `unattended TODO.md`: an existing file is read as a recipe, but one that is no YAML map and not
  // named as a recipe is most likely the task's notes: say how to hand them to the model instead.
  // An empty file holds no task either: "the recipe is empty" says it all.
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data)) && !/\.(ya?ml|json)$/i.test(file)) {
    const name = basename(file);
    source.add([], `${name} is not a recipe (a YAML map): for the task it holds, pass -p "$(cat ${name})" or -p "Do what ${name} says"`);
  }
  checkSemantics(sink, data, { baseDir: baseDirOf(file, cwd), overrides, converted: conversion !== undefined });
  return { problems: sortProblems(source.problems), data, source: sink, ...(conversion ? { conversion } : {}) };
}
