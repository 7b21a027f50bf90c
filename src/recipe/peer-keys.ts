// Recipe keys as other tools' users write them (Claude Code's settings, Codex's config, Gemini CLI's
// settings, goose recipes' habits) or in a place one level off: too far from ours for "did you
// mean", so each is answered with the key that does the job here. Only at the top of a recipe.

const LIMITS = ['max_turns', 'max_tool_calls', 'timeout', 'max_tokens', 'max_cost_usd', 'tool_timeout', 'model_idle_timeout', 'model_retries', 'max_denials', 'context_tokens', 'compact_at'];

const POLICY = ' (the policy is `confirmation: {mode: allowlist, allow: [...], deny: [...]}`)';

const HINTS: Readonly<Record<string, string>> = {
  params: " (did you mean 'parameters'?)",
  args: " (did you mean 'parameters'?)",
  arguments: " (did you mean 'parameters'?)",
  variables: " (did you mean 'parameters'?)",
  vars: " (did you mean 'parameters'?)",
  permissions: POLICY,
  approval: POLICY,
  approval_policy: POLICY,
  approval_mode: POLICY,
  approvalMode: POLICY,
  policy: POLICY,
  allowedTools: ' (the tools the model gets are `tools: [...]`; which calls need no confirmation, `confirmation.allow`)',
  allowed_tools: ' (the tools the model gets are `tools: [...]`; which calls need no confirmation, `confirmation.allow`)',
  disallowedTools: ' (leave the tool out of `tools: [...]`, or refuse its calls with `confirmation.deny`)',
  excludeTools: ' (leave the tool out of `tools: [...]`, or refuse its calls with `confirmation.deny`)',
  exclude_tools: ' (leave the tool out of `tools: [...]`, or refuse its calls with `confirmation.deny`)',
  // Gemini CLI's settings.json.
  coreTools: ' (the tools the model gets are `tools: [...]`)',
  // Gemini CLI's autoAccept runs the calls it deems safe: here read-only tools never ask anyway.
  autoAccept: ' (read-only tools never ask here; which other calls run without asking is `confirmation`: mode allowlist with allow rules, or auto-approve)',
  yolo: ' (calls run without asking under `confirmation: {mode: auto-approve}`)',
  contextFileName: ' (context files are `context: {files: [GEMINI.md]}`)',
  context_file_name: ' (context files are `context: {files: [GEMINI.md]}`)',
  model_provider: " (did you mean 'provider'?)",
  modelProvider: " (did you mean 'provider'?)",
  system: " (did you mean 'instructions'?)",
  system_prompt: " (did you mean 'instructions'?)",
  systemPrompt: " (did you mean 'instructions'?)",
  append_system_prompt: " (did you mean 'instructions'?)",
  sandbox_mode: " (did you mean 'sandbox'? e.g. `sandbox: {mode: auto}`)",
  sandboxMode: " (did you mean 'sandbox'? e.g. `sandbox: {mode: auto}`)",
  mcpServers: " (did you mean 'mcp_servers'?)",
  extensions: " (MCP servers are `mcp_servers`; a goose recipe is read as one when it has goose's `title`)",
  response: " (a JSON schema for the answer is `output: {schema: ...}`)",
  json_schema: " (a JSON schema for the answer is `output: {schema: ...}`)",
  ...Object.fromEntries(LIMITS.map((key) => [key, ` (it belongs under limits: \`limits: {${key}: ...}\`)`])),
  // Codex's config.toml keys for the window and when to compact, at its top level too.
  model_context_window: " (the model's context window is `limits: {context_tokens: TOKENS}`)",
  context_window: " (the model's context window is `limits: {context_tokens: TOKENS}`)",
  model_auto_compact_token_limit: ' (when older turns are compacted is `limits: {compact_at: 0.7}`, a share of the window)',
};

/** The hint for an unknown top-level key `key`, or null. */
export function peerKeyHint(key: string): string | null {
  return Object.hasOwn(HINTS, key) ? HINTS[key]! : null;
}
