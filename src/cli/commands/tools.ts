// `unattended tools`: what the model would be offered, with schemas and whether calls need the policy.
import { ExitCode } from '../../loop/outcome.js';
import { adHocRecipe, loadRecipe } from '../../recipe/index.js';
import { builtinRegistry } from '../../runner/session.js';
import { toolEnvironment } from '../../tools/tool-env.js';
import { Workspace } from '../../util/workspace.js';

export async function toolsCommand(recipeFile: string | null, json: boolean): Promise<number> {
  const recipe = recipeFile ? loadRecipe(recipeFile, { params: {}, overrides: {} }) : adHocRecipe({}, process.cwd());
  const registry = builtinRegistry(recipe, Workspace.open(recipe.workspace), toolEnvironment(process.env, recipe.env.pass));
  const declarations = registry.declarations();
  if (json) {
    process.stdout.write(`${JSON.stringify(declarations, null, 2)}\n`);
    return ExitCode.success;
  }
  for (const tool of registry.all()) {
    const params = Object.keys((tool.parameterSchema.properties as Record<string, unknown> | undefined) ?? {});
    const required = new Set((tool.parameterSchema.required as string[] | undefined) ?? []);
    const signature = params.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
    process.stdout.write(`${tool.name}{${signature}}  [${tool.kind}]\n  ${tool.description.split('\n')[0]}\n`);
  }
  process.stdout.write(`\n${declarations.length} tools, ${Buffer.byteLength(JSON.stringify(declarations))} bytes of declarations per request\n`);
  return ExitCode.success;
}
