// The typed, validated, frozen recipe the rest of the runner trusts.
export type ConfirmationMode = 'auto-approve' | 'deny' | 'allowlist';
import type { Pricing, ProviderOptions } from '../types/provider-options.js';

export type ProviderName = 'gemini' | 'openai' | 'anthropic' | 'scripted';

/** One policy rule: `- shell: "git diff *"` is {tool: 'shell', pattern: 'git diff *'}; `- read_file` has no pattern. */
export interface PolicyRule {
  tool: string;
  pattern: string | null;
  /** As written, for reports: `shell: git diff *`. */
  source: string;
  /** Where the recipe writes it; null for --allow/--deny flags and rules made in code. */
  position?: RulePosition | null;
}

export interface RulePosition {
  file: string;
  line: number;
  col: number;
}

export interface ConfirmationPolicy {
  mode: ConfirmationMode;
  allow: PolicyRule[];
  deny: PolicyRule[];
}

export interface ParameterSpec {
  type: 'string' | 'number' | 'boolean';
  required: boolean;
  default?: string | number | boolean;
  description?: string;
}

export interface RecipeLimits {
  maxTurns: number;
  maxToolCalls: number | null;
  timeoutMs: number | null;
  maxTokens: number | null;
  /** Dollars the model calls may cost (`limits.max_cost_usd`); needs a known price. */
  maxCostUsd: number | null;
  /** Upper bound for any single tool call (shell's timeout_ms is clamped to it). */
  toolTimeoutMs: number;
  /** A model stream silent this long is aborted and retried ('stalled'). */
  modelIdleTimeoutMs: number;
  /** Attempts per model call, the first included (429, 5xx, network, stalls). */
  modelRetries: number;
  /** Policy denials the run tolerates; one more ends it (exit 57). 0: the first denial does. */
  maxDenials: number;
  /** The model's context window in tokens (`limits.context_tokens`); null: the price table's, else unknown. */
  contextTokens: number | null;
  /** Share of the window a request may fill before older turns are compacted (`limits.compact_at`). */
  compactAt: number;
}

/** What must hold after the final answer for the run to succeed (exit 56 otherwise). */
export interface SuccessChecks {
  /** The run must change at least one file (as the report counts them). */
  requireChanges: boolean;
  /** bash commands run in the workspace; every one must exit 0. */
  commands: string[];
  /** Times a failed check goes back to the model before the run fails. */
  retries: number;
  /** Per command. */
  timeoutMs: number;
}

/** The live model a scripted replay stands in for. */
export interface ReplayedModel {
  provider: Exclude<ProviderName, 'scripted'>;
  model: string;
  baseUrl: string | null;
}

export interface Recipe {
  /** Absolute path of the recipe file; null for an ad-hoc recipe made from flags. */
  file: string | null;
  version: 1;
  name: string;
  description: string;
  /** Prompt after `{{ param }}` substitution; null when it must come from --prompt or stdin. */
  prompt: string | null;
  instructions: string | null;
  parameters: Record<string, ParameterSpec>;
  provider: ProviderName;
  model: string;
  /** Recorded model turns for the scripted provider (absolute path). */
  script: string | null;
  /** Endpoint override for the provider. */
  baseUrl: string | null;
  /**
   * Set when `--provider scripted` replays a recipe whose own provider is a live one: that
   * provider's model and endpoint, which price the recorded turns, so a replay costs what the
   * live run did and `max_cost_usd` stops it where it stopped.
   */
  replayOf?: ReplayedModel | null;
  providerOptions: ProviderOptions;
  /** Price override for cost in dollars; null: the built-in price table. */
  pricing: Pricing | null;
  /** Absolute path (not yet realpath'd). */
  workspace: string;
  /** `copy`: run on a fresh copy of the workspace inside the run output (demos, dry runs). */
  workspaceMode: 'in-place' | 'copy';
  /** Tool names offered to the model, in order. */
  tools: string[];
  confirmation: ConfirmationPolicy;
  limits: RecipeLimits;
  env: { pass: string[] };
  /** MCP servers whose tools are offered as `alias__tool` (issue 4). */
  mcpServers: McpServerConfig[];
  /** Command-based tool discovery, the seed's toolDiscoveryCommand/toolCallCommand (issue 4). */
  toolDiscovery: ToolDiscoveryConfig | null;
  /** Structured final answer (issue 4). */
  output: { schema: Record<string, unknown> | null; maxAttempts: number };
  /** `plan`: only read-only tools until the model calls exit_plan_mode (issue 4). */
  mode: 'default' | 'plan';
  planOnly: boolean;
  memory: { file: string | null; load: boolean };
  /** Branch and commit after a successful run with changes (issue 5): recipe `git:` or `handoff:`. */
  git: GitHandoff | null;
  checks: SuccessChecks;
  /** Any policy denial ends the run (exit 57). */
  failOnDenial: boolean;
  /** `required`: the run needs non-empty piped input (stdin), or it ends before any model call (exit 42). */
  input: 'required' | 'optional';
  /** The OS sandbox every process a tool starts runs in (issue 11). */
  sandbox: SandboxSettings;
  /** Context files (AGENTS.md...) loaded into the first message; null: none (`context: false`). */
  context: ContextSettings | null;
  /** OpenTelemetry export as the recipe asks for it; the OTEL_* environment wins (issue 15). */
  telemetry: RecipeTelemetry | null;
  /** Set when the file was in another tool's format and converted on load (a goose recipe). */
  conversion?: RecipeConversion;
}

export interface RecipeConversion {
  from: 'goose';
  /** What the conversion ignored or changed: each becomes a `warning` event of the run. */
  warnings: string[];
}

export interface ContextSettings {
  /** File names looked for in each directory from the workspace root down to the working directory. */
  files: string[];
  /** Cap on all of them together, in bytes (UTF-8). */
  maxBytes: number;
}

export const DEFAULT_CONTEXT: ContextSettings = Object.freeze({ files: ['AGENTS.md'], maxBytes: 32_768 }) as ContextSettings;

export interface RecipeTelemetry {
  endpoint: string | null;
  protocol: 'http/protobuf' | 'http/json' | null;
  headers: Record<string, string>;
  serviceName: string | null;
  resourceAttributes: Record<string, string>;
  /** Export prompt, model text, tool arguments and outputs, redacted like the transcript. */
  logContent: boolean;
}

export interface SandboxSettings {
  /** auto: on where it works; required: a run that cannot sandbox fails (exit 52); off: none. */
  mode: 'auto' | 'required' | 'off';
  /** false: no network; true: all of it; a list: these hosts (`*.example.com`) through a filtering proxy. */
  network: boolean | string[];
  /** Absolute paths sandboxed processes may write besides the workspace and a private /tmp. */
  writable: string[];
  /** Absolute paths hidden besides the default credential list. */
  hide: string[];
}

export const DEFAULT_SANDBOX: SandboxSettings = Object.freeze({ mode: 'auto', network: false, writable: [], hide: [] });

export interface McpServerConfig {
  alias: string;
  /** stdio transport */
  command: string | null;
  args: string[];
  env: Record<string, string>;
  cwd: string | null;
  /** Streamable HTTP transport */
  url: string | null;
  headers: Record<string, string>;
  timeoutMs: number;
  includeTools: string[] | null;
  excludeTools: string[];
  /** Trusted servers' tools need no confirmation. */
  trust: boolean;
  /** A required server that fails to start fails the run (exit 52). */
  required: boolean;
  /** A stdio server runs inside the run's sandbox (recipe `sandbox: true`). */
  sandbox?: boolean;
  /** Where the server is switched off (`"disabled": true` in an `--mcp-config` file): it is not started, and the run says so. */
  disabledIn?: string;
  /**
   * The `--mcp-config` file the server comes from (`--mcp-config m.json`): messages about its
   * filters name the file's keys (`excludeTools`), which the user wrote, not a recipe's.
   */
  fromFile?: string;
  /**
   * How an `--mcp-config` file writes the command, args and URL, when it fills `${VAR}`s from the
   * environment: what a continued run compares (continued-safety.ts), since a changed HOME is no
   * changed file, and the values may hold keys.
   */
  written?: { command: string | null; args: string[]; url: string | null };
}

export interface ToolDiscoveryConfig {
  /** Prints a JSON array of FunctionDeclarations. Run with bash in the workspace. */
  command: string;
  /** Run as `<call_command> <toolName>`, JSON arguments on stdin. */
  callCommand: string;
  timeoutMs: number;
}

export interface GitHandoff {
  /** The key the recipe wrote it under, for messages: `git` (the default) or `handoff` (the same section). */
  section?: HandoffSection;
  /** As written with parameters filled, or the default (defaultHandoffBranch). */
  branch: string;
  commitMessage: string;
  push: boolean;
  author: { name: string; email: string } | null;
  /** Open (or update) a pull request from the pushed branch; implies push. */
  pullRequest: PullRequestConfig | null;
}

/**
 * `git.pull_request`: parameters are filled at load time; `{{ run.* }}` placeholders (RUN_PLACEHOLDERS)
 * in title and body are filled when the run ends.
 */
export interface PullRequestConfig {
  title: string;
  body: string;
  draft: boolean;
  labels: string[];
  /** The branch to merge into; null: the repository's default branch. */
  base: string | null;
}

/** The two names of the hand-off section: `git:` (its first) and `handoff:` (what fleet tools call it). */
export const HANDOFF_SECTIONS = ['git', 'handoff'] as const;
export type HandoffSection = (typeof HANDOFF_SECTIONS)[number];

/** What `{{ run.NAME }}` may name in a pull request's title and body. */
export const RUN_PLACEHOLDERS = ['summary', 'cost_usd', 'turns', 'tool_calls', 'files_changed', 'run_id', 'recipe', 'model', 'commit'] as const;


export const DEFAULT_LIMITS: RecipeLimits = Object.freeze({
  // Generous: runaway cost is bounded by max_tokens and timeout, and a model stuck repeating itself by
  // the loop guard; a large refactor legitimately takes two turns per file.
  maxTurns: 500,
  maxToolCalls: null,
  timeoutMs: null,
  maxTokens: null,
  maxCostUsd: null,
  toolTimeoutMs: 10 * 60_000,
  modelIdleTimeoutMs: 60_000,
  modelRetries: 5,
  maxDenials: 10,
  contextTokens: null,
  compactAt: 0.7,
});

export const DEFAULT_CHECKS: SuccessChecks = Object.freeze({ requireChanges: false, commands: [], retries: 0, timeoutMs: 10 * 60_000 });
