// Where unattended keeps what it may recompute: the price table's answers (providers/price-cache.ts)
// and the launcher's V8 code cache (scripts/bin/code-cache.cjs, which computes the same directory
// without importing this: keep the two rules alike), in the user's cache directory and, where the
// installation is the user's, beside the code.
import path from 'node:path';

/**
 * `$XDG_CACHE_HOME/unattended` (else `~/.cache/unattended`), or null when the environment names
 * neither as an absolute path (a relative one would put the cache wherever the run happens to be).
 */
export function unattendedCacheDir(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.cache') : null;
  return base ? path.join(base, 'unattended') : null;
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
