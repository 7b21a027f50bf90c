import { InputError } from '../recipe/index.js';

/** `--param k=v` pairs; the value may itself contain `=`. */
export function parseParams(pairs: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InputError(`--param '${pair}' must be name=value, e.g. --param old=foo`);
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return params;
}
