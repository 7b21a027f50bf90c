// Where unattended keeps what it may recompute: the price table's answers (providers/price-cache.ts)
// and (in the state directory) which run a bare --continue goes on from,
// and the launcher's V8 code cache (scripts/bin/code-cache.cjs, which computes the same directory
// without importing this: keep the two rules alike), in the user's cache directory and, where the
// installation is the user's, beside the code.
import fs from 'node:fs';
import path from 'node:path';

/**
 * `$XDG_CACHE_HOME/unattended` (else `~/.cache/unattended`), or null when the environment names
 * neither as an absolute path (a relative one would put the cache wherever the run happens to be).
 */
export function unattendedCacheDir(env: NodeJS.ProcessEnv): string | null {
  return xdgDir(env, 'XDG_CACHE_HOME', '.cache');
}

/** `$XDG_STATE_HOME/unattended` (else `~/.local/state/unattended`): what the user's runs leave for later ones (runner/run-register.ts). */
export function unattendedStateDir(env: NodeJS.ProcessEnv): string | null {
  return xdgDir(env, 'XDG_STATE_HOME', path.join('.local', 'state'));
}

function xdgDir(env: NodeJS.ProcessEnv, variable: string, underHome: string): string | null {
  const named = env[variable];
  // A HOME that does not exist (`/nonexistent`, a service user's) is no home: a run must not create it.
  const base = named && path.isAbsolute(named) ? named : env.HOME && path.isAbsolute(env.HOME) && fs.existsSync(env.HOME) ? path.join(env.HOME, underHome) : null;
  // Node's recursive mkdir never returns under /proc (it spins, deaf to SIGTERM): such a directory
  // is none. `XDG_STATE_HOME=/proc/…` hung the run right after run_start.
  if (base === null || /^\/proc(\/|$)/.test(path.resolve(base))) return null;
  return path.join(base, 'unattended');
}

/**
 * The installation's own cache directory (dist/cli/cache, beside the code), or null: a run from
 * the sources, or an installation this user does not own or others may write. The launcher
 * (scripts/bin/code-cache.cjs) decides, with the checks it applies to its code cache there, and
 * makes the directory the first time it is asked; a cache there survives a fresh HOME.
 */
export function installationCacheDir(): string | null {
  const find = (globalThis as Record<symbol, unknown>)[Symbol.for('unattended.installationCache')];
  return typeof find === 'function' ? ((find as () => string | null)() ?? null) : null;
}
