// Checks recipe data against RECIPE_SCHEMA and turns ajv's errors into positioned problems
// written for the person editing the YAML.
import type { ErrorObject } from 'ajv';
import type { Path, ProblemSink } from './positions.js';
import { recipeValidator } from './schema-validator.js';
import { providerHint } from './provider-hint.js';
import { didYouMean } from './suggest.js';
import { peerKeyHint } from './peer-keys.js';
import { peerValueHint } from './peer-values.js';

export function checkSchema(source: ProblemSink, data: unknown): void {
  if (data === null || data === undefined) {
    source.add([], 'the recipe is empty: start with `version: 1` and a `confirmation:` policy');
    return;
  }
  const validate = recipeValidator();
  if (validate(data)) return;
  for (const e of validate.errors ?? []) report(source, e);
}

/**
 * provider_options keys written as the vendors' APIs spell them (Anthropic's `thinking: {type,
 * budget_tokens}`, everyone's `max_tokens`): too far from ours for "did you mean", so said here.
 */
const OPTION_HINTS: Record<string, string> = {
  thinking: ' (the thinking budget is `thinking_budget: TOKENS`, at least 1024)',
  budget_tokens: ' (the thinking budget is `thinking_budget: TOKENS`, at least 1024)',
  max_tokens: " (did you mean 'max_output_tokens'?)",
};

/**
 * limits keys as servers and other tools name the context window and its compaction (vLLM's
 * max_model_len, Ollama's num_ctx, llama.cpp's ctx_size, Codex's model_context_window and
 * model_auto_compact_token_limit): too far from ours for "did you mean".
 */
const WINDOW = " (the model's context window is `context_tokens: TOKENS`)";
const COMPACT = ' (when older turns are compacted is `compact_at`: a share of the window, default 0.7)';
const LIMIT_HINTS: Record<string, string> = Object.fromEntries([
  ...['context_window', 'context_length', 'context_limit', 'context_size', 'max_context', 'max_context_tokens', 'max_context_length', 'model_context_window', 'max_model_len', 'num_ctx', 'ctx_size', 'n_ctx', 'context_tokens_limit'].map((key) => [key, WINDOW]),
  ...['compact', 'compaction', 'compact_threshold', 'compaction_threshold', 'auto_compact', 'compact_ratio', 'model_auto_compact_token_limit'].map((key) => [key, COMPACT]),
]);

/** output keys as OpenAI's response_format and goose's response spell the answer's schema. */
const OUTPUT_HINTS: Record<string, string> = {
  json_schema: " (the answer's JSON Schema is `output: {schema: {...}}`)",
  response_format: " (the answer's JSON Schema is `output: {schema: {...}}`)",
};

/**
 * `env: {NODE_ENV: test}`, as Claude Code's settings and goose's extensions set variables: here a
 * recipe sets no values, it names the runner's variables the tools may see.
 */
function envHint(key: string, known: string[]): string | null {
  if (didYouMean(key, known)) return null;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? ` (env names variables of the run's own environment the tools may see, \`env: {pass: [${key}]}\`; a recipe sets no values: set ${key} where the run starts)`
    : null;
}

/**
 * A key holding a space that is no plain space (a no-break space pasted from a web page or a chat):
 * YAML reads it as part of the key, not as indentation, so `mode` under `confirmation` became a
 * top-level key '  mode' that reads as indented on screen, and nothing said why.
 */
function invisibleSpaceHint(key: string): string | null {
  const odd = /[\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]/.exec(key);
  if (!odd) return null;
  const code = `U+${odd[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `it holds a ${code === 'U+00A0' ? 'no-break space' : 'space that is no plain space'} (${code}), which YAML reads as part of the key, not as indentation (pasted from a web page or a chat?): retype it with plain spaces`;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A section written as a list or a string where a map (or list) is wanted: the shape that does the job. */
function shapeHint(where: string, data: unknown): string {
  const listed = Array.isArray(data) && data.every((d) => typeof d === 'string') ? data : typeof data === 'string' ? [data] : null;
  const flow = listed ? JSON.stringify(listed).replaceAll('","', '", "') : null;
  if (where === 'checks' && flow) return `: the commands go under it, \`checks: {commands: ${flow}}\``;
  if (where === 'context' && flow) return `: name the files under it, \`context: {files: ${flow}}\``;
  if (where === 'tools' && typeof data === 'string') return `: write a list, \`tools: [${data.split(/[\s,]+/).filter(Boolean).join(', ')}]\``;
  if (where === 'mcp_servers' && Array.isArray(data)) return ': a map from a name to each server, `mcp_servers: {docs: {command: ...}}`';
  // Gemini CLI's settings: `tools: {core, allowed, exclude}` and `model: {name}`.
  if (where === 'tools' && isMap(data) && ['core', 'allowed', 'exclude'].some((k) => k in data))
    return `: Gemini CLI's tools block; here \`tools: [${Array.isArray(data.core) ? data.core.join(', ') : 'read_file, grep'}]\` lists the tools offered (its core), calls that run without asking are \`confirmation.allow\` rules under mode allowlist (its allowed), and a tool left out of the list is not offered (its exclude)`;
  if (where === 'model' && isMap(data) && typeof data.name === 'string') return `: write the model's name, \`model: ${data.name}\``;
  return '';
}

function report(source: ProblemSink, e: ErrorObject): void {
  const path = toPath(e.instancePath);
  const where = describePath(path);
  const params = e.params as Record<string, unknown>;
  const schema = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const key = String(params.missingProperty);
      return source.add(path, `missing required key '${key}'${where ? ` in ${where}` : ''}${REQUIRED_HINTS[key] ?? ''}`);
    }
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((schema.properties as object | undefined) ?? {});
      const invisible = invisibleSpaceHint(key);
      if (invisible) return source.addAtKey([...path, key], `unknown key '${key}'${where ? ` in ${where}` : ''}: ${invisible}`);
      const hint = (where === 'provider_options' ? OPTION_HINTS[key] : where === 'output' ? OUTPUT_HINTS[key] : where === 'limits' ? LIMIT_HINTS[key] : where === 'env' ? envHint(key, known) : path.length === 0 ? peerKeyHint(key) : null) ?? didYouMean(key, known);
      return source.addAtKey([...path, key], `unknown key '${key}'${where ? ` in ${where}` : ''}${hint}`);
    }
    case 'propertyNames':
      return; // the pattern error inside it says which name and why
    case 'pattern': {
      const hint = String(schema.patternErrorMessage ?? `must match ${String(params.pattern)}`);
      if (e.propertyName !== undefined)
        return source.addAtKey([...path, e.propertyName], `'${e.propertyName}' is not a valid name: ${hint}`);
      return source.add(path, `'${where}' is not valid: ${hint}`);
    }
    case 'type':
      return source.add(path, typeMessage(path, where, String(params.type), e.data));
    case 'const': {
      // `version: "1"` (quoted, as a JSON-minded author writes it) looks right and is a string.
      const quoted = typeof e.data === 'string' && typeof params.allowedValue === 'number' && e.data.trim() === String(params.allowedValue);
      return source.add(path, `'${where}' must be ${JSON.stringify(params.allowedValue)}${quoted ? `, the number, not the string ${JSON.stringify(e.data)}: remove the quotes` : ''}`);
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
      const setting = where === 'confirmation.mode' ? 'approval' : where === 'sandbox.mode' ? 'sandbox' : null;
      const peer = setting && typeof e.data === 'string' ? peerValueHint(setting, e.data, 'recipe') : null;
      const hint = peer ? `: ${peer}` : where === 'provider' && typeof e.data === 'string' ? providerHint(e.data, (params.allowedValues as unknown[]).map(String)) : '';
      return source.add(path, `'${where}' must be one of ${allowed} (got ${JSON.stringify(e.data)})${hint}`);
    }
    case 'minimum':
      return source.add(path, `'${where}' must be at least ${String(params.limit)} (got ${JSON.stringify(e.data)})`);
    case 'minLength':
      return source.add(path, `'${where}' must not be empty`);
    case 'minProperties':
    case 'maxProperties':
      if (isRule(path)) return source.add(path, `a rule names exactly one tool: write one rule per line, e.g. - shell: "git diff *"`);
      return source.add(path, `'${where}' ${e.message ?? 'is invalid'}`);
    case 'uniqueItems': {
      const later = Math.max(Number(params.i), Number(params.j));
      return source.add([...path, later], `'${where}' lists ${JSON.stringify((e.data as unknown[])[later])} twice`);
    }
    default:
      return source.add(path, `'${where}' ${e.message ?? 'is invalid'}`);
  }
}

const REQUIRED_HINTS: Record<string, string> = {
  version: ': add `version: 1`',
  confirmation: ': an unattended recipe states its policy, e.g. `confirmation: {mode: deny}`',
  mode: ': one of auto-approve, deny, allowlist',
};

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  object: 'a map',
  array: 'a list',
  boolean: 'true or false',
  null: 'empty',
};

function typeMessage(path: Path, where: string, expected: string, data: unknown): string {
  if (path.length === 0) return `a recipe is a map of keys (version, prompt, confirmation, ...), not ${describeValue(data)}`;
  if (isRule(path)) return `a rule is a tool name or a one-key map from tool to pattern, e.g. - shell: "git diff *"`;
  if (isRuleValue(path)) {
    const tool = String(path[path.length - 1]);
    if (data === null) return `rule '${tool}' has no pattern: write \`- ${tool}\` for the whole tool, or give a pattern`;
    if (Array.isArray(data)) return `the pattern of rule '${tool}' must be a string, not a list: write one rule per pattern`;
    // `- shell: 010` or `- edit: true`: YAML read the pattern as a number or a boolean.
    if (typeof data !== 'object') return `the pattern of rule '${tool}' must be a string, and YAML reads this one as the ${typeof data} ${String(data)}: quote it (- ${tool}: "…") to keep it as written`;
    return `the pattern of rule '${tool}' must be a string, not a map: a rule is one tool and one pattern`;
  }
  const want = expected.split(',').map((t) => TYPE_NAMES[t] ?? t).join(' or ');
  // `confirmation: allowlist`, as a mode flag would say it.
  const peerMode = where === 'confirmation' && typeof data === 'string' ? peerValueHint('approval', data, 'recipe') : null;
  const modeHint =
    where === 'confirmation' && typeof data === 'string' && MODES.includes(data) ? `: write \`confirmation: {mode: ${data}}\`` : peerMode ? `: a map, \`confirmation: {mode: ...}\`; for ${JSON.stringify(data)}, ${peerMode}` : '';
  return `'${where}' must be ${want}, not ${describeValue(data)}${modeHint || shapeHint(where, data)}`;
}

function describeValue(v: unknown): string {
  if (v === null) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
  return `${typeof v} ${String(v)}`;
}

const MODES = ['auto-approve', 'deny', 'allowlist'];

const isRule = (p: Path) => p.length === 3 && p[0] === 'confirmation' && typeof p[2] === 'number';
const isRuleValue = (p: Path) => p.length === 4 && p[0] === 'confirmation' && typeof p[2] === 'number';

function toPath(pointer: string): Path {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `confirmation.allow[0].shell`, as a user would name it. */
export function describePath(path: Path): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
