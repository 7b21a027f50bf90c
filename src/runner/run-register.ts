// Which run `--continue` (without a directory) goes on from: the latest run this user started from
// the directory, as recorded in the user's state directory when the run began. Not the newest
// directory under .unattended/runs: that is the repository's to fill (a repository can ship one,
// or a command write one there), and an earlier run's transcript names the recipe, flags, policy
// and sandbox to use again. A run named on the command line (`--continue RUN_DIR`) is the user's
// own choice and needs no record.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';

/** `$XDG_STATE_HOME/unattended/latest-run` (else `~/.local/state/...`), or null without an absolute base. */
function registerDir(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.local', 'state') : null;
  return base ? path.join(base, 'unattended', 'latest-run') : null;
}

function entryFor(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const dir = registerDir(env);
  if (dir === null) return null;
  let where = path.resolve(cwd);
  try {
    where = fs.realpathSync.native(where);
  } catch {
    // a directory that is gone: its own name
  }
  return path.join(dir, `${createHash('sha256').update(where).digest('hex').slice(0, 32)}.json`);
}

/** Records `runDir` as the latest run started from `cwd`; best effort (a run never fails for it). */
export function registerRun(cwd: string, runDir: string, env: NodeJS.ProcessEnv): void {
  const entry = entryFor(cwd, env);
  if (entry === null) return;
  try {
    fs.mkdirSync(path.dirname(entry), { recursive: true, mode: 0o700 });
    writeFileAtomic(entry, `${JSON.stringify({ cwd: path.resolve(cwd), run: runDir })}\n`, { mode: 0o600 });
  } catch {
    // a read-only home: --continue then needs the run named
  }
}

/** The run directory last registered for `cwd` whose transcript is still there, or null. */
export function registeredRun(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const entry = entryFor(cwd, env);
  if (entry === null) return null;
  try {
    const { run } = JSON.parse(fs.readFileSync(entry, 'utf8')) as { run?: unknown };
    return typeof run === 'string' && fs.statSync(path.join(run, 'transcript.jsonl'), { throwIfNoEntry: false })?.isFile() ? run : null;
  } catch {
    return null;
  }
}
