// The typed, validated, frozen recipe the rest of the runner trusts.
export type ConfirmationMode = 'auto-approve' | 'deny' | 'allowlist';
export type ProviderName = 'gemini' | 'openai' | 'scripted';

/** One policy rule: `- shell: "git diff *"` is {tool: 'shell', pattern: 'git diff *'}; `- read_file` has no pattern. */
export interface PolicyRule {
  tool: string;
  pattern: string | null;
  /** As written, for reports: `shell: git diff *`. */
  source: string;
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
  /** Upper bound for any single tool call (shell's timeout_ms is clamped to it). */
  toolTimeoutMs: number;
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
  /** Absolute path (not yet realpath'd). */
  workspace: string;
  /** `copy`: run on a fresh copy of the workspace inside the run output (demos, dry runs). */
  workspaceMode: 'in-place' | 'copy';
  /** Tool names offered to the model, in order. */
  tools: string[];
  confirmation: ConfirmationPolicy;
  limits: RecipeLimits;
  env: { pass: string[] };
}

export const DEFAULT_TOOLS = ['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files', 'shell'] as const;

export const DEFAULT_LIMITS: RecipeLimits = Object.freeze({
  maxTurns: 50,
  maxToolCalls: null,
  timeoutMs: null,
  maxTokens: null,
  toolTimeoutMs: 10 * 60_000,
});
