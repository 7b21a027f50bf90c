// Checks a JSON Schema cannot express. They run even when the schema check failed (so one
// `validate` shows every problem), which is why every access here checks the type it reads.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Ajv } from 'ajv';
import { ajvClassFor, schemaDialect, type SchemaDialect } from '../util/ajv.js';
import { DEFAULT_TOOL_NAMES, isBuiltinToolName } from '../tools/names.js';
import { ToolCatalog, type McpToolFilter } from './catalog.js';
import { tryParseDuration } from './duration.js';
import { checkGitRef } from './git-ref.js';
import { defaultProblem, findPlaceholders } from './params.js';
import { checkLiteralPlaceholders } from './literal-placeholders.js';
import type { Path, ProblemSink } from './positions.js';
import { peerRuleHint, peerToolListHint } from './peer-tool-names.js';
import { ruleProblem, unlimitingAllowRule } from './rules.js';
import type { RecipeOverrides } from './overrides.js';
import { settledProvider } from './provider-of-model.js';
import { modelAliasProblem } from './model-aliases.js';
import { didYouMean } from './suggest.js';
import { HANDOFF_SECTIONS, RUN_PLACEHOLDERS, type HandoffSection, type ProviderName } from './types.js';
import { isDirectory } from '../util/paths.js';
import { gitDirHolding, gitDirWorkspaceProblem } from './git-dir-workspace.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const dict = (v: unknown): Dict => (isDict(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

export interface SemanticContext {
  /** The recipe file's directory: relative paths are resolved against it. */
  baseDir: string;
  /** Flags that replace recipe fields: a problem they make moot is not reported. */
  overrides?: RecipeOverrides;
  /** Converted from a goose recipe, whose conversion already warned of placeholders it left as text. */
  converted?: boolean;
}

export function checkSemantics(source: ProblemSink, data: unknown, ctx: SemanticContext): void {
  if (!isDict(data)) return;
  const ov = ctx.overrides ?? {};
  checkParameters(source, dict(data.parameters));
  checkPlaceholders(source, data);
  if (!ctx.converted) checkLiteralPlaceholders(source, data, TEMPLATED);
  checkProvider(source, data, ctx.baseDir, ov);
  checkProviderOptions(source, data, ov);
  checkDurations(source, data);
  checkInfinities(source, data, []);
  checkTools(source, data, ov);
  checkModes(source, data, ov);
  checkMcpServers(source, dict(data.mcp_servers), ctx.baseDir);
  checkUrl(source, ['base_url'], data.base_url);
  checkOutputSchema(source, dict(data.output).schema);
  checkHandoff(source, data);
  checkChecks(source, dict(data.checks), ov);
  checkDenials(source, data, ov);
  if (typeof data.workspace === 'string' && ov.workspace === undefined) {
    const workspace = resolve(ctx.baseDir, data.workspace);
    const found = isDirectory(workspace);
    const inGitDir = found ? gitDirHolding(workspace) : null;
    if (!found) source.add(['workspace'], `workspace '${data.workspace}' is not a directory (resolved to ${workspace})`);
    else if (inGitDir) source.add(['workspace'], gitDirWorkspaceProblem(`workspace '${data.workspace}'`, inGitDir, (tree) => `name the work tree (${tree})`));
  }
}

function checkParameters(source: ProblemSink, params: Dict): void {
  for (const [name, raw] of Object.entries(params)) {
    const spec = dict(raw);
    const type = spec.type ?? 'string';
    if (type !== 'string' && type !== 'number' && type !== 'boolean') continue; // schema reports it
    if (spec.default !== undefined) {
      const problem = defaultProblem(type, spec.default);
      if (problem) source.add(['parameters', name, 'default'], `default of parameter '${name}' ${problem}`);
      if (spec.required === true)
        source.add(['parameters', name, 'required'], `parameter '${name}' is required and has a default, which would never be used: drop one`);
    } else if (spec.required === false && type !== 'string') {
      source.add(['parameters', name], `optional ${type} parameter '${name}' needs a default`);
    }
  }
}

/** Filled at load time like the rest, and again when the run ends: `{{ run.summary }}` and its kin. */
const PULL_REQUEST_TEMPLATED: Path[] = HANDOFF_SECTIONS.flatMap((s): Path[] => [[s, 'pull_request', 'title'], [s, 'pull_request', 'body']]);
/** Every field buildRecipe fills parameters into (build.ts): placeholders anywhere else are refused (literal-placeholders.ts). */
const TEMPLATED: Path[] = [
  ['prompt'],
  ['instructions'],
  ...HANDOFF_SECTIONS.flatMap((s): Path[] => [[s, 'branch'], [s, 'commit_message'], [s, 'pull_request', 'base']]),
  ...PULL_REQUEST_TEMPLATED,
];
const RUN_PLACEHOLDER = /^run\.([A-Za-z_]+)$/;

function checkPlaceholders(source: ProblemSink, data: Dict): void {
  const declared = Object.keys(dict(data.parameters));
  for (const path of TEMPLATED) {
    const text = path.reduce<unknown>((at, key) => dict(at)[key as string], data);
    if (typeof text !== 'string') continue;
    const runTime = PULL_REQUEST_TEMPLATED.includes(path);
    // The hand-off section has two names (git, handoff): its problems say which one they are in.
    const field = (HANDOFF_SECTIONS as readonly unknown[]).includes(path[0]) ? `${path.join('.')}: ` : '';
    for (const p of findPlaceholders(text)) {
      const runName = runTime ? RUN_PLACEHOLDER.exec(p.text.slice(2, -2).trim())?.[1] : undefined;
      if (runName !== undefined) {
        if (!(RUN_PLACEHOLDERS as readonly string[]).includes(runName))
          source.addInText(path, p.text, `${field}'${p.text}' is not a run value: use one of ${RUN_PLACEHOLDERS.map((n) => `run.${n}`).join(', ')}${didYouMean(runName, [...RUN_PLACEHOLDERS])}`);
      } else if (p.name === null)
        source.addInText(path, p.text, `${field}'${p.text}' is not a placeholder: write {{ name }} for a parameter, or \\{{ for a literal {{`);
      else if (!declared.includes(p.name))
        source.addInText(path, p.text, `${field}placeholder '${p.text}' names no declared parameter${didYouMean(p.name, declared)}: declare it under parameters`);
    }
  }
}

function checkProvider(source: ProblemSink, data: Dict, baseDir: string, ov: RecipeOverrides): void {
  // A --model given replaces the recipe's (and is checked as a flag).
  const alias = ov.model === undefined ? modelAliasProblem(data.model, settledProvider([ov.provider, data.provider as ProviderName | undefined], [data.model]), 'model:') : null;
  if (alias !== null) source.add(['model'], alias);
  if (ov.script !== undefined) return; // the flag's script replaces the recipe's
  if (data.provider === 'scripted' && data.script === undefined && ov.provider === undefined)
    source.add(['provider'], 'the scripted provider replays recorded turns: add `script: FILE`');
  // Recorded turns beside a live provider are only read by `--provider scripted`: a recipe copied
  // without them (as the example workflows do) must still run with its own provider.
  const scripted = (ov.provider ?? data.provider) === 'scripted';
  if (scripted && typeof data.script === 'string' && !isFile(resolve(baseDir, data.script)))
    source.add(['script'], isDirectory(resolve(baseDir, data.script))
      ? `script '${data.script}' is a directory (resolved to ${resolve(baseDir, data.script)}): name the file of recorded turns in it`
      : `script file '${data.script}' not found (resolved to ${resolve(baseDir, data.script)})`);
}

/** provider_options that the chosen provider would silently ignore, or the API would refuse. */
function checkProviderOptions(source: ProblemSink, data: Dict, ov: RecipeOverrides): void {
  const options = dict(data.provider_options);
  const own = settledProvider([data.provider as ProviderName | undefined], [data.model]);
  // A replay (--provider scripted, as the README offers for a recipe that keeps recorded turns
  // beside its live provider, or a --record of it) sends nothing anywhere and reads no option: the
  // options are still the live provider's, and are checked against it.
  const provider = ov.provider === 'scripted' ? own : settledProvider([ov.provider, data.provider as ProviderName | undefined], [ov.model, data.model]);
  // When a flag moved the run to another provider, the flag is what to change, as much as the option.
  const runs = provider === own ? `this recipe runs ${String(provider)}): remove it` : `${ov.provider !== undefined ? `--provider ${ov.provider}` : `--model ${String(ov.model)}`} makes this run ${provider}): remove it, or run the recipe's own provider, ${own}`;
  for (const key of ['dialect', 'images'] as const) {
    if (options[key] !== undefined && provider !== 'openai') source.add(['provider_options', key], `${key} applies to provider openai only (${runs}`);
  }
  for (const key of ['thinking_budget', 'cache'] as const) {
    if (options[key] !== undefined && provider !== 'anthropic') source.add(['provider_options', key], `${key} applies to provider anthropic only (${runs}`);
  }
  const budget = options.thinking_budget;
  const cap = options.max_output_tokens;
  if (typeof budget === 'number' && typeof cap === 'number' && cap <= budget)
    source.add(['provider_options', 'max_output_tokens'], `max_output_tokens (${cap}) must be larger than thinking_budget (${budget}): thinking counts toward it`);
}

function checkDurations(source: ProblemSink, data: Dict): void {
  const at: [Path, unknown][] = [
    [['limits', 'timeout'], dict(data.limits).timeout],
    [['limits', 'tool_timeout'], dict(data.limits).tool_timeout],
    [['limits', 'model_idle_timeout'], dict(data.limits).model_idle_timeout],
    [['tool_discovery', 'timeout'], dict(data.tool_discovery).timeout],
    [['checks', 'timeout'], dict(data.checks).timeout],
    ...Object.entries(dict(data.mcp_servers)).map(([alias, s]): [Path, unknown] => [['mcp_servers', alias, 'timeout'], dict(s).timeout]),
  ];
  for (const [path, value] of at) {
    if (typeof value !== 'string' && typeof value !== 'number') continue; // absent, or the schema reports it
    const ms = tryParseDuration(value);
    if (typeof ms === 'string') source.add(path, `'${path.join('.')}': ${ms}`);
  }
}

/**
 * YAML's `.inf` is a number, and passes a JSON Schema's `integer` (and `minimum`): `max_turns: .inf`
 * or `max_denials: .inf` would silently mean no limit. No field takes an infinite number.
 */
function checkInfinities(source: ProblemSink, value: unknown, path: Path): void {
  if (typeof value === 'number' && !Number.isFinite(value) && !Number.isNaN(value))
    source.add(path, `'${path.join('.')}' must be a finite number (got ${value > 0 ? '' : '-'}.inf): leave it out for the default`);
  else if (Array.isArray(value)) value.forEach((item, i) => checkInfinities(source, item, [...path, i]));
  else if (isDict(value)) for (const [key, item] of Object.entries(value)) checkInfinities(source, item, [...path, key]);
}

function checkTools(source: ProblemSink, data: Dict, ov: RecipeOverrides): void {
  const servers: McpToolFilter[] = Object.entries(dict(data.mcp_servers)).map(([alias, s]) => ({
    alias,
    includeTools: Array.isArray(dict(s).include_tools) ? strings(dict(s).include_tools) : null,
    excludeTools: strings(dict(s).exclude_tools),
  }));
  const offered = Array.isArray(data.tools) ? strings(data.tools) : [...DEFAULT_TOOL_NAMES];
  if (data.mode === 'plan') offered.push('exit_plan_mode');
  const catalog = new ToolCatalog(offered, servers, isDict(data.tool_discovery));
  list(data.tools).forEach((name, i) => {
    const reason = typeof name === 'string' ? catalog.unknownReason(name) : null;
    // `run_shell_command(git)` as Gemini CLI's coreTools lists it: the name here, and the allow rule.
    const peer = reason ? peerToolListHint(name as string, 'recipe', (n) => isBuiltinToolName(n)) : null;
    if (reason) source.add(['tools', i], peer ?? reason);
  });
  const confirmation = dict(data.confirmation);
  for (const kind of ['allow', 'deny'] as const) {
    list(confirmation[kind]).forEach((rule, i) => checkRule(source, catalog, kind, i, rule));
  }
  // --approval allowlist makes them count (a recipe may keep its rules for that run).
  if (ov.approval === 'allowlist' || list(confirmation.allow).length === 0) return;
  if (confirmation.mode === 'auto-approve')
    source.add(['confirmation', 'allow'], 'allow rules apply only in allowlist mode: under auto-approve every call is approved (use mode: allowlist)');
  if (confirmation.mode === 'deny')
    source.add(['confirmation', 'allow'], 'allow rules apply only in allowlist mode: under deny every call that asks for confirmation is denied, so these rules would approve nothing (use mode: allowlist, or remove them)');
}

function checkRule(source: ProblemSink, catalog: ToolCatalog, kind: 'allow' | 'deny', i: number, rule: unknown): void {
  const at: Path = ['confirmation', kind, i];
  let tool: string;
  let pattern: unknown = null;
  if (typeof rule === 'string') tool = rule;
  else if (isDict(rule) && Object.keys(rule).length === 1) [[tool, pattern]] = Object.entries(rule) as [[string, unknown]];
  else return; // the schema reports the shape
  // `Bash(npm test:*)` or `Bash(git log:*), Read`, as a Claude Code settings file lists rules.
  const peer = typeof rule === 'string' ? peerRuleHint(rule, { written: 'recipe', kind, isOurTool: (name) => catalog.unknownReason(name) === null }) : null;
  if (peer) return source.add(at, peer);
  const colon = tool.indexOf(':');
  if (typeof rule === 'string' && colon > 0 && catalog.unknownReason(tool.slice(0, colon)) === null)
    return source.add(at, `a rule with a pattern is a one-key map: write - ${tool.slice(0, colon)}: "${tool.slice(colon + 1).trim()}"`);
  const unknown = catalog.unknownReason(tool);
  if (unknown) return source.add(at, unknown);
  // A deny rule for a tool the recipe does not offer is harmless; an allow rule is a mistake.
  if (kind === 'allow' && !catalog.isOffered(tool))
    source.add(at, catalog.notOfferedReason(tool, 'recipe'));
  if (typeof pattern === 'string' || pattern === null) {
    const problem = ruleProblem(tool, pattern) ?? (kind === 'allow' ? unlimitingAllowRule(tool, pattern, 'recipe') : null);
    if (problem) source.add(pattern === null ? at : [...at, tool], problem);
  }
}

function checkModes(source: ProblemSink, data: Dict, ov: RecipeOverrides): void {
  if (data.plan_only === true && data.mode !== 'plan') source.add(['plan_only'], 'plan_only needs `mode: plan`');
  if (data.plan_only === true && (dict(data.output).schema !== undefined || ov.outputSchema !== undefined))
    source.add(['plan_only'], `plan_only ends the run with the plan, so ${ov.outputSchema !== undefined ? '--output-schema' : 'output.schema'} could never be met: drop one of them`);
  // Its success would say the checks passed: they would never have run (nor could a plan change a file).
  const checks = planOnlyChecks(dict(data.checks), ov);
  if (data.plan_only === true && checks.length > 0)
    source.add(['plan_only'], `plan_only ends the run with the plan, before the success checks could run (${checks.join(', ')}): drop one of them`);
  const memory = dict(data.memory);
  if (memory.load === true && memory.file === undefined)
    source.add(['memory', 'load'], "memory.load needs memory.file: the default memory file is in this run's output, which the next run does not see");
}

function checkMcpServers(source: ProblemSink, servers: Dict, baseDir: string): void {
  for (const [alias, raw] of Object.entries(servers)) {
    if (!isDict(raw)) continue;
    const stdio = raw.command !== undefined;
    const http = raw.url !== undefined;
    if (stdio === http) {
      source.add(['mcp_servers', alias], `MCP server '${alias}' needs either command (stdio) or url (HTTP)${stdio ? ', not both' : ''}`);
      continue;
    }
    const misplaced = stdio ? ['headers'] : ['args', 'env', 'cwd', 'sandbox'];
    for (const key of misplaced)
      if (raw[key] !== undefined)
        source.addAtKey(['mcp_servers', alias, key], `'${key}' does not apply to ${stdio ? 'a stdio (command)' : 'an HTTP (url)'} server`);
    if (http) checkUrl(source, ['mcp_servers', alias, 'url'], raw.url);
    // The start would fail with "spawn node ENOENT", naming the command, not the directory.
    if (stdio && typeof raw.cwd === 'string' && !isDirectory(resolve(baseDir, raw.cwd)))
      source.add(['mcp_servers', alias, 'cwd'], `cwd '${raw.cwd}' is not a directory (resolved to ${resolve(baseDir, raw.cwd)})`);
    checkVariables(source, alias, raw);
  }
}

/**
 * `${NAME}` in a recipe server's env, headers, url or args, as --mcp-config files (and Claude
 * Code's) write it: a recipe is not filled from the environment (one from a pull request could send
 * the runner's secrets to any server it names), so the text `${GH_TOKEN}` itself went out and the
 * server refused it. Said, with the ways that work.
 */
function checkVariables(source: ProblemSink, alias: string, raw: Dict): void {
  const where: [Path, unknown][] = [
    ...Object.entries(dict(raw.env)).map(([k, v]): [Path, unknown] => [['mcp_servers', alias, 'env', k], v]),
    ...Object.entries(dict(raw.headers)).map(([k, v]): [Path, unknown] => [['mcp_servers', alias, 'headers', k], v]),
    [['mcp_servers', alias, 'url'], raw.url],
    ...(Array.isArray(raw.args) ? raw.args.map((v, i): [Path, unknown] => [['mcp_servers', alias, 'args', i], v]) : []),
  ];
  for (const [path, value] of where) {
    const name = typeof value === 'string' ? /\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/.exec(value)?.[1] : undefined;
    if (name === undefined) continue;
    const stdio = raw.command !== undefined;
    const instead = stdio
      ? `\`env: {pass: [${name}]}\` gives the run's tools and servers ${name} itself`
      : 'give this server with --mcp-config FILE, where ${NAME} is filled from the environment';
    source.addInText(path, '${', `a recipe does not fill \${${name}} from the environment (it could send your secrets to any server it names): ${instead}`);
  }
}

function checkUrl(source: ProblemSink, path: Path, value: unknown): void {
  if (typeof value !== 'string') return;
  let ok = false;
  try {
    ok = ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    // reported below
  }
  if (!ok) source.add(path, `'${path.join('.')}' must be an http or https URL, got '${value}'`);
}

const schemaCheckers = new Map<SchemaDialect, Ajv>();

function checkOutputSchema(source: ProblemSink, schema: unknown): void {
  if (!isDict(schema)) return;
  const dialect = schemaDialect(schema);
  if (!dialect.ok) {
    source.add(['output', 'schema', '$schema'], `output.schema is not a usable JSON Schema: ${dialect.problem}`);
    return;
  }
  let ajv = schemaCheckers.get(dialect.dialect);
  if (!ajv) schemaCheckers.set(dialect.dialect, (ajv = new (ajvClassFor(dialect.dialect))({ strict: false, allowUnionTypes: true, logger: false })));
  if (!ajv.validateSchema(schema)) {
    const seen = new Set<string>();
    for (const e of ajv.errors ?? []) {
      if (seen.has(e.instancePath)) continue; // the first error at a node is the telling one
      seen.add(e.instancePath);
      const inner = e.instancePath.split('/').slice(1);
      source.add(['output', 'schema', ...inner], `output.schema is not a valid JSON Schema: '${inner.join('.')}' ${e.message ?? 'is invalid'}`);
    }
    return;
  }
  try {
    ajv.compile(schema); // catches what the meta-schema cannot, e.g. a $ref that resolves nowhere
  } catch (e) {
    source.add(['output', 'schema'], `output.schema is not a usable JSON Schema: ${(e as Error).message}`);
  } finally {
    // Forget it, or the next recipe with the same $id would be refused as a duplicate.
    ajv.removeSchema(schema);
  }
}

/** `git:` and `handoff:` are one section under two names: each is checked as itself, and only one may be given. */
function checkHandoff(source: ProblemSink, data: Dict): void {
  const given = HANDOFF_SECTIONS.filter((key) => data[key] !== undefined);
  for (const key of given) checkHandoffSection(source, key, dict(data[key]));
  if (given.length < 2) return;
  const [first, second] = [...given].sort((a, b) => compareAt(source.keyPositionOf([a]), source.keyPositionOf([b]))) as [HandoffSection, HandoffSection];
  source.addAtKey(
    [second],
    `'${second}' and '${first}' (line ${source.keyPositionOf([first]).line}) are the same hand-off section under two names: keep one of them, with the keys of both`,
  );
}

function checkHandoffSection(source: ProblemSink, key: HandoffSection, h: Dict): void {
  if (h.pull_request !== undefined && h.push === false)
    source.add([key, 'push'], `${key}.push: a pull request needs the branch on the remote: remove \`push: false\` (pull_request implies push: true)`);
  if (typeof h.branch !== 'string') return;
  // Placeholders are filled at load time; check the rest of the name now.
  const problem = checkGitRef(h.branch.replace(/\{\{.*?\}\}/gs, 'x'), h.branch);
  if (problem) source.add([key, 'branch'], `${key}.branch: ${problem}`);
}

const compareAt = (a: { line: number; col: number }, b: { line: number; col: number }) => a.line - b.line || a.col - b.col;

/** The success checks a recipe and its flags ask for, as the user wrote them. */
function planOnlyChecks(checks: Dict, ov: RecipeOverrides): string[] {
  return [
    ...(list(checks.commands).length > 0 ? ['checks.commands'] : []),
    ...(checks.require_changes === true ? ['checks.require_changes'] : []),
    ...((ov.checks?.length ?? 0) > 0 ? ['--check'] : []),
    ...(ov.requireChanges === true ? ['--require-changes'] : []),
  ];
}

function checkChecks(source: ProblemSink, checks: Dict, ov: RecipeOverrides): void {
  const hasCheck = list(checks.commands).length > 0 || checks.require_changes === true || (ov.checks?.length ?? 0) > 0 || ov.requireChanges === true;
  if (typeof checks.retries === 'number' && checks.retries > 0 && !hasCheck)
    source.add(['checks', 'retries'], 'checks.retries has no check to retry: add checks.commands or require_changes: true');
}

/** fail_on_denial beside max_denials N > 0: the first denial ends the run, and N silently meant nothing. */
function checkDenials(source: ProblemSink, data: Dict, ov: RecipeOverrides): void {
  const max = dict(data.limits).max_denials;
  if (data.fail_on_denial !== true || typeof max !== 'number' || max <= 0 || ov.maxDenials !== undefined) return;
  source.add(['fail_on_denial'], `fail_on_denial: true and limits.max_denials: ${max} contradict: fail_on_denial ends the run at the first denial. Keep one: drop fail_on_denial to tolerate ${max}, or drop max_denials`);
}

function isFile(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}

