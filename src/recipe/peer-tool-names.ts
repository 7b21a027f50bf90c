// Other agents' names for the built-in tools, and their rule syntax (Claude Code's `Bash(git
// status:*)`, Gemini CLI's `run_shell_command(git status)`): a user coming from them writes those
// in --tools, --allow and --deny. They are never taken as ours (a rule decides what runs, and
// their patterns do not match as ours do): the refusal says what to write here instead.

const PEER_TOOL_NAMES: Readonly<Record<string, { tool: string; peer: string }>> = {
  Bash: { tool: 'shell', peer: 'Claude Code' },
  Read: { tool: 'read_file', peer: 'Claude Code' },
  Edit: { tool: 'edit', peer: 'Claude Code' },
  MultiEdit: { tool: 'edit', peer: 'Claude Code' },
  Write: { tool: 'write_file', peer: 'Claude Code' },
  Grep: { tool: 'grep', peer: 'Claude Code' },
  Glob: { tool: 'glob', peer: 'Claude Code' },
  LS: { tool: 'ls', peer: 'Claude Code' },
  WebFetch: { tool: 'web_fetch', peer: 'Claude Code' },
  WebSearch: { tool: 'web_search', peer: 'Claude Code' },
  TodoWrite: { tool: 'todo_write', peer: 'Claude Code' },
  Task: { tool: 'task', peer: 'Claude Code' },
  run_shell_command: { tool: 'shell', peer: 'Gemini CLI' },
  replace: { tool: 'edit', peer: 'Gemini CLI' },
  list_directory: { tool: 'ls', peer: 'Gemini CLI' },
  search_file_content: { tool: 'grep', peer: 'Gemini CLI' },
  google_web_search: { tool: 'web_search', peer: 'Gemini CLI' },
  write_todos: { tool: 'todo_write', peer: 'Gemini CLI' },
  apply_patch: { tool: 'edit', peer: 'Codex' },
};

const own = (name: string) => (Object.hasOwn(PEER_TOOL_NAMES, name) ? PEER_TOOL_NAMES[name]! : null);

/** For `Read`: "that is Claude Code's name: here it is 'read_file'"; null for a name no peer uses. */
export function peerToolNameHint(name: string): string | null {
  const known = own(name);
  return known ? `that is ${known.peer}'s name: here it is '${known.tool}'` : null;
}

/**
 * For a rule in a peer's `Tool(pattern)` form, what to write here (`Bash(npm test:*)` is
 * `shell:npm test *`: Claude Code's `:*` ends a prefix); null for any other text.
 */
export function peerRuleHint(text: string): string | null {
  const m = /^([A-Za-z_]+)\(([\s\S]*)\)$/.exec(text.trim());
  if (!m) return null;
  const [, name, inner] = m as unknown as [string, string, string];
  const known = own(name);
  const pattern = inner.trim().replace(/:\*$/, ' *');
  const tool = known?.tool ?? name;
  const peer = known ? `${known.peer}'s` : "another agent's";
  return `that is ${peer} rule syntax; here write '${pattern ? `${tool}:${pattern}` : tool}'`;
}
