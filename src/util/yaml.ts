// The yaml library, required on first use from its own file (util/assets.ts says why): a run from
// flags (`--prompt`) reads no YAML, and its 157 kB cost every start their parse.
import type * as Yaml from 'yaml';
import { requireAsset } from './assets.js';

export function yaml(): typeof Yaml {
  return requireAsset<typeof Yaml>('yaml.cjs');
}
