// How the command line asked for a run — the recipe file, its parameters, the flags, the directory
// they were given in — recorded in run_start, so that `run --continue` rebuilds the same recipe and
// policy, with the new flags on top. A continued run without a recipe of its own records the
// invocation it continues as its `base`, so a chain of continuations keeps the first one's recipe.
// From the recipe layer's files, not its index.js, which would bring the recipe file reader along
// (see recipeFromInvocation).
import path from 'node:path';
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

/**
 * A continued run's invocation on the earlier one's, with the flags a peer's user gives again at
 * each turn (`claude -c -p "…" --mcp-config m.json --append-system-prompt "…"`) taken as given once:
 * an `--mcp-config` the earlier run named already is its servers, not a second definition of each;
 * a new `--append-system-prompt` or `--output-schema` replaces the earlier run's (appended twice,
 * or the earlier file read though it may be gone, before). Neither bounds what the run may do.
 */
export function continuing(inv: Invocation, earlier: Invocation): Invocation {
  const named = new Set(mcpConfigsOf(earlier));
  const mcpConfig = inv.overrides.mcpConfig?.filter((value) => !named.has(mcpConfigKey(value, inv.cwd)));
  return { ...inv, overrides: mcpConfig ? { ...inv.overrides, mcpConfig } : inv.overrides, base: withoutReplaced(earlier, inv.overrides) };
}

const REPLACED = ['appendSystemPrompt', 'outputSchema'] as const;

function withoutReplaced(inv: Invocation, given: RecipeOverrides): Invocation {
  const overrides = { ...inv.overrides };
  for (const flag of REPLACED) if (given[flag] !== undefined) delete overrides[flag];
  return { ...inv, overrides, ...(inv.base ? { base: withoutReplaced(inv.base, given) } : {}) };
}

/** The inline JSON itself, or the file's full path (relative paths are from the invocation's directory). */
const mcpConfigKey = (value: string, cwd: string) => (value.trimStart().startsWith('{') ? value : path.resolve(cwd, value));

function mcpConfigsOf(inv: Invocation): string[] {
  return [...(inv.overrides.mcpConfig ?? []).map((value) => mcpConfigKey(value, inv.cwd)), ...(inv.base ? mcpConfigsOf(inv.base) : [])];
}

/** What run_start records: the prompt is left out (it is the run's own, not its configuration). */
export function recordedInvocation(inv: Invocation): Invocation {
  const { prompt: _prompt, ...overrides } = inv.overrides;
  return { ...inv, overrides, ...(inv.base ? { base: recordedInvocation(inv.base) } : {}) };
}

/** An invocation read back from a transcript: none (a transcript from before they were recorded), or what is wrong with the record. */
export type ReadInvocation = { invocation: Invocation | null; problem: null } | { invocation: null; problem: string };

/**
 * The recorded flags are applied as the command line's would be: each must be of its flag's type,
 * and a flag this version does not know (a newer one wrote it, or a hand) is refused rather than
 * dropped, since it may be one that narrowed what the earlier run could do.
 */
const OVERRIDE_KINDS: Record<keyof RecipeOverrides, 'string' | 'number' | 'boolean' | 'duration' | 'strings'> = {
  prompt: 'string',
  provider: 'string',
  model: 'string',
  approval: 'string',
  allow: 'strings',
  deny: 'strings',
  workspace: 'string',
  maxTurns: 'number',
  maxToolCalls: 'number',
  timeout: 'duration',
  maxTokens: 'number',
  modelIdleTimeout: 'duration',
  modelRetries: 'number',
  script: 'string',
  baseUrl: 'string',
  maxDenials: 'number',
  failOnDenial: 'boolean',
  checks: 'strings',
  requireChanges: 'boolean',
  checkRetries: 'number',
  checkTimeout: 'duration',
  stream: 'boolean',
  maxCostUsd: 'number',
  sandbox: 'string',
  tools: 'strings',
  mcpConfig: 'strings',
  appendSystemPrompt: 'string',
  outputSchema: 'string',
  context: 'boolean',
};

export function parseInvocation(value: unknown): ReadInvocation {
  if (value === undefined) return { invocation: null, problem: null };
  const problem = invocationProblem(value, 'invocation');
  return problem ? { invocation: null, problem } : { invocation: checkedInvocation(value as Invocation), problem: null };
}

/** Only the fields an invocation has: nothing else a record holds is carried into the next run's. */
function checkedInvocation(v: Invocation): Invocation {
  return { cwd: v.cwd, recipe: v.recipe, params: v.params, overrides: v.overrides, ...(v.base ? { base: checkedInvocation(v.base) } : {}) };
}

function invocationProblem(value: unknown, at: string): string | null {
  if (!isRecord(value)) return `${at} is not an object`;
  if (typeof value.cwd !== 'string') return `${at}.cwd is not a string`;
  if (value.recipe !== null && typeof value.recipe !== 'string') return `${at}.recipe is neither a string nor null`;
  if (!isStrings(value.params)) return `${at}.params is not a list of strings`;
  if (!isRecord(value.overrides)) return `${at}.overrides is not an object`;
  for (const [flag, given] of Object.entries(value.overrides)) {
    const kind = OVERRIDE_KINDS[flag as keyof RecipeOverrides] as (typeof OVERRIDE_KINDS)[keyof RecipeOverrides] | undefined;
    if (kind === undefined) return `${at}.overrides.${flag} is no flag this version of unattended knows`;
    const fits = kind === 'strings' ? isStrings(given) : kind === 'duration' ? typeof given === 'string' || typeof given === 'number' : typeof given === kind;
    if (!fits) return `${at}.overrides.${flag} is not ${kind === 'strings' ? 'a list of strings' : kind === 'duration' ? 'a duration' : `a ${kind}`}`;
  }
  return value.base === undefined ? null : invocationProblem(value.base, `${at}.base`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
