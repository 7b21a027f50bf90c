// The built-in tool names the model sees (a DESIGN.md contract). Recipes are validated against it.

/** The file and shell suite of the core runner: offered when a recipe lists no tools. */
const CORE_TOOLS = ['ls', 'read_file', 'write_file', 'edit', 'grep', 'glob', 'read_many_files', 'shell'] as const;

export const BUILTIN_TOOL_NAMES = [
  ...CORE_TOOLS,
  'web_fetch',
  'web_search',
  'save_memory',
  'todo_write',
  'task',
  'exit_plan_mode',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export const DEFAULT_TOOL_NAMES: readonly BuiltinToolName[] = CORE_TOOLS;

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * The built-in tools that never ask for confirmation (they change nothing in the workspace): the
 * policy answers only for calls that ask, so an allow rule can neither approve nor limit these.
 * Deny rules still refuse them. test/tools/no-confirmation.test.ts holds it to each tool's
 * shouldConfirmExecute.
 */
export const NO_CONFIRMATION_TOOLS: ReadonlySet<BuiltinToolName> = new Set<BuiltinToolName>([
  'ls', 'read_file', 'grep', 'glob', 'read_many_files', 'web_search', 'save_memory', 'todo_write', 'exit_plan_mode',
]);
