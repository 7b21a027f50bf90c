// Which run `--continue` (without a directory) goes on from: the latest run this user started from
// the directory, as recorded in the user's state directory when the run began. Not the newest
// directory under .unattended/runs: that is the repository's to fill (a repository can ship one,
// or a command write one there), and an earlier run's transcript names the recipe, flags, policy
// and sandbox to use again. A run named on the command line (`--continue RUN_DIR`) is the user's
// own choice and needs no record.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';

/** `$XDG_STATE_HOME/unattended/latest-run` (else `~/.local/state/...`), or null without an absolute base. */
function registerDir(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.local', 'state') : null;
  return base ? path.join(base, 'unattended', 'latest-run') : null;
}

/** The directory's canonical path, and the file that records its latest run. */
function entryFor(cwd: string, env: NodeJS.ProcessEnv): { where: string; file: string } | null {
  const dir = registerDir(env);
  if (dir === null) return null;
  let where = path.resolve(cwd);
  try {
    where = fs.realpathSync.native(where);
  } catch {
    // a directory that is gone: its own name
  }
  // A short name for any path (no crypto at start-up); the file also names its directory, checked on reading.
  return { where, file: path.join(dir, `${fnv1a(where, 0x811c9dc5)}${fnv1a(where, 0x01000193)}.json`) };
}

function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
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
