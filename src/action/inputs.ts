// The action's inputs, read from the environment. A node action receives them as INPUT_<NAME>
// with the name upper-cased and hyphens kept (INPUT_API-KEY, what @actions/core reads); the
// composite step in action.yml passes them with underscores (INPUT_API_KEY), which a shell can
// name. Never from arguments: the api key must not appear on any command line.

import { InputError } from '../types/errors.js';

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
  maxTurns: number | null;
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
}

export class ActionInputError extends InputError {}

/** The raw value of an input: the hyphenated form wins, then the underscored one. */
export function rawInput(env: NodeJS.ProcessEnv, name: string): string {
  const upper = name.toUpperCase().replace(/ /g, '_');
  const value = env[`INPUT_${upper}`] ?? env[`INPUT_${upper.replace(/-/g, '_')}`] ?? '';
  return value.trim();
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const text = (name: string) => rawInput(env, name) || null;
  // Checked here so a typo fails the step early; the upload itself is a later step of action.yml.
  booleanInput('upload-artifacts', rawInput(env, 'upload-artifacts'));
  return {
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
    maxTurns: positiveInteger('max-turns', text('max-turns')),
    timeout: text('timeout'),
    stdinFile: text('stdin-file'),
    failOnDenial: booleanInput('fail-on-denial', rawInput(env, 'fail-on-denial')),
    maxDenials: wholeNumber('max-denials', text('max-denials')),
    checks: commandLines(rawInput(env, 'checks')),
    requireChanges: booleanInput('require-changes', rawInput(env, 'require-changes')),
    checkRetries: wholeNumber('check-retries', text('check-retries')),
  };
}

/** One command a line; blank lines and `#` comments skipped (a command's own `#` after text stays). */
export function commandLines(block: string): string[] {
  return block
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
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
  throw new ActionInputError(`${name}: expected one of ${allowed.join(', ')}, got "${value.slice(0, 40)}"`);
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
