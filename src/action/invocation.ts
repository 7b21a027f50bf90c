// Inputs -> the `unattended run` child process: its arguments and its environment. The api key
// travels in the environment only (GEMINI_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY, for the provider that will
// run); the CLI strips provider keys from every tool's environment.
import fs from 'node:fs';
import path from 'node:path';
import type { ActionInputs } from './inputs.js';
import { yaml } from '../util/yaml.js';
import { settledProvider } from '../recipe/provider-of-model.js';
import { convertGooseRecipe, isGooseRecipe } from '../recipe/goose/convert.js';
import type { ProviderName } from '../recipe/types.js';

export interface Invocation {
  /** Arguments after `node`: the CLI script, then `run` and its flags. */
  args: string[];
  env: Record<string, string>;
}

export interface InvocationPaths {
  cli: string;
  outDir: string;
}

const KEY_VARIABLE = { gemini: 'GEMINI_API_KEY', openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', scripted: null } as const;

export async function buildInvocation(inputs: ActionInputs, parentEnv: NodeJS.ProcessEnv, paths: InvocationPaths): Promise<Invocation> {
  // `--flag=value` throughout: a value starting with '-' (a prompt, a path) stays a value.
  const flag = (name: string, value: string | number | null) => (value === null ? [] : [`--${name}=${value}`]);
  const args = [
    paths.cli,
    'run',
    ...(inputs.recipe ? [inputs.recipe.startsWith('-') ? `./${inputs.recipe}` : inputs.recipe] : []),
    ...flag('prompt', inputs.prompt),
    ...inputs.params.flatMap((p) => [`--param=${p}`]),
    ...flag('provider', inputs.provider),
    ...flag('model', inputs.model),
    ...flag('base-url', inputs.baseUrl),
    ...flag('approval', inputs.approval),
    ...inputs.allow.map((rule) => `--allow=${rule}`),
    ...inputs.deny.map((rule) => `--deny=${rule}`),
    ...flag('sandbox', inputs.sandbox),
    ...flag('workspace', inputs.workspace),
    ...flag('max-turns', inputs.maxTurns),
    ...flag('max-tool-calls', inputs.maxToolCalls),
    ...flag('max-tokens', inputs.maxTokens),
    ...flag('max-cost-usd', inputs.maxCostUsd),
    ...flag('timeout', inputs.timeout),
    ...flag('max-denials', inputs.maxDenials),
    ...(inputs.failOnDenial ? ['--fail-on-denial'] : []),
    ...inputs.checks.map((c) => `--check=${c}`),
    ...(inputs.requireChanges ? ['--require-changes'] : []),
    ...flag('check-retries', inputs.checkRetries),
    `--out=${paths.outDir}`,
    // Text: progress lines on stderr while the run goes (json prints nothing until the end);
    // the report is read from report.json in --out, the same object json mode would print.
    '--output-format=text',
    // The runner's own stdin is nobody's input; only stdin-file is.
    ...(inputs.stdinFile ? [] : ['--no-stdin']),
    // Flags the inputs do not cover (readInputs refused any that an input sets too).
    ...inputs.extraArgs,
  ];

  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    // Inputs stay with the action: INPUT_API_KEY is the key under another name.
    if (value !== undefined && !name.startsWith('INPUT_')) env[name] = value;
  }
  if (inputs.apiKey) {
    const recipe = await recipeBackend(inputs.recipe);
    // extra-args may name them too (no input did, or the step was refused): as the CLI reads them.
    const extraProvider = lastFlagValue(inputs.extraArgs, ['--provider']);
    const provider = extraProvider !== null && Object.hasOwn(KEY_VARIABLE, extraProvider) ? (extraProvider as ProviderName) : null;
    const model = lastFlagValue(inputs.extraArgs, ['--model', '-m']);
    const variable = KEY_VARIABLE[settledProvider([inputs.provider, provider, recipe.provider], [inputs.model, model, recipe.model])];
    if (variable) env[variable] = inputs.apiKey;
  }
  return { args, env };
}

/**
 * The provider and model a recipe names, so the key goes to the variable the run's provider reads
 * (settled as the CLI settles it: provider-of-model.ts). Unreadable or invalid recipes name
 * neither: the CLI reports them properly, with positions.
 */
export async function recipeBackend(recipe: string | null): Promise<{ provider: ProviderName | null; model: unknown }> {
  if (!recipe) return { provider: null, model: null };
  try {
    const { parse } = yaml();
    let data = parse(fs.readFileSync(recipe, 'utf8'), { merge: true }) as { provider?: unknown; model?: unknown } | null;
    // A goose recipe names them under settings (goose_provider: anthropic), as the CLI converts it.
    if (isGooseRecipe(data)) data = convertGooseRecipe(data as Record<string, unknown>, { file: path.resolve(recipe) }).recipe;
    const provider = typeof data?.provider === 'string' && Object.hasOwn(KEY_VARIABLE, data.provider) ? (data.provider as ProviderName) : null;
    return { provider, model: data?.model };
  } catch {
    return { provider: null, model: null };
  }
}

/** The value of a flag in `unattended run` arguments (`--model x`, `--model=x`, `-m x`), the last one given; null when absent. */
function lastFlagValue(args: readonly string[], names: readonly string[]): string | null {
  let value: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    if (eq > 0 && names.includes(arg.slice(0, eq))) value = arg.slice(eq + 1);
    else if (names.includes(arg) && i + 1 < args.length) value = args[++i]!;
  }
  return value;
}
