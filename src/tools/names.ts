// The built-in tool names the model sees (a DESIGN.md contract). Recipes are validated against it.
export const BUILTIN_TOOL_NAMES = [
  'ls',
  'read_file',
  'write_file',
  'edit',
  'grep',
  'glob',
  'read_many_files',
  'shell',
  'web_fetch',
  'web_search',
  'save_memory',
  'todo_write',
  'task',
  'exit_plan_mode',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Offered when a recipe lists no tools: the file and shell suite of the core runner. */
export const DEFAULT_TOOL_NAMES: readonly BuiltinToolName[] = [
  'ls',
  'read_file',
  'write_file',
  'edit',
  'grep',
  'glob',
  'read_many_files',
  'shell',
];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}
