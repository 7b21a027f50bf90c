// Command-line flags over a recipe (flags win), and the ad-hoc recipe flags make on their own.
// Every bad flag is the caller's mistake: one InputError (exit 42) naming all of them.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILTIN_TOOL_NAMES, DEFAULT_TOOL_NAMES, isBuiltinToolName } from '../tools/names.js';
import type { RecipeDraft } from './build.js';
import { DEFAULT_OUTPUT_ATTEMPTS } from './build.js';
import { ToolCatalog } from './catalog.js';
import { tryParseDuration } from './duration.js';
import { InputError } from './errors.js';
import { deepFreeze } from './freeze.js';
import { CwdInGitDirError, gitDirHolding, gitDirWorkspaceProblem } from './git-dir-workspace.js';
import { makeRule, ruleKind, ruleProblem, splitCliRule, unlimitingAllowRule } from './rules.js';
import { DEFAULT_PROVIDER_OPTIONS } from '../types/provider-options.js';
import { appendedInstructions, flagValueName, mcpServersFromFile, outputSchemaFromFile } from './flag-files.js';
import { peerRuleHint, peerToolListHint, peerToolNameHint } from './peer-tool-names.js';
import { closest } from './suggest.js';
import { settledProvider } from './provider-of-model.js';
import { modelAliasProblem } from './model-aliases.js';
import { DEFAULT_CHECKS, DEFAULT_CONTEXT, DEFAULT_LIMITS, DEFAULT_SANDBOX, type SandboxSettings, type ConfirmationMode, type PolicyRule, type ProviderName, type Recipe } from './types.js';

export interface RecipeOverrides {
  prompt?: string;
  provider?: ProviderName;
  model?: string;
  approval?: ConfirmationMode;
  /** `tool:pattern` or a bare `tool`, added to the recipe's allow rules. */
  allow?: string[];
  /** Same form, added to the recipe's deny rules (flags can only add denials, never drop one). */
  deny?: string[];
  /** Relative to the current directory, like every path given as a flag. */
  workspace?: string;
  /** A string is the word typed on the command line that is no number, kept to echo it back. */
  maxTurns?: number | string;
  maxToolCalls?: number | string;
  timeout?: string | number;
  maxTokens?: number | string;
  modelIdleTimeout?: string | number;
  modelRetries?: number | string;
  script?: string;
  baseUrl?: string;
  maxDenials?: number | string;
  /** Only turns it on: a flag never drops a recipe's check. */
  failOnDenial?: boolean;
  /** Added after the recipe's check commands. */
  checks?: string[];
  requireChanges?: boolean;
  checkRetries?: number | string;
  checkTimeout?: string | number;
  /** --no-stream: the non-streaming endpoint. */
  stream?: boolean;
  maxCostUsd?: number | string;
  /** sandbox.mode: `--sandbox required` in CI makes an uncontained run fail instead. */
  sandbox?: SandboxSettings['mode'];
  /** The built-in tools offered, replacing the recipe's list (`--tools a,b`; empty: none). */
  tools?: string[];
  /** `mcpServers` JSON files (Claude Code, Gemini CLI, Qwen Code): their servers join the recipe's. */
  mcpConfig?: string[];
  /** Added to the recipe's instructions; `@FILE` reads a file. */
  appendSystemPrompt?: string;
  /** A JSON Schema file the final answer must satisfy (replaces output.schema). */
  outputSchema?: string;
  /** false: load no context files (AGENTS.md...). */
  context?: boolean;
}

/** null: the provider has no sensible default and the model must be named. */
export const DEFAULT_MODELS: Record<ProviderName, string | null> = {
  gemini: 'gemini-2.5-flash',
  openai: null,
  anthropic: 'claude-sonnet-4-5',
  scripted: 'scripted',
};

const PROVIDERS: readonly string[] = ['gemini', 'openai', 'anthropic', 'scripted'];
const MODES: readonly string[] = ['auto-approve', 'deny', 'allowlist'];

/**
 * A recipe from flags alone: the provider of the model named (provider-of-model.ts), else gemini;
 * the default tools, and `deny` unless --approval says otherwise.
 */
export function adHocRecipe(overrides: RecipeOverrides, cwd: string): Recipe {
  const draft: RecipeDraft = {
    file: null,
    version: 1,
    name: 'ad-hoc',
    description: '',
    prompt: null,
    instructions: null,
    parameters: {},
    provider: null,
    model: null,
    script: null,
    baseUrl: null,
    providerOptions: { ...DEFAULT_PROVIDER_OPTIONS },
    pricing: null,
    workspace: resolve(cwd),
    workspaceMode: 'in-place',
    tools: [...DEFAULT_TOOL_NAMES],
    confirmation: { mode: 'deny', allow: [], deny: [] },
    limits: { ...DEFAULT_LIMITS },
    env: { pass: [] },
    mcpServers: [],
    toolDiscovery: null,
    output: { schema: null, maxAttempts: DEFAULT_OUTPUT_ATTEMPTS },
    mode: 'default',
    planOnly: false,
    memory: { file: null, load: false },
    git: null,
    checks: { ...DEFAULT_CHECKS, commands: [] },
    failOnDenial: false,
    input: 'optional',
    sandbox: { ...DEFAULT_SANDBOX },
    context: { ...DEFAULT_CONTEXT, files: [...DEFAULT_CONTEXT.files] },
    telemetry: null,
  };
  return applyOverrides(draft, overrides, cwd);
}

/** The final, frozen Recipe: flags applied over the draft, provider defaults settled. */
export function applyOverrides(draft: RecipeDraft, ov: RecipeOverrides, cwd: string): Recipe {
  const errors: string[] = [];
  const fail = (message: string) => void errors.push(message);

  if (ov.provider !== undefined && !PROVIDERS.includes(ov.provider))
    fail(`--provider must be one of ${PROVIDERS.join(', ')}, got '${ov.provider}'`);
  const named = ov.provider !== undefined && PROVIDERS.includes(ov.provider) ? ov.provider : draft.provider;
  const provider = settledProvider([named], [ov.model, draft.model]);
  // The recipe's model and endpoint belong to the recipe's provider (named, or its model's).
  const sameProvider = provider === settledProvider([draft.provider], [draft.model]);
  const model = ov.model ?? (sameProvider ? draft.model : null) ?? DEFAULT_MODELS[provider];
  if (ov.model !== undefined && ov.model.trim() === '') fail('--model is empty');
  const alias = modelAliasProblem(ov.model, provider, '--model');
  if (alias !== null) fail(alias);
  // Qwen Code's users name their model in OPENAI_MODEL, which no run reads: say so where it is missed.
  if (model === null) fail(`provider '${provider}' needs a model: pass --model NAME${draft.file ? ' or set model: in the recipe' : ''}${provider === 'openai' ? " (OPENAI_MODEL, Qwen Code's setting, is not read here)" : ''}`);
  const baseUrl = ov.baseUrl ?? (sameProvider ? draft.baseUrl : null);
  // A replay of the recipe's own live provider (a recipe named one, or a model that settles it)
  // is priced as that model, not as the scripted provider's nameless one: without this, a recipe
  // with max_cost_usd could not be replayed at all (exit 52, no price for 'scripted').
  const own = settledProvider([draft.provider], [draft.model]);
  const ownModel = draft.model ?? DEFAULT_MODELS[own];
  // `--model NAME` on a replay names the live model it stands in for (its context window is looked
  // up by that name too): priced as that model, by the provider its name settles.
  const replayed = provider === 'scripted' && ov.model !== undefined && ov.model !== 'scripted' ? settledProvider([], [ov.model]) : null;
  const replayOf =
    replayed !== null && replayed !== 'scripted'
      ? { provider: replayed, model: ov.model!, baseUrl: replayed === own ? draft.baseUrl : null }
      : provider === 'scripted' && ov.model === undefined && own !== 'scripted' && (draft.provider !== null || draft.model !== null) && ownModel !== null
        ? { provider: own, model: ownModel, baseUrl: draft.baseUrl }
        : null;
  if (ov.baseUrl !== undefined && !isHttpUrl(ov.baseUrl)) fail(`--base-url must be an http or https URL, got '${ov.baseUrl}'`);

  let script = draft.script;
  if (ov.script !== undefined) {
    script = resolve(cwd, ov.script);
    const stat = statSync(script, { throwIfNoEntry: false });
    if (stat?.isDirectory()) fail(`--script: '${ov.script}' is a directory (resolved to ${script}): name the file of recorded turns in it`);
    else if (!stat?.isFile()) fail(`--script: file '${ov.script}' not found (resolved to ${script})`);
  }
  if (provider === 'scripted' && script === null) fail('the scripted provider replays recorded turns: pass --script FILE');

  if (ov.prompt !== undefined && ov.prompt.trim() === '') fail('--prompt is empty');
  let workspace = draft.workspace;
  let workspaceFound = true;
  // Empty (`--workspace "$REPO"` with REPO unset) would resolve to the current directory: the run
  // would work, and edit, where nobody sent it.
  if (ov.workspace !== undefined && ov.workspace.trim() === '') {
    workspaceFound = false;
    fail('--workspace names no directory: it was given an empty value');
  } else if (ov.workspace !== undefined) {
    workspace = resolve(cwd, ov.workspace);
    workspaceFound = statSync(workspace, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (!workspaceFound) fail(`--workspace '${ov.workspace}' is not a directory (resolved to ${workspace})`);
  }
  // The recipe's own `workspace:` is refused where it is read (semantic.ts, exit 52).
  const inGitDir = workspaceFound && (ov.workspace !== undefined || workspace === resolve(cwd)) ? gitDirHolding(workspace) : null;
  if (inGitDir) {
    const what = ov.workspace !== undefined ? `--workspace '${ov.workspace}'` : `the current directory (${workspace}), the workspace of a run without --workspace,`;
    fail(gitDirWorkspaceProblem(what, inGitDir, (tree) => (ov.workspace !== undefined ? `name the work tree: --workspace ${tree}` : `run from the work tree (cd ${tree}) or pass --workspace DIR`)));
  }
  if (ov.sandbox !== undefined && !['auto', 'required', 'off'].includes(ov.sandbox))
    fail(`--sandbox must be one of auto, required, off, got '${ov.sandbox}'`);
  if (ov.approval !== undefined && !MODES.includes(ov.approval))
    fail(`--approval must be one of ${MODES.join(', ')}, got '${ov.approval}'`);

  const limits = { ...draft.limits };
  const count = (flag: string, v: number | string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return v;
    fail(`${flag} must be a whole number of at least 1, got ${shown(v)}`);
    return undefined;
  };
  limits.maxTurns = count('--max-turns', ov.maxTurns) ?? limits.maxTurns;
  limits.maxToolCalls = count('--max-tool-calls', ov.maxToolCalls) ?? limits.maxToolCalls;
  limits.maxTokens = count('--max-tokens', ov.maxTokens) ?? limits.maxTokens;
  limits.modelRetries = count('--model-retries', ov.modelRetries) ?? limits.modelRetries;
  if (ov.maxCostUsd !== undefined) {
    if (typeof ov.maxCostUsd === 'number' && Number.isFinite(ov.maxCostUsd) && ov.maxCostUsd > 0) limits.maxCostUsd = ov.maxCostUsd;
    else fail(`--max-cost-usd must be a number of dollars above 0, got ${shown(ov.maxCostUsd)}`);
  }
  const duration = (flag: string, value: string | number | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const ms = tryParseDuration(value);
    if (typeof ms === 'number') return ms;
    fail(`${flag}: ${ms}`);
    return undefined;
  };
  limits.timeoutMs = duration('--timeout', ov.timeout) ?? limits.timeoutMs;
  limits.modelIdleTimeoutMs = duration('--model-idle-timeout', ov.modelIdleTimeout) ?? limits.modelIdleTimeoutMs;
  if (ov.maxDenials !== undefined) {
    if (typeof ov.maxDenials === 'number' && Number.isInteger(ov.maxDenials) && ov.maxDenials >= 0) limits.maxDenials = ov.maxDenials;
    else fail(`--max-denials must be a whole number of at least 0, got ${shown(ov.maxDenials)}`);
  }
  // fail_on_denial ends the run at the first denial: beside a tolerance of N it silently won, and
  // the run stopped at a denial the user had just allowed for. (0 says the same as it: no conflict.)
  const failOnDenial = draft.failOnDenial || ov.failOnDenial === true;
  if (failOnDenial && typeof ov.maxDenials === 'number' && ov.maxDenials > 0) {
    const from = ov.failOnDenial === true ? '--fail-on-denial' : `fail_on_denial (set by ${draft.file ? 'the recipe, or the run --continue goes on from' : 'the run --continue goes on from'})`;
    fail(`--max-denials ${ov.maxDenials} and ${from} contradict: fail_on_denial ends the run at the first denial. Give one: drop ${ov.failOnDenial === true ? '--fail-on-denial' : 'fail_on_denial'} to tolerate ${ov.maxDenials} denials, or drop --max-denials`);
  }
  const checks = { ...draft.checks, commands: [...draft.checks.commands] };
  for (const command of ov.checks ?? []) {
    if (command.trim() === '') fail('--check is empty: give the command to run, e.g. --check "npm test"');
    // Named again (the recipe's own, or the earlier run's with `-c … --check` repeated): run once.
    else if (!checks.commands.includes(command)) checks.commands.push(command);
  }
  if (ov.requireChanges) checks.requireChanges = true;
  if (ov.checkRetries !== undefined) {
    if (typeof ov.checkRetries === 'number' && Number.isInteger(ov.checkRetries) && ov.checkRetries >= 0) checks.retries = ov.checkRetries;
    else fail(`--check-retries must be a whole number of at least 0, got ${shown(ov.checkRetries)}`);
  }
  checks.timeoutMs = duration('--check-timeout', ov.checkTimeout) ?? checks.timeoutMs;
  // A recipe's own are refused where it is read (semantic.ts); here, the flags of a run --continue
  // goes on with from a plan_only run, which ends at its plan again before they could apply.
  const unmet = [...((ov.checks?.length ?? 0) > 0 ? ['--check'] : []), ...(ov.requireChanges ? ['--require-changes'] : []), ...(ov.outputSchema !== undefined ? ['--output-schema'] : [])];
  if (draft.planOnly && unmet.length > 0)
    fail(`${unmet.join(', ')}: this run is plan_only (a run --continue goes on from keeps it), so it ends with the plan again before ${unmet.length === 1 ? 'it' : 'they'} could apply: drop ${unmet.length === 1 ? 'it' : 'them'}`);
  // As checks.retries in a recipe: retries of no check would read as checks that guard the run.
  if (checks.retries > 0 && ov.checkRetries !== undefined && checks.commands.length === 0 && !checks.requireChanges)
    fail('--check-retries has no check to retry: add --check CMD or --require-changes (or checks: in the recipe)');

  const tools = ov.tools === undefined ? draft.tools : offeredTools(ov.tools, draft.mode, fail);
  const mcpServers = [...draft.mcpServers];
  // The same file (or inline JSON) named twice is its servers once, as a --check named again runs
  // once: each of its servers was refused as 'already defined' by itself.
  const mcpFiles = new Set<string>();
  const definedBy = new Map<string, string>();
  for (const file of ov.mcpConfig ?? []) {
    const key = file.trimStart().startsWith('{') ? file : resolve(cwd, file);
    if (mcpFiles.has(key)) continue;
    mcpFiles.add(key);
    const read = mcpServersFromFile(file, cwd);
    read.problems.forEach(fail);
    for (const server of read.value) {
      const by = definedBy.get(server.alias);
      if (mcpServers.some((s) => s.alias === server.alias)) fail(`--mcp-config ${flagValueName(file, cwd)}: server '${server.alias}' is already defined${by ? ` by --mcp-config ${by}` : draft.file ? ' by the recipe' : ''}; rename one`);
      else {
        mcpServers.push(server);
        definedBy.set(server.alias, flagValueName(file, cwd));
      }
    }
  }
  let instructions = draft.instructions;
  if (ov.appendSystemPrompt !== undefined) {
    const appended = appendedInstructions(ov.appendSystemPrompt, cwd);
    appended.problems.forEach(fail);
    if (appended.value !== null) instructions = instructions ? `${instructions.trimEnd()}\n\n${appended.value}` : appended.value;
  }
  let output = draft.output;
  if (ov.outputSchema !== undefined) {
    const schema = outputSchemaFromFile(ov.outputSchema, cwd);
    schema.problems.forEach(fail);
    if (schema.value) output = { ...draft.output, schema: schema.value };
  }

  const catalog = new ToolCatalog(
    tools,
    mcpServers.map((s) => ({ alias: s.alias, includeTools: s.includeTools, excludeTools: s.excludeTools, ...(s.fromFile ? { fromFile: s.fromFile } : {}) })),
    draft.toolDiscovery !== null,
  );
  const cliRules = (flag: '--allow' | '--deny', texts: string[] | undefined): PolicyRule[] => {
    const rules: PolicyRule[] = [];
    for (const text of texts ?? []) {
      const problem = cliRuleProblem(catalog, flag, text);
      if (problem) fail(`${flag} '${text}': ${problem}`);
      else {
        const { tool, pattern } = splitCliRule(text);
        rules.push(makeRule(tool, pattern));
      }
    }
    return rules;
  };
  const allow = cliRules('--allow', ov.allow);
  const deny = cliRules('--deny', ov.deny);
  const mode = ov.approval ?? draft.confirmation.mode;
  for (const text of ov.allow ?? []) {
    const inert = inertAllowRule(text, mode, ov.approval !== undefined ? `--approval ${mode}` : draft.file === null ? 'a run without a recipe is in deny mode unless --approval says otherwise' : "the recipe's confirmation.mode");
    if (inert) fail(`--allow '${text}': ${inert}`);
  }

  if (errors.length) throw new (inGitDir && ov.workspace === undefined ? CwdInGitDirError : InputError)(errors.join('\n'));
  return deepFreeze({
    ...draft,
    prompt: ov.prompt ?? draft.prompt,
    instructions,
    tools,
    mcpServers,
    output,
    context: ov.context === false ? null : draft.context,
    provider,
    model: model!,
    script,
    baseUrl,
    // Only on a replay: every other run's Recipe keeps its shape.
    ...(replayOf ? { replayOf } : {}),
    providerOptions: ov.stream === false ? { ...draft.providerOptions, stream: false } : draft.providerOptions,
    workspace,
    confirmation: {
      mode: ov.approval ?? draft.confirmation.mode,
      allow: withNewRules(draft.confirmation.allow, allow),
      deny: withNewRules(draft.confirmation.deny, deny),
    },
    limits,
    checks,
    failOnDenial,
    sandbox: ov.sandbox ? { ...draft.sandbox, mode: ov.sandbox } : draft.sandbox,
  });
}

/** `--tools read_file,grep --tools edit`: built-in names, each once; plan mode keeps exit_plan_mode. */
function offeredTools(values: string[], mode: Recipe['mode'], fail: (message: string) => void): string[] {
  const names = [...new Set(values.flatMap((v) => v.split(',')).map((n) => n.trim()).filter((n) => n !== ''))];
  for (const name of names) {
    if ((BUILTIN_TOOL_NAMES as readonly string[]).includes(name)) continue;
    const near = closest(name, BUILTIN_TOOL_NAMES);
    const peer = name === 'default' ? 'leave --tools out for the default tools' : (peerToolNameHint(name) ?? peerToolListHint(name, '--tools', isBuiltinToolName));
    if (peer) fail(`--tools: '${name}' is not a built-in tool: ${peer}`);
    else fail(`--tools: '${name}' is not a built-in tool${near ? ` (did you mean '${near}'?)` : ''}; they are ${BUILTIN_TOOL_NAMES.join(', ')} (MCP tools come with --mcp-config)`);
  }
  const tools = names.filter((n) => (BUILTIN_TOOL_NAMES as readonly string[]).includes(n));
  if (mode === 'plan' && !tools.includes('exit_plan_mode')) tools.push('exit_plan_mode');
  return tools;
}

/** A flag's rule the recipe (or the run `--continue` goes on from) has already is not added twice. */
function withNewRules(rules: readonly PolicyRule[], added: readonly PolicyRule[]): PolicyRule[] {
  const out = [...rules];
  for (const rule of added) if (!out.some((r) => r.source === rule.source)) out.push(rule);
  return out;
}

function cliRuleProblem(catalog: ToolCatalog, flag: '--allow' | '--deny', text: string): string | null {
  const problem = ruleTextProblem(catalog, flag, text);
  // `Bash(git status:*)`, as Claude Code and Gemini CLI write rules: say what to write here.
  return problem === null ? null : (peerRuleHint(text, { written: { flag }, isOurTool: (name) => catalog.unknownReason(name) === null }) ?? problem);
}

function ruleTextProblem(catalog: ToolCatalog, flag: '--allow' | '--deny', text: string): string | null {
  const { tool, pattern } = splitCliRule(text);
  if (tool === '') return "write 'tool:pattern' or a bare tool name, e.g. 'shell:git diff *'";
  const unknown = catalog.unknownReason(tool, 'flag');
  if (unknown) return unknown;
  if (flag === '--allow' && !catalog.isOffered(tool)) return catalog.notOfferedReason(tool, 'flag');
  return ruleProblem(tool, pattern) ?? (flag === '--allow' ? unlimitingAllowRule(tool, pattern, 'flag') : null);
}

/**
 * Why an --allow rule would change nothing in `mode`, or null. Allow rules count in allowlist
 * mode; under auto-approve only a path rule does (it may name a protected path, which even
 * auto-approve never writes unless an allow rule spells it out). A rule that silently does
 * nothing leaves its author believing a call is approved that the run will refuse.
 */
function inertAllowRule(text: string, mode: ConfirmationMode, whence: string): string | null {
  if (mode === 'allowlist') return null;
  if (mode === 'auto-approve' && ruleKind(splitCliRule(text).tool) === 'path' && splitCliRule(text).pattern !== null) return null;
  const effect = mode === 'deny' ? 'every call that asks for confirmation is denied' : 'every call is approved already';
  return `allow rules count only in allowlist mode, and this run's mode is ${mode} (${whence}): ${effect}, so the rule would change nothing. Add --approval allowlist to approve only what the --allow rules name`;
}

function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

/** A flag's value as the person gave it: the command line passes a word that is no number as the word itself. */
function shown(value: number | string): string {
  if (typeof value === 'string') return value.trim() === '' ? "no value (give one after the flag)" : `'${value}'`;
  return Number.isNaN(value) ? 'something that is not a number' : String(value);
}
