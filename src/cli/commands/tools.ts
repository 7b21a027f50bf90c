// `unattended tools`: what the model would be offered, with schemas and whether calls need the policy.
// Discovered and MCP tools too: the discovery command runs and the servers start, are listed and
// are closed again, exactly as a run would do it.
import path from 'node:path';
import { ExitCode } from '../../types/outcome.js';
import { buildRegistry, describeOnlyExtras } from '../../runner/session.js';
import { toolEnvironment } from '../../tools/tool-env.js';
import { Workspace } from '../../util/workspace.js';
import { recipeFromArgs } from '../params.js';
import type { Recipe } from '../../recipe/types.js';
import type { RecipeOverrides } from '../../recipe/index.js';
import { terminalSafe } from '../../util/terminal.js';

async function openSandbox(recipe: Recipe, workspace: string) {
  const { Sandbox } = await import('../../sandbox/sandbox.js');
  return Sandbox.open(recipe.sandbox, { workspace, outDir: null, env: process.env, readable: recipe.file ? [path.dirname(recipe.file)] : [] });
}

/** `overrides`: run's --tools and --mcp-config, so the list is what a run with them would offer. */
export async function toolsCommand(recipeFile: string | null, json: boolean, paramPairs: readonly string[] = [], overrides: Pick<RecipeOverrides, 'tools' | 'mcpConfig'> = {}): Promise<number> {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as RecipeOverrides;
  const recipe = recipeFromArgs(recipeFile, paramPairs, given);
  const extras = describeOnlyExtras(recipe);
  const closers: Array<() => Promise<void>> = [];
  // An MCP server's or a discovery command's words (its stderr in a warning, tool names and
  // descriptions) reach the terminal inert; --json needs nothing: JSON escapes every control character.
  const warn = (message: string) => process.stderr.write(`unattended: ${terminalSafe(message)}\n`);
  try {
    const workspace = Workspace.open(recipe.workspace);
    // The discovery command and sandboxed servers run contained here too, as in a run.
    const needsSandbox = recipe.toolDiscovery !== null || recipe.mcpServers.some((s) => s.sandbox);
    const sandbox = needsSandbox ? await openSandbox(recipe, workspace.root) : null;
    if (sandbox) closers.push(() => sandbox.close());
    const registry = await buildRegistry(
      recipe,
      workspace,
      toolEnvironment(process.env, recipe.env.pass),
      sandbox ? { ...extras, sandbox } : extras,
      { signal: new AbortController().signal, onWarning: warn },
      closers,
    );
    const declarations = registry.declarations();
    if (json) {
      process.stdout.write(`${JSON.stringify(declarations, null, 2)}\n`);
      return ExitCode.success;
    }
    for (const tool of registry.all()) {
      const params = Object.keys((tool.parameterSchema.properties as Record<string, unknown> | undefined) ?? {});
      const required = new Set((tool.parameterSchema.required as string[] | undefined) ?? []);
      const signature = params.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
      process.stdout.write(`${terminalSafe(`${tool.name}{${signature}}  [${tool.kind}]`)}\n  ${terminalSafe(tool.description.split('\n')[0] ?? '')}\n`);
    }
    process.stdout.write(`\n${declarations.length} tools, ${Buffer.byteLength(JSON.stringify(declarations))} bytes of declarations per request\n`);
    return ExitCode.success;
  } finally {
    await Promise.allSettled(closers.map((close) => close()));
  }
}
