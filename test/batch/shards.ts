// A fleet batched in shards, each shard's directory as `batch --shard i/count` left it: what the
// `batch merge` tests merge.
import path from 'node:path';
import { expect } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { inProcessLauncher } from './in-process-launcher.js';
import { makePlainFleet, RECIPE } from './fleet.js';

/** The CLI in this process, each run launched in it too. */
export const inProcess = (args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) => cliInProcess(args, { launchRun: inProcessLauncher, ...opts });

/** A fleet of `names` batched in `count` shards: shard-1 … shard-N under the fleet's root. */
export async function shards(names: string[], count: number) {
  const fleet = await makePlainFleet(names);
  const dirs = Array.from({ length: count }, (_, i) => path.join(fleet.root, `shard-${i + 1}`));
  for (const [i, dir] of dirs.entries()) {
    const r = await inProcess(['batch', RECIPE, '--targets', fleet.targetsFile, '--out', dir, '--shard', `${i + 1}/${count}`]);
    expect(r.code, r.stderr).toBe(0);
  }
  return { fleet, dirs };
}
