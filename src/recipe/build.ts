// Checked recipe data -> Recipe: defaults filled, parameters substituted, paths made absolute.
// Only called on data that passed the schema and semantic checks, so it trusts the shape.
import { basename, extname, resolve } from 'node:path';
import { DEFAULT_TOOL_NAMES } from '../tools/names.js';
import { durationOr } from './duration.js';
import { defaultHandoffBranch } from './git-ref.js';
import { substitute, type ParamValue } from './params.js';
import { makeRule } from './rules.js';
import { DEFAULT_PROVIDER_OPTIONS, type DialectName } from '../types/provider-options.js';
import { DEFAULT_CHECKS, DEFAULT_CONTEXT, DEFAULT_LIMITS, DEFAULT_SANDBOX, type ContextSettings, type McpServerConfig, type SandboxSettings, type ParameterSpec, type PolicyRule, type ProviderName, type PullRequestConfig, type Recipe, type GitHandoff, type HandoffSection } from './types.js';

type RawRule = string | Record<string, string>;
type Duration = string | number;

/** A recipe file's data once RECIPE_SCHEMA accepted it. */
export interface RawRecipe {
  version: 1;
  name?: string;
  description?: string;
  prompt?: string;
  instructions?: string;
  parameters?: Record<string, { type?: ParameterSpec['type']; required?: boolean; default?: ParamValue; description?: string }>;
  provider?: Recipe['provider'];
  model?: string;
  script?: string;
  base_url?: string;
  provider_options?: { stream?: boolean; dialect?: DialectName; max_output_tokens?: number; thinking_budget?: number; cache?: boolean; images?: boolean };
  pricing?: { input_per_mtok: number; output_per_mtok: number; cached_input_per_mtok?: number; cache_write_per_mtok?: number };
  workspace?: string;
  workspace_mode?: Recipe['workspaceMode'];
  tools?: string[];
  confirmation: { mode: Recipe['confirmation']['mode']; allow?: RawRule[]; deny?: RawRule[] };
  limits?: { max_turns?: number; max_tool_calls?: number; timeout?: Duration; max_tokens?: number; max_cost_usd?: number; tool_timeout?: Duration;
    model_idle_timeout?: Duration; model_retries?: number; max_denials?: number; context_tokens?: number; compact_at?: number };
  env?: { pass?: string[] };
  mcp_servers?: Record<string, RawMcpServer>;
  tool_discovery?: { command: string; call_command: string; timeout?: Duration };
  output?: { schema?: Record<string, unknown>; max_attempts?: number };
  mode?: Recipe['mode'];
  plan_only?: boolean;
  memory?: { file?: string; load?: boolean };
  git?: RawHandoff;
  /** The same section as git (the semantic checks refuse a recipe with both). */
  handoff?: RawHandoff;
  checks?: { require_changes?: boolean; commands?: string[]; retries?: number; timeout?: Duration };
  fail_on_denial?: boolean;
  input?: Recipe['input'];
  telemetry?: { endpoint?: string; protocol?: 'http/protobuf' | 'http/json'; headers?: Record<string, string>; service_name?: string; resource_attributes?: Record<string, string>; log_content?: boolean };
  context?: boolean | { files?: string[]; max_bytes?: number };
  sandbox?: { mode?: SandboxSettings['mode']; network?: boolean | string[]; writable?: string[]; hide?: string[] };
}

interface RawHandoff {
  branch?: string;
  commit_message?: string;
  push?: boolean;
  author?: { name: string; email: string };
  pull_request?: RawPullRequest;
}

interface RawPullRequest {
  title?: string;
  body?: string;
  draft?: boolean;
  labels?: string[];
  base?: string;
}

interface RawMcpServer {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  timeout?: Duration;
  include_tools?: string[];
  exclude_tools?: string[];
  trust?: boolean;
  required?: boolean;
  sandbox?: boolean;
}

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 60_000;
export const DEFAULT_OUTPUT_ATTEMPTS = 3;

export function parameterSpecs(raw: RawRecipe): Record<string, ParameterSpec> {
  // No prototype: a parameter called `__proto__` is a parameter, not the object's prototype.
  const specs: Record<string, ParameterSpec> = Object.create(null);
  for (const [name, p] of Object.entries(raw.parameters ?? {})) {
    const spec: ParameterSpec = { type: p.type ?? 'string', required: p.required ?? p.default === undefined };
    if (p.default !== undefined) spec.default = p.default;
    if (p.description !== undefined) spec.description = p.description;
    specs[name] = spec;
  }
  return specs;
}

export interface BuildContext {
  /** Absolute path of the recipe file. */
  file: string;
  /** Where a recipe without `workspace` runs. */
  cwd: string;
  /** What the recipe's relative paths are relative to; default the file's directory. */
  baseDir?: string;
  values: Record<string, ParamValue>;
}

/**
 * A Recipe before the flags are applied: the model may still be "the provider's default", and the
 * provider null when the recipe names none (settled with the flags: provider-of-model.ts).
 */
export type RecipeDraft = Omit<Recipe, 'model' | 'provider'> & { model: string | null; provider: ProviderName | null };

export function buildRecipe(raw: RawRecipe, ctx: BuildContext): RecipeDraft {
  const dir = ctx.baseDir ?? resolve(ctx.file, '..');
  const fill = (text: string | undefined) => (text === undefined ? null : substitute(text, ctx.values));
  const tools = raw.tools ?? [...DEFAULT_TOOL_NAMES];
  if (raw.mode === 'plan' && !tools.includes('exit_plan_mode')) tools.push('exit_plan_mode');
  const limits = raw.limits ?? {};
  return {
    file: ctx.file,
    version: 1,
    name: raw.name ?? basename(ctx.file, extname(ctx.file)),
    description: raw.description ?? '',
    prompt: fill(raw.prompt),
    instructions: fill(raw.instructions),
    parameters: parameterSpecs(raw),
    provider: raw.provider ?? null,
    model: raw.model ?? null,
    script: raw.script === undefined ? null : resolve(dir, raw.script),
    baseUrl: raw.base_url ?? null,
    providerOptions: {
      stream: raw.provider_options?.stream ?? DEFAULT_PROVIDER_OPTIONS.stream,
      dialect: raw.provider_options?.dialect ?? DEFAULT_PROVIDER_OPTIONS.dialect,
      maxOutputTokens: raw.provider_options?.max_output_tokens ?? DEFAULT_PROVIDER_OPTIONS.maxOutputTokens,
      thinkingBudget: raw.provider_options?.thinking_budget ?? DEFAULT_PROVIDER_OPTIONS.thinkingBudget,
      cache: raw.provider_options?.cache ?? DEFAULT_PROVIDER_OPTIONS.cache,
      images: raw.provider_options?.images ?? DEFAULT_PROVIDER_OPTIONS.images,
    },
    pricing: raw.pricing
      ? {
          inputPerMtok: raw.pricing.input_per_mtok,
          outputPerMtok: raw.pricing.output_per_mtok,
          cachedInputPerMtok: raw.pricing.cached_input_per_mtok ?? null,
          cacheWritePerMtok: raw.pricing.cache_write_per_mtok ?? null,
        }
      : null,
    workspace: resolve(dir, raw.workspace ?? ctx.cwd),
    workspaceMode: raw.workspace_mode ?? 'in-place',
    tools,
    confirmation: {
      mode: raw.confirmation.mode,
      allow: (raw.confirmation.allow ?? []).map(toRule),
      deny: (raw.confirmation.deny ?? []).map(toRule),
    },
    limits: {
      maxTurns: limits.max_turns ?? DEFAULT_LIMITS.maxTurns,
      maxToolCalls: limits.max_tool_calls ?? DEFAULT_LIMITS.maxToolCalls,
      timeoutMs: durationOr(limits.timeout, DEFAULT_LIMITS.timeoutMs),
      maxTokens: limits.max_tokens ?? DEFAULT_LIMITS.maxTokens,
      maxCostUsd: limits.max_cost_usd ?? DEFAULT_LIMITS.maxCostUsd,
      toolTimeoutMs: durationOr(limits.tool_timeout, DEFAULT_LIMITS.toolTimeoutMs),
      modelIdleTimeoutMs:
        durationOr(limits.model_idle_timeout, DEFAULT_LIMITS.modelIdleTimeoutMs),
      modelRetries: limits.model_retries ?? DEFAULT_LIMITS.modelRetries,
      maxDenials: limits.max_denials ?? DEFAULT_LIMITS.maxDenials,
      contextTokens: limits.context_tokens ?? DEFAULT_LIMITS.contextTokens,
      compactAt: limits.compact_at ?? DEFAULT_LIMITS.compactAt,
    },
    env: { pass: raw.env?.pass ?? [] },
    mcpServers: Object.entries(raw.mcp_servers ?? {}).map(([alias, s]) => toMcpServer(alias, s, dir)),
    toolDiscovery: raw.tool_discovery
      ? {
          command: raw.tool_discovery.command,
          callCommand: raw.tool_discovery.call_command,
          timeoutMs: durationOr(raw.tool_discovery.timeout, DEFAULT_DISCOVERY_TIMEOUT_MS),
        }
      : null,
    output: { schema: raw.output?.schema ?? null, maxAttempts: raw.output?.max_attempts ?? DEFAULT_OUTPUT_ATTEMPTS },
    mode: raw.mode ?? 'default',
    planOnly: raw.plan_only ?? false,
    memory: { file: raw.memory?.file === undefined ? null : resolve(dir, raw.memory.file), load: raw.memory?.load ?? false },
    git: handoffConfig(raw, ctx),
    checks: {
      requireChanges: raw.checks?.require_changes ?? DEFAULT_CHECKS.requireChanges,
      commands: raw.checks?.commands ?? [],
      retries: raw.checks?.retries ?? DEFAULT_CHECKS.retries,
      timeoutMs: durationOr(raw.checks?.timeout, DEFAULT_CHECKS.timeoutMs),
    },
    failOnDenial: raw.fail_on_denial ?? false,
    input: raw.input ?? 'optional',
    sandbox: sandboxSettings(raw.sandbox, dir),
    context: contextSettings(raw.context),
    telemetry: raw.telemetry
      ? {
          endpoint: raw.telemetry.endpoint ?? null,
          protocol: raw.telemetry.protocol ?? null,
          headers: raw.telemetry.headers ?? {},
          serviceName: raw.telemetry.service_name ?? null,
          resourceAttributes: raw.telemetry.resource_attributes ?? {},
          logContent: raw.telemetry.log_content ?? false,
        }
      : null,
  };
}

function contextSettings(raw: RawRecipe['context']): ContextSettings | null {
  if (raw === false) return null;
  if (raw === undefined || raw === true) return { ...DEFAULT_CONTEXT, files: [...DEFAULT_CONTEXT.files] };
  return { files: raw.files ?? [...DEFAULT_CONTEXT.files], maxBytes: raw.max_bytes ?? DEFAULT_CONTEXT.maxBytes };
}

/** Paths are relative to the recipe file; `~/...` stays as written and means the runner's home. */
function sandboxSettings(raw: RawRecipe['sandbox'], dir: string): SandboxSettings {
  const place = (p: string) => (p === '~' || p.startsWith('~/') ? p : resolve(dir, p));
  return {
    mode: raw?.mode ?? DEFAULT_SANDBOX.mode,
    network: raw?.network ?? DEFAULT_SANDBOX.network,
    writable: (raw?.writable ?? []).map(place),
    hide: (raw?.hide ?? []).map(place),
  };
}

function toRule(raw: RawRule): PolicyRule {
  if (typeof raw === 'string') return makeRule(raw, null);
  const [[tool, pattern]] = Object.entries(raw) as [[string, string]];
  return makeRule(tool, pattern.trim());
}

function toMcpServer(alias: string, s: RawMcpServer, dir: string): McpServerConfig {
  return {
    alias,
    command: s.command ?? null,
    args: s.args ?? [],
    env: s.env ?? {},
    cwd: s.cwd === undefined ? null : resolve(dir, s.cwd),
    url: s.url ?? null,
    headers: s.headers ?? {},
    timeoutMs: durationOr(s.timeout, DEFAULT_MCP_TIMEOUT_MS),
    includeTools: s.include_tools ?? null,
    excludeTools: s.exclude_tools ?? [],
    trust: s.trust ?? false,
    required: s.required ?? false,
    ...(s.sandbox ? { sandbox: true } : {}),
  };
}

/** The hand-off section, under whichever of its two names the recipe gives it. */
function handoffConfig(raw: RawRecipe, ctx: BuildContext): GitHandoff | null {
  const h = raw.git ?? raw.handoff;
  if (!h) return null;
  const section: HandoffSection = raw.git ? 'git' : 'handoff';
  const stem = basename(ctx.file, extname(ctx.file));
  return {
    section,
    branch: h.branch === undefined ? defaultHandoffBranch(raw.name, stem) : substitute(h.branch, ctx.values),
    commitMessage: substitute(h.commit_message ?? `unattended: ${raw.name ?? stem}`, ctx.values),
    // A pull request needs the branch on the remote: asking for one implies the push.
    push: h.push ?? h.pull_request !== undefined,
    author: h.author ? { name: h.author.name, email: h.author.email } : null,
    pullRequest: h.pull_request ? pullRequestConfig(h.pull_request, h.commit_message, ctx.values) : null,
  };
}

/** Parameters now; `{{ run.* }}` stays for the hand-off (substitute keeps names it does not know). */
function pullRequestConfig(raw: RawPullRequest, commitMessage: string | undefined, values: Record<string, ParamValue>): PullRequestConfig {
  const firstLine = (commitMessage ?? '').split('\n')[0]!.trim();
  // An escaped `\{{ run.x }}` keeps its backslash until the hand-off, which removes it and fills nothing.
  const keepRunEscapes = (text: string) => substitute(text.replace(/\\\{\{(?=\s*run\.)/g, '\0'), values).replace(/\0/g, '\\{{');
  return {
    title: keepRunEscapes(raw.title ?? (firstLine || 'unattended: {{ run.recipe }}')),
    body: keepRunEscapes(raw.body ?? '{{ run.summary }}'),
    draft: raw.draft ?? false,
    labels: [...new Set(raw.labels ?? [])],
    base: raw.base === undefined ? null : substitute(raw.base, values),
  };
}
