// The core built-in tools, created for one run in the order the recipe lists them.
import type { AnyTool } from '../tools.js';
import type { ToolContext } from '../context.js';
import { EditTool } from './edit.js';
import { GlobTool } from './glob.js';
import { GrepTool } from './grep.js';
import { LsTool } from './ls.js';
import { ReadFileTool } from './read-file.js';
import { ReadManyFilesTool } from './read-many-files.js';
import { ShellTool } from './shell.js';
import { WriteFileTool } from './write-file.js';

const FACTORIES: Readonly<Record<string, (ctx: ToolContext) => AnyTool>> = {
  ls: (ctx) => new LsTool(ctx),
  read_file: (ctx) => new ReadFileTool(ctx),
  write_file: (ctx) => new WriteFileTool(ctx),
  edit: (ctx) => new EditTool(ctx),
  grep: (ctx) => new GrepTool(ctx),
  glob: (ctx) => new GlobTool(ctx),
  read_many_files: (ctx) => new ReadManyFilesTool(ctx),
  shell: (ctx) => new ShellTool(ctx),
};

export const CORE_TOOL_NAMES: readonly string[] = Object.keys(FACTORIES);

export function createBuiltinTools(ctx: ToolContext, names: readonly string[]): AnyTool[] {
  return names.map((name) => {
    const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
    if (!factory) throw new Error(`unknown built-in tool '${name}'; valid: ${CORE_TOOL_NAMES.join(', ')}`);
    return factory(ctx);
  });
}
