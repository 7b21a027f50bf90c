// The action's inputs, read from the environment. A node action receives them as INPUT_<NAME>
// with the name upper-cased and hyphens kept (INPUT_API-KEY, what @actions/core reads); the
// composite step in action.yml passes them with underscores (INPUT_API_KEY), which a shell can
// name. Never from arguments: the api key must not appear on any command line.

import { parseExtraArgs } from './extra-args.js';
import { ActionInputError } from './input-error.js';
import { peerValueHint } from '../recipe/peer-values.js';
import { providerHint } from '../recipe/provider-hint.js';
import { didYouMean } from '../recipe/suggest.js';

export { ActionInputError };

export const PROVIDERS = ['gemini', 'openai', 'anthropic', 'scripted'] as const;
export const APPROVALS = ['auto-approve', 'deny', 'allowlist'] as const;
export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;

export interface ActionInputs {
  recipe: string | null;
  prompt: string | null;
  /** `key=value` lines, each becoming one --param. */
  params: string[];
  provider: (typeof PROVIDERS)[number] | null;
  model: string | null;
  apiKey: string | null;
  baseUrl: string | null;
  approval: (typeof APPROVALS)[number] | null;
  /** --sandbox: empty keeps the recipe's sandbox.mode. */
  sandbox: (typeof SANDBOX_MODES)[number] | null;
  workspace: string | null;
  /** Allow and deny rules, one a line (each becomes one --allow / --deny). */
  allow: string[];
  deny: string[];
  maxTurns: number | null;
  maxToolCalls: number | null;
  maxTokens: number | null;
  /** Dollars, as the CLI's --max-cost-usd takes them. */
  maxCostUsd: number | null;
  timeout: string | null;
  /** A file given to the run on standard input (appended to the prompt as context). */
  stdinFile: string | null;
  /** Any denial ends the run with exit 57 (passed as --fail-on-denial). */
  failOnDenial: boolean;
  maxDenials: number | null;
  /** Success-check commands, one a line (each becomes one --check). */
  checks: string[];
  requireChanges: boolean;
  checkRetries: number | null;
  /** More `unattended run` arguments, split like a shell line (quotes, no expansion). */
  extraArgs: string[];
}


/** The raw value of an input: the hyphenated form wins, then the underscored one. */
export function rawInput(env: NodeJS.ProcessEnv, name: string): string {
  const upper = name.toUpperCase().replace(/ /g, '_');
  const value = env[`INPUT_${upper}`] ?? env[`INPUT_${upper.replace(/-/g, '_')}`] ?? '';
  return value.trim();
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const text = (name: string) => rawInput(env, name) || null;
  // Checked here so a typo fails the step early; the upload and the comment are later steps of action.yml.
  booleanInput('upload-artifacts', rawInput(env, 'upload-artifacts'));
  booleanInput('comment', rawInput(env, 'comment'));
  const inputs: ActionInputs = {
    recipe: text('recipe'),
    prompt: text('prompt'),
    params: parseParamLines(rawInput(env, 'params')),
    provider: oneOf('provider', text('provider'), PROVIDERS),
    model: text('model'),
    apiKey: text('api-key'),
    baseUrl: text('base-url'),
    approval: oneOf('approval', text('approval'), APPROVALS),
    sandbox: oneOf('sandbox', text('sandbox'), SANDBOX_MODES),
    workspace: text('workspace'),
    allow: ruleLines(rawInput(env, 'allow')),
    deny: ruleLines(rawInput(env, 'deny')),
    maxTurns: positiveInteger('max-turns', text('max-turns')),
    maxToolCalls: positiveInteger('max-tool-calls', text('max-tool-calls')),
    maxTokens: positiveInteger('max-tokens', text('max-tokens')),
    maxCostUsd: positiveAmount('max-cost-usd', text('max-cost-usd')),
    timeout: text('timeout'),
    stdinFile: text('stdin-file'),
    failOnDenial: booleanInput('fail-on-denial', rawInput(env, 'fail-on-denial')),
    maxDenials: wholeNumber('max-denials', text('max-denials')),
    checks: commandLines(rawInput(env, 'checks')),
    requireChanges: booleanInput('require-changes', rawInput(env, 'require-changes')),
    checkRetries: wholeNumber('check-retries', text('check-retries')),
    extraArgs: parseExtraArgs(rawInput(env, 'extra-args')),
  };
  refuseDoubleSettings(inputs);
  return inputs;
}

/** The inputs that become a single-valued flag of `unattended run`, by flag name. */
const SINGLE_VALUED: Record<string, (i: ActionInputs) => unknown> = {
  prompt: (i) => i.prompt,
  provider: (i) => i.provider,
  model: (i) => i.model,
  'base-url': (i) => i.baseUrl,
  approval: (i) => i.approval,
  sandbox: (i) => i.sandbox,
  workspace: (i) => i.workspace,
  'max-turns': (i) => i.maxTurns,
  'max-tool-calls': (i) => i.maxToolCalls,
  'max-tokens': (i) => i.maxTokens,
  'max-cost-usd': (i) => i.maxCostUsd,
  timeout: (i) => i.timeout,
  'max-denials': (i) => i.maxDenials,
  'fail-on-denial': (i) => (i.failOnDenial ? true : null),
  'require-changes': (i) => (i.requireChanges ? true : null),
  'check-retries': (i) => i.checkRetries,
};
const SHORT_FLAGS: Record<string, string> = { '-p': 'prompt', '-m': 'model' };

/**
 * A flag set both by an input and in extra-args: which one wins would be the argument parser's
 * choice (a repeated number flag becomes a list), so neither does: the step says to pick one.
 * Repeatable flags (--allow, --deny, --param, --check) simply add up.
 */
function refuseDoubleSettings(inputs: ActionInputs): void {
  for (const arg of inputs.extraArgs) {
    const raw = arg.split('=', 1)[0]!;
    const name = SHORT_FLAGS[raw] ?? raw.replace(/^--(no-)?/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (!raw.startsWith('-') || !(name in SINGLE_VALUED)) continue;
    if (SINGLE_VALUED[name]!(inputs) !== null) {
      throw new ActionInputError(`extra-args: ${raw} is also set by the ${name} input; set it in one place`);
    }
  }
}

/** One command a line; blank lines and `#` comments skipped (a command's own `#` after text stays). */
export function commandLines(block: string): string[] {
  return block
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Policy rules, one a line, as `--allow`/`--deny` take them (`shell:npm test`, `edit:src/**`, `docs__*`); the CLI checks each. */
export function ruleLines(block: string): string[] {
  return commandLines(block);
}

/** One `key=value` a line, spaces around key and value ignored; blank lines and `#` comments skipped. Values may contain =. */
export function parseParamLines(block: string): string[] {
  const params: string[] = [];
  block.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new ActionInputError(`params line ${i + 1}: expected key=value, got "${line.slice(0, 60)}"`);
    params.push(`${line.slice(0, eq).trim()}=${line.slice(eq + 1).trimStart()}`);
  });
  return params;
}

/** The YAML 1.2 core booleans, as @actions/core's getBooleanInput accepts; empty means false. */
export function booleanInput(name: string, value: string): boolean {
  if (value === '' || ['false', 'False', 'FALSE'].includes(value)) return false;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  throw new ActionInputError(`${name}: expected true or false, got "${value.slice(0, 40)}"`);
}

function oneOf<T extends string>(name: string, value: string | null, allowed: readonly T[]): T | null {
  if (value === null) return null;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ActionInputError(`${name}: expected one of ${allowed.join(', ')}, got "${value.slice(0, 40)}"${choiceHint(name, value, allowed)}`);
}

/**
 * What was meant by a value outside the choices, as the CLI says it for the same flag: a peer's
 * approval or sandbox mode (`yolo`, `workspace-write`) gets what to write here, a provider named by
 * vendor (`claude`) the provider that serves it, a typo "did you mean"; each with ": " before it.
 */
function choiceHint(name: string, value: string, allowed: readonly string[]): string {
  if (name === 'provider') return providerHint(value, [...allowed], 'the base-url input');
  const peer = name === 'approval' || name === 'sandbox' ? peerValueHint(name, value, 'input') : null;
  if (peer) return `: ${peer}`;
  return didYouMean(value, allowed).replace(/^ \((.*)\)$/, ': $1');
}

function wholeNumber(name: string, value: string | null): number | null {
  if (value === null) return null;
  if (!/^(0|[1-9][0-9]{0,6})$/.test(value)) throw new ActionInputError(`${name}: expected a whole number (0 or more), got "${value.slice(0, 40)}"`);
  return Number(value);
}

function positiveInteger(name: string, value: string | null): number | null {
  if (value === null) return null;
  if (!/^[1-9][0-9]{0,6}$/.test(value)) throw new ActionInputError(`${name}: expected a positive whole number, got "${value.slice(0, 40)}"`);
  return Number(value);
}

/** Dollars: a positive decimal such as 0.5 or 2. */
function positiveAmount(name: string, value: string | null): number | null {
  if (value === null) return null;
  const amount = /^[0-9]{1,6}(\.[0-9]{1,6})?$/.test(value) ? Number(value) : NaN;
  if (!(amount > 0)) throw new ActionInputError(`${name}: expected an amount in US dollars greater than 0 with at most 6 decimals, e.g. 0.50, got "${value.slice(0, 40)}"`);
  return amount;
}
