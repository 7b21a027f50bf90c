// A goose recipe (https://block.github.io/goose/docs/guides/recipes/recipe-reference) -> a recipe
// in our format, as plain data for the usual schema and semantic checks. What maps is carried over;
// every field that is ignored or means something different here is a warning, which `convert`
// prints and a run records as a `warning` event (so the report lists it).
//
// goose has no confirmation policy: it asks the person at the keyboard, and nobody is at ours.
// Fail closed: a converted recipe gets `confirmation: {mode: deny}` (read-only tools run; edits,
// shell commands and MCP tools are denied) unless --approval says otherwise, as an ad-hoc run does.
import { dirname } from 'node:path';
import { DEFAULT_TOOL_NAMES } from '../../tools/names.js';
import type { Path } from '../positions.js';
import { ConversionContext, describe, isDict, seconds, type Dict } from './context.js';
import { convertExtensions } from './extensions.js';
import { convertParameters } from './parameters.js';
import { convertSubRecipes } from './sub-recipes.js';
import { convertLiteral, convertTemplate } from './template.js';

export interface GooseConversion {
  /** The recipe in our format (plain data; not yet checked). */
  recipe: Dict;
  warnings: string[];
  /** Errors, at paths of the goose file. */
  problems: Array<{ path: Path; message: string }>;
  /** The goose path a path of the converted recipe came from. */
  origin: (path: Path) => Path;
  /** A message about a path of the converted recipe, naming the goose field it came from. */
  rename: (path: Path, message: string) => string;
}

export interface GooseOptions {
  /** Absolute path of the goose recipe file. */
  file: string;
  /** What its relative paths and `{{ recipe_dir }}` mean; default the file's directory. */
  dir?: string;
  /** --approval was given: the warning about the default policy is not needed. */
  approvalGiven?: boolean;
}

/** goose's `settings.goose_provider` -> our provider (and endpoint). */
const PROVIDERS: Record<string, { provider: string; base_url?: string }> = {
  anthropic: { provider: 'anthropic' },
  openai: { provider: 'openai' },
  google: { provider: 'gemini' },
  ollama: { provider: 'openai', base_url: 'http://localhost:11434/v1' },
};

const DESKTOP_METADATA = new Set(['name', 'isGlobal', 'lastModified', 'isArchived', 'recipe']);
const HANDLED = new Set(['version', 'title', 'description', 'instructions', 'prompt', 'parameters', 'extensions', 'settings', 'response', 'retry', 'sub_recipes']);
const EXPLAINED: Record<string, string> = {
  activities: 'ignored: goose Desktop shows them as buttons to click, and a run has nobody to click them',
  author: 'ignored (metadata)',
  context: 'ignored: goose no longer uses it either',
};

/**
 * A goose recipe by its shape: a `title` at the top (goose's CLI format) or under `recipe:` (its
 * Desktop format), and neither our `version: 1` nor a `confirmation`. Ours never has `title` (the
 * schema refuses it), so a recipe of ours with a stray title still gets our schema's message.
 */
export function isGooseRecipe(data: unknown): boolean {
  if (!isDict(data) || data.confirmation !== undefined || data.version === 1) return false;
  const body = isDict(data.recipe) ? data.recipe : data;
  return typeof body.title === 'string';
}

export function convertGooseRecipe(data: Dict, opts: GooseOptions): GooseConversion {
  const desktop = isDict(data.recipe);
  const goose = desktop ? (data.recipe as Dict) : data;
  const ctx = new ConversionContext(opts.dir ?? dirname(opts.file), desktop ? ['recipe'] : []);
  if (desktop) {
    const metadata = Object.keys(data).filter((k) => k !== 'recipe');
    if (metadata.length) ctx.warn(metadata.join(', '), 'goose Desktop metadata; ignored');
    for (const k of metadata) if (!DESKTOP_METADATA.has(k)) ctx.warn(k, 'unknown field; ignored');
  }
  for (const [field, why] of Object.entries(EXPLAINED)) if (goose[field] !== undefined) ctx.warn(field, why);
  for (const field of Object.keys(goose)) {
    if (!HANDLED.has(field) && !Object.hasOwn(EXPLAINED, field)) ctx.warn(field, 'not a goose recipe field; ignored');
  }

  const recipe: Dict = { version: 1 };
  if (typeof goose.title === 'string') {
    recipe.name = goose.title;
    ctx.from(['name'], ['title']);
  }
  if (typeof goose.description === 'string') {
    recipe.description = goose.description;
    ctx.from(['description'], ['description']);
  }
  Object.assign(recipe, settings(goose.settings, ctx));
  const builtins = { recipe_dir: ctx.dir };
  for (const field of ['prompt', 'instructions'] as const) {
    const text = goose[field];
    if (text === undefined || text === null) continue;
    if (typeof text !== 'string') {
      ctx.problem([field], `${field} must be text`);
      continue;
    }
    const converted = convertTemplate(text, builtins);
    for (const d of converted.dropped) ctx.warn(field, d);
    recipe[field] = converted.text;
    ctx.from([field], [field]);
  }
  if (goose.prompt === undefined && goose.instructions === undefined) ctx.problem([], 'a goose recipe needs instructions or prompt (or both)');
  const subRecipes = convertSubRecipes(goose.sub_recipes, ctx);
  if (subRecipes) recipe.instructions = recipe.instructions ? `${String(recipe.instructions)}\n\n${subRecipes}` : subRecipes;

  const parameters = convertParameters(goose.parameters, ctx);
  if (parameters && Object.keys(parameters).length) recipe.parameters = parameters;

  const extensions = convertExtensions(goose.extensions, ctx);
  if (extensions.tools !== null || subRecipes) {
    // No extensions: goose uses the person's own, which nearly always include developer.
    const tools = extensions.tools ?? [...DEFAULT_TOOL_NAMES];
    if (subRecipes && !tools.includes('task')) tools.push('task');
    recipe.tools = tools;
    if (!tools.includes('read_file')) {
      ctx.warn('extensions', "no developer extension, so no built-in file or shell tools (as in goose): add `- {type: builtin, name: developer}` to get them");
    }
  }
  if (Object.keys(extensions.servers).length) recipe.mcp_servers = extensions.servers;
  if (extensions.envPass.length) recipe.env = { pass: extensions.envPass };

  recipe.confirmation = { mode: 'deny' };
  if (!opts.approvalGiven) {
    ctx.warn(
      'confirmation',
      'goose recipes have no confirmation policy, so this one runs with mode deny: read-only tools run, and edits, shell commands and MCP tools are denied. To let them run, pass --approval allowlist with --allow rules, or --approval auto-approve (in a converted file: edit its confirmation)',
    );
  }
  response(goose.response, recipe, ctx);
  retry(goose.retry, recipe, ctx);
  return { recipe, warnings: ctx.warnings, problems: ctx.problems, origin: (path) => ctx.origin(path), rename: (path, message) => ctx.rename(path, message) };
}

function settings(raw: unknown, ctx: ConversionContext): Dict {
  if (raw === undefined || raw === null) return {};
  if (!isDict(raw)) {
    ctx.problem(['settings'], 'settings must be a map (goose_provider, goose_model, temperature, max_turns)');
    return {};
  }
  const out: Dict = {};
  const known = new Set(['goose_provider', 'goose_model', 'temperature', 'max_turns']);
  for (const field of Object.keys(raw)) if (!known.has(field)) ctx.warn(`settings.${field}`, 'not a goose setting; ignored');
  const provider = typeof raw.goose_provider === 'string' ? PROVIDERS[raw.goose_provider.toLowerCase()] : undefined;
  if (raw.goose_provider !== undefined && !provider) {
    const supported = Object.keys(PROVIDERS).join(', ');
    ctx.warn('settings.goose_provider', `'${String(raw.goose_provider)}' has no counterpart here (goose providers carried over: ${supported}); ignored${raw.goose_model !== undefined ? ', and goose_model with it' : ''}: pass --provider and --model`);
  } else if (provider) {
    Object.assign(out, provider);
    ctx.from(['provider'], ['settings', 'goose_provider']);
    if (provider.base_url) ctx.warn('settings.goose_provider', `ollama: the openai provider at ${provider.base_url} (goose's default Ollama address; pass --base-url for another)`);
  }
  if (typeof raw.goose_model === 'string' && (provider || raw.goose_provider === undefined)) {
    out.model = raw.goose_model;
    ctx.from(['model'], ['settings', 'goose_model']);
  } else if (raw.goose_model !== undefined && raw.goose_model !== null && typeof raw.goose_model !== 'string') {
    ctx.warn('settings.goose_model', `must be a model name, got ${describe(raw.goose_model)}; ignored: the provider's default model is used (quote it, or pass --model)`);
  }
  if (raw.temperature !== undefined) ctx.warn('settings.temperature', "ignored: runs use the provider's default temperature");
  if (raw.max_turns !== undefined) {
    out.limits = { max_turns: raw.max_turns };
    ctx.from(['limits', 'max_turns'], ['settings', 'max_turns']);
  }
  return out;
}

function response(raw: unknown, recipe: Dict, ctx: ConversionContext): void {
  if (raw === undefined || raw === null) return;
  if (!isDict(raw) || !isDict(raw.json_schema)) {
    ctx.problem(['response'], 'response needs json_schema: the JSON Schema of the final answer');
    return;
  }
  for (const field of Object.keys(raw)) if (field !== 'json_schema') ctx.warn(`response.${field}`, 'ignored');
  recipe.output = { schema: raw.json_schema };
  ctx.from(['output', 'schema'], ['response', 'json_schema']);
}

function retry(raw: unknown, recipe: Dict, ctx: ConversionContext): void {
  if (raw === undefined || raw === null) return;
  if (!isDict(raw)) {
    ctx.problem(['retry'], 'retry must be a map: {max_retries, checks: [{type: shell, command}]}');
    return;
  }
  const checks: Dict = {};
  const commands: string[] = [];
  const list = Array.isArray(raw.checks) ? raw.checks : [];
  if (!Array.isArray(raw.checks)) ctx.problem(['retry', 'checks'], 'retry needs checks: a list of {type: shell, command}');
  list.forEach((check, i) => {
    if (isDict(check) && check.type === 'shell' && typeof check.command === 'string' && check.command.trim() !== '') {
      ctx.from(['checks', 'commands', commands.length], ['retry', 'checks', i, 'command']);
      const converted = convertLiteral(check.command, { recipe_dir: ctx.dir });
      for (const d of converted.dropped) ctx.warn(`retry.checks[${i}].command`, d);
      commands.push(converted.text);
    } else if (isDict(check) && check.type !== 'shell') {
      ctx.warn(`retry.checks[${i}]`, `check type '${String(check.type)}' has no counterpart here (goose knows only shell); ignored`);
    } else {
      ctx.problem(['retry', 'checks', i], 'a check is {type: shell, command: "..."}');
    }
  });
  if (commands.length) checks.commands = commands;
  if (raw.max_retries !== undefined) {
    checks.retries = raw.max_retries;
    ctx.from(['checks', 'retries'], ['retry', 'max_retries']);
  }
  const timeout = seconds(raw.timeout_seconds);
  if (timeout) checks.timeout = timeout;
  else if (raw.timeout_seconds !== undefined && raw.timeout_seconds !== null) {
    ctx.warn('retry.timeout_seconds', `must be a number of seconds above 0, got ${describe(raw.timeout_seconds)}; ignored: checks get the default timeout`);
  }
  if (raw.on_failure !== undefined) ctx.warn('retry.on_failure', 'ignored: no command runs between attempts here');
  if (raw.on_failure_timeout_seconds !== undefined) ctx.warn('retry.on_failure_timeout_seconds', 'ignored, with on_failure');
  if (commands.length && typeof checks.retries === 'number' && checks.retries > 0) {
    ctx.warn('retry', "a failed check goes back to the model in the same conversation (goose starts the conversation over instead)");
  }
  for (const field of Object.keys(raw)) {
    if (!['max_retries', 'checks', 'timeout_seconds', 'on_failure', 'on_failure_timeout_seconds'].includes(field)) ctx.warn(`retry.${field}`, 'not a goose retry field; ignored');
  }
  if (Object.keys(checks).length) recipe.checks = checks;
}
