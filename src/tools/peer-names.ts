// Other agents' names for the built-in tools (Claude Code's `Bash`, Gemini CLI's
// `run_shell_command`, Codex's `apply_patch`, goose's `text_editor`), and which of ours does the
// same: users write them in flags and recipes (recipe/peer-tool-names.ts answers those), and
// models trained on those agents call them (the loop's "Unknown tool" answers that).

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
  ExitPlanMode: { tool: 'exit_plan_mode', peer: 'Claude Code' },
  run_shell_command: { tool: 'shell', peer: 'Gemini CLI' },
  // Gemini CLI's (and Qwen Code's) settings name core tools by class too (`coreTools: ["ShellTool"]`).
  ShellTool: { tool: 'shell', peer: 'Gemini CLI' },
  ReadFileTool: { tool: 'read_file', peer: 'Gemini CLI' },
  WriteFileTool: { tool: 'write_file', peer: 'Gemini CLI' },
  EditTool: { tool: 'edit', peer: 'Gemini CLI' },
  GrepTool: { tool: 'grep', peer: 'Gemini CLI' },
  GlobTool: { tool: 'glob', peer: 'Gemini CLI' },
  LSTool: { tool: 'ls', peer: 'Gemini CLI' },
  ReadManyFilesTool: { tool: 'read_many_files', peer: 'Gemini CLI' },
  WebFetchTool: { tool: 'web_fetch', peer: 'Gemini CLI' },
  WebSearchTool: { tool: 'web_search', peer: 'Gemini CLI' },
  MemoryTool: { tool: 'save_memory', peer: 'Gemini CLI' },
  replace: { tool: 'edit', peer: 'Gemini CLI' },
  list_directory: { tool: 'ls', peer: 'Gemini CLI' },
  search_file_content: { tool: 'grep', peer: 'Gemini CLI' },
  google_web_search: { tool: 'web_search', peer: 'Gemini CLI' },
  write_todos: { tool: 'todo_write', peer: 'Gemini CLI' },
  apply_patch: { tool: 'edit', peer: 'Codex' },
  update_plan: { tool: 'todo_write', peer: 'Codex' },
  // Codex's shell tool, which its configurations and prompts name in lower case.
  bash: { tool: 'shell', peer: 'Codex' },
  // goose's developer extension, as its recipes and --with-builtin name it (extension__tool).
  developer__shell: { tool: 'shell', peer: 'goose' },
};

/**
 * A peer's one tool that is several here, which of them chosen by the call's command: goose's
 * text_editor views, writes and edits files (`command: view | write | str_replace | insert`).
 */
const TEXT_EDITOR = {
  peer: 'goose',
  tools: [
    { tool: 'read_file', commands: 'view' },
    { tool: 'edit', commands: 'str_replace, insert' },
    { tool: 'write_file', commands: 'write' },
  ],
};
const PEER_MULTI_TOOLS: Readonly<Record<string, { peer: string; tools: ReadonlyArray<{ tool: string; commands: string }> }>> = {
  text_editor: TEXT_EDITOR,
  developer__text_editor: TEXT_EDITOR,
};

export const own = (name: string) => (Object.hasOwn(PEER_TOOL_NAMES, name) ? PEER_TOOL_NAMES[name]! : null);
export const multi = (name: string) => (Object.hasOwn(PEER_MULTI_TOOLS, name) ? PEER_MULTI_TOOLS[name]! : null);

/**
 * For a model's call to a tool no run offers under that name: a model trained on another agent
 * calls its tools (`Bash`, `Read`, `run_shell_command`, `replace`), and "Unknown tool" with the
 * list left it to guess which of ours does the same. Says which does, and whether this run offers
 * it; null for a name no peer uses. Only an unknown tool's call pays for this.
 */
export function peerToolCallHint(name: string, offered: readonly string[]): string | null {
  const known = own(name);
  const mcp = known ? null : claudeMcpName(name);
  const one = known ? { peer: known.peer, tool: known.tool } : mcp && mcp.tool !== '*' ? { peer: 'Claude Code', tool: `${mcp.server}__${mcp.tool}` } : null;
  if (one) {
    return offered.includes(one.tool)
      ? `that is ${one.peer}'s name: here call '${one.tool}'`
      : `that is ${one.peer}'s name for '${one.tool}', which this run does not offer`;
  }
  const several = multi(name);
  if (!several) return null;
  const here = several.tools.filter((t) => offered.includes(t.tool));
  return here.length
    ? `that is ${several.peer}'s name: here its commands are tools of their own, ${here.map((t) => `'${t.tool}' (${t.commands})`).join(', ')}`
    : `that is ${several.peer}'s name for ${several.tools.map((t) => `'${t.tool}'`).join(', ')}, which this run does not offer`;
}

/** Claude Code's `mcp__github__create_issue`, `mcp__github__*` and `mcp__github` (the whole server). */
export function claudeMcpName(name: string): { server: string; tool: string } | null {
  const m = /^mcp__([A-Za-z0-9_.-]+?)(?:__([A-Za-z0-9_.*-]+))?$/.exec(name);
  return m ? { server: m[1]!, tool: m[2] ?? '*' } : null;
}

