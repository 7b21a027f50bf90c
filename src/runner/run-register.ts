// Which run `--continue` (without a directory) goes on from: the latest run this user started from
// the directory, as recorded in the user's state directory when the run began. Not the newest
// directory under .unattended/runs: that is the repository's to fill (a repository can ship one,
// or a command write one there), and an earlier run's transcript names the recipe, flags, policy
// and sandbox to use again. A run named on the command line (`--continue RUN_DIR`) is the user's
// own choice and needs no record.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { unattendedStateDir } from '../util/cache-dir.js';
import { canonicalPath } from '../util/paths.js';
import { fnv1a } from '../util/short-hash.js';

/** The directory's canonical path, and the file that records its latest run. */
function entryFor(cwd: string, env: NodeJS.ProcessEnv): { where: string; file: string } | null {
  const dir = unattendedStateDir(env);
  if (dir === null) return null;
  const where = canonicalPath(cwd);
  // A short name for any path (no crypto at start-up); the file also names its directory, checked on reading.
  return { where, file: path.join(dir, 'latest-run', `${fnv1a(where)}${fnv1a(where, 0x01000193)}.json`) };
}

/** Records `runDir` as the latest run started from `cwd`; best effort (a run never fails for it). */
export function registerRun(cwd: string, runDir: string, env: NodeJS.ProcessEnv): void {
  const entry = entryFor(cwd, env);
  if (entry === null) return;
  try {
    fs.mkdirSync(path.dirname(entry.file), { recursive: true, mode: 0o700 });
    writeFileAtomic(entry.file, `${JSON.stringify({ cwd: entry.where, run: runDir })}\n`, { mode: 0o600 });
  } catch {
    // a read-only home: --continue then needs the run named
  }
}

/** The run directory last registered for `cwd` (`gone`: its transcript is no longer there), or null. */
export function registeredRun(cwd: string, env: NodeJS.ProcessEnv): { run: string; gone: boolean } | null {
  const entry = entryFor(cwd, env);
  if (entry === null) return null;
  try {
    const { cwd: recorded, run } = JSON.parse(fs.readFileSync(entry.file, 'utf8')) as { cwd?: unknown; run?: unknown };
    if (recorded !== entry.where || typeof run !== 'string') return null;
    return { run, gone: !fs.statSync(path.join(run, 'transcript.jsonl'), { throwIfNoEntry: false })?.isFile() };
  } catch {
    return null;
  }
}
