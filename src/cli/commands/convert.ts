// `unattended convert GOOSE_RECIPE [--out FILE]`: a goose recipe rewritten in our format, checked
// as a run would check it. The warnings (what was ignored or changed) go to stderr and into the
// file's header, where whoever reviews the file sees them.
import { basename } from 'node:path';
import { yaml } from '../../util/yaml.js';
import { convertRecipeFile } from '../../recipe/index.js';
import { ExitCode } from '../../types/outcome.js';
import { checkOutputFile, writeOutputFile } from '../../util/user-output.js';

/** Our fields in the order a person reads a recipe: what it is, what it asks, with what, under which policy. */
const ORDER = ['version', 'name', 'description', 'parameters', 'prompt', 'instructions', 'provider', 'base_url', 'model', 'tools', 'mcp_servers', 'env', 'confirmation', 'limits', 'output', 'checks'];

export function convertCommand(opts: { recipe: string; out: string | null }): number {
  const inputs = [{ file: opts.recipe, what: 'the goose recipe' }];
  // Before converting: a wrong --out is said at once, not after the warnings.
  if (opts.out !== null) checkOutputFile(opts.out, '--out', inputs);
  const { recipe, warnings } = convertRecipeFile(opts.recipe);
  const ordered = Object.fromEntries([...ORDER.filter((k) => k in recipe), ...Object.keys(recipe).filter((k) => !ORDER.includes(k))].map((k) => [k, recipe[k]]));
  const header = [
    `Converted from the goose recipe ${basename(opts.recipe)} by \`unattended convert\`.`,
    ...(warnings.length ? ['What the conversion ignored or changed:', ...warnings.map((w) => `  - ${w.replace(/^goose recipe: /, '')}`)] : ['Everything in it was carried over.']),
  ];
  const text = `${header.map((line) => `# ${line}`.trimEnd()).join('\n')}\n${yaml().stringify(ordered, { lineWidth: 0 })}`;
  for (const w of warnings) process.stderr.write(`unattended: warning: ${w}\n`);
  if (opts.out === null) {
    process.stdout.write(text);
  } else {
    writeOutputFile(opts.out, text, '--out', inputs);
    process.stderr.write(`unattended: wrote ${opts.out}\n`);
  }
  return ExitCode.success;
}
