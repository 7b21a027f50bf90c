// The recipe the telemetry tests run: a workspace, a scripted model that answers at once, nothing
// allowed. `extra` replaces fields (another provider: { provider, model, script: undefined }).
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { tempDir } from '../helpers/cli.js';

export function oneTurnRecipe(name: string, extra: Record<string, unknown> = {}): { file: string; out: string } {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'ws'));
  fs.writeFileSync(path.join(dir, 'turns.yaml'), YAML.stringify({ turns: [{ text: 'Nothing to do.' }] }));
  const file = path.join(dir, 'recipe.yaml');
  const recipe = { version: 1, name, prompt: 'Look.', workspace: 'ws', provider: 'scripted', script: 'turns.yaml', tools: ['read_file'], confirmation: { mode: 'deny' }, ...extra };
  fs.writeFileSync(file, YAML.stringify(recipe));
  return { file, out: path.join(dir, 'out') };
}
