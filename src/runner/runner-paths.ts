// The paths the runner keeps from every tool, whatever the mode: the records of the runs (the
// whole `.unattended` directory the output lies in, as the sandbox holds it read-only: another
// run's report, or the directory a bare --continue reads, must not be rewritten by this one), the
// recipe, the memory file, and unattended's own cache and state. A run and `policy check` both
// take their judge's list from here, so they cannot decide differently. Paths outside the
// workspace are kept here too; the policy drops them, as confinement keeps tools from them anyway.
import path from 'node:path';
import type { Recipe } from '../recipe/types.js';
import { unattendedCacheDir, unattendedStateDir } from '../util/cache-dir.js';

/** Where a run writes its outputs when --out does not say: `<this>/<run-id>` under the current directory. */
export const DEFAULT_RUNS_DIR = path.join('.unattended', 'runs');

/**
 * Protected paths for a judge. `outDir` is the run's output directory; `policy check`, which has
 * none, passes the default runs directory, where a run without --out writes.
 */
export function runnerProtectedPaths(recipe: Recipe, outDir: string, env: NodeJS.ProcessEnv): string[] {
  return [
    recordsHome(path.resolve(outDir)),
    // Every run's records, also when this one writes elsewhere (--out): what policy check protects.
    path.resolve(path.dirname(DEFAULT_RUNS_DIR)),
    ...(recipe.file ? [recipe.file] : []),
    // Notes are written one capped line at a time by save_memory, never by file tools.
    ...(recipe.memory.file ? [recipe.memory.file] : []),
    ...runnerOwnDirs(env),
  ];
}

/**
 * unattended's cache and state, which no tool may change should the workspace hold them (a run
 * over a home directory): the launcher runs its code cache as code, and the state names the run a
 * bare `--continue` takes its recipe, policy and sandbox from.
 */
export function runnerOwnDirs(env: NodeJS.ProcessEnv): string[] {
  return [unattendedCacheDir(env), unattendedStateDir(env)].filter((dir): dir is string => dir !== null);
}

/** The `.unattended` directory `outDir` lies in (the default `.unattended/runs/<id>`), else `outDir` itself. */
function recordsHome(outDir: string): string {
  for (let dir = outDir; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === '.unattended') return dir;
  }
  return outDir;
}
