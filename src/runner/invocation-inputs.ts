// The files a run read, as its invocation names them: what `--record` and `report --out` must never
// write over. Found by a probe: `report RUN --out recipes/fix.yaml` replaced the run's recipe with
// its report, and `--record m.json --mcp-config m.json` the server list, though the README says
// a file named for output is never an input.
import fs from 'node:fs';
import path from 'node:path';
import type { OutputInput } from '../util/user-output.js';
import { yaml } from '../util/yaml.js';
import type { Invocation } from './invocation.js';

/** The recipe, its script and the files the flags named (a value that is JSON itself is no file); the base's too. */
export function invocationInputs(inv: Invocation | null): OutputInput[] {
  if (!inv) return [];
  const at = (file: string) => path.resolve(inv.cwd, file);
  const ov = inv.overrides;
  const inputs: OutputInput[] = [];
  if (inv.recipe) {
    inputs.push({ file: inv.recipe, what: 'the recipe' });
    const script = recipeScript(inv.recipe);
    if (script) inputs.push({ file: script, what: 'the script' });
  }
  if (typeof ov.script === 'string') inputs.push({ file: at(ov.script), what: 'the script' });
  for (const file of ov.mcpConfig ?? []) if (!file.trimStart().startsWith('{')) inputs.push({ file: at(file), what: 'the --mcp-config file' });
  if (typeof ov.outputSchema === 'string' && !ov.outputSchema.trimStart().startsWith('{')) inputs.push({ file: at(ov.outputSchema), what: 'the --output-schema file' });
  if (typeof ov.appendSystemPrompt === 'string' && ov.appendSystemPrompt.startsWith('@')) inputs.push({ file: at(ov.appendSystemPrompt.slice(1)), what: 'the --append-system-prompt file' });
  return [...inputs, ...invocationInputs(inv.base ?? null)];
}

/** The recipe file's own `script:`, from its directory; null when it has none or cannot be read (then there is nothing to protect). */
function recipeScript(recipe: string): string | null {
  try {
    // A pipe (`run <(cat r.yaml)`) is read once, by the run: read here it would wait for a writer forever.
    if (!fs.statSync(recipe).isFile()) return null;
    const doc = yaml().parse(fs.readFileSync(recipe, 'utf8')) as { script?: unknown } | null;
    return typeof doc?.script === 'string' ? path.resolve(path.dirname(recipe), doc.script) : null;
  } catch {
    return null;
  }
}
