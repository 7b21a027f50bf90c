// The built-in tools, created for one run in the order the recipe lists them.
import type { AnyTool } from '../tools.js';
import type { ToolContext } from '../context.js';
import { createRunState } from '../run-state.js';
import { EditTool } from './edit.js';
import { createPlanState, ExitPlanModeTool } from './exit-plan-mode.js';
import { GlobTool } from './glob.js';
import { GrepTool } from './grep.js';
import { LsTool } from './ls.js';
import { ReadFileTool } from './read-file.js';
import { ReadManyFilesTool } from './read-many-files.js';
import { SaveMemoryTool } from './save-memory.js';
import { ShellTool } from './shell.js';
import { TaskTool } from './task.js';
import { TodoWriteTool } from './todo-write.js';
import { WebFetchTool } from './web-fetch.js';
import { WebSearchTool } from './web-search.js';
import { WriteFileTool } from './write-file.js';

const CORE_FACTORIES: Readonly<Record<string, (ctx: ToolContext) => AnyTool>> = {
  ls: (ctx) => new LsTool(ctx),
  read_file: (ctx) => new ReadFileTool(ctx),
  write_file: (ctx) => new WriteFileTool(ctx),
  edit: (ctx) => new EditTool(ctx),
  grep: (ctx) => new GrepTool(ctx),
  glob: (ctx) => new GlobTool(ctx),
  read_many_files: (ctx) => new ReadManyFilesTool(ctx),
  shell: (ctx) => new ShellTool(ctx),
};

const FACTORIES: Readonly<Record<string, (ctx: ToolContext) => AnyTool>> = {
  ...CORE_FACTORIES,
  web_fetch: (ctx) =>
    new WebFetchTool({
      allowPrivateHosts: ctx.fetch?.allowPrivateHosts ?? [],
      ...(ctx.fetch?.checkRedirect ? { checkRedirect: ctx.fetch.checkRedirect } : {}),
    }),
  web_search: (ctx) => new WebSearchTool({ search: ctx.search ?? null }),
  save_memory: (ctx) => new SaveMemoryTool({ memoryFile: required(ctx.memoryFile, 'save_memory', 'a memory file'), ...(ctx.redact ? { redact: ctx.redact } : {}) }),
  todo_write: (ctx) => new TodoWriteTool({ state: ctx.runState ?? createRunState() }),
  task: (ctx) => new TaskTool(required(ctx.runSubAgent, 'task', 'a sub-agent runner')),
  exit_plan_mode: (ctx) => new ExitPlanModeTool(ctx.plan ?? createPlanState(false)),
};

/** The file and shell suite of the core runner. */
export const CORE_TOOL_NAMES: readonly string[] = Object.keys(CORE_FACTORIES);
export const ALL_BUILTIN_FACTORY_NAMES: readonly string[] = Object.keys(FACTORIES);

/**
 * Built-ins that cannot work in this run and are left out rather than offered to fail: web_search
 * without a search backend (only the gemini provider has one). A tool the model is not offered
 * costs no declaration bytes and no wasted turn; the runner reports each as a warning.
 */
export function unavailableBuiltins(ctx: ToolContext, names: readonly string[]): Array<{ name: string; reason: string }> {
  return names.includes('web_search') && !ctx.search
    ? [{ name: 'web_search', reason: 'web_search is not offered: it searches through Google Search grounding, which only the gemini provider has' }]
    : [];
}

/** The tools for `names`, in that order, without those unavailableBuiltins() leaves out. */
export function createBuiltinTools(ctx: ToolContext, names: readonly string[]): AnyTool[] {
  const left = new Set(unavailableBuiltins(ctx, names).map((u) => u.name));
  const offered = names.filter((name) => !left.has(name));
  const withOffered = { ...ctx, offered };
  return offered.map((name) => {
    const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
    if (!factory) throw new Error(`unknown built-in tool '${name}'; valid: ${ALL_BUILTIN_FACTORY_NAMES.join(', ')}`);
    return factory(withOffered);
  });
}

function required<T>(value: T | undefined, tool: string, what: string): T {
  if (value === undefined) throw new Error(`${tool} needs ${what}, which this run did not provide`);
  return value;
}
