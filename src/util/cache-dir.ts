// Where unattended keeps what it may recompute: the price table's answers (providers/price-cache.ts)
// and the launcher's V8 code cache (scripts/bin/code-cache.cjs, which computes the same directory
// without importing this: keep the two rules alike).
import path from 'node:path';

/**
 * `$XDG_CACHE_HOME/unattended` (else `~/.cache/unattended`), or null when the environment names
 * neither as an absolute path (a relative one would put the cache wherever the run happens to be).
 */
export function unattendedCacheDir(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.cache') : null;
  return base ? path.join(base, 'unattended') : null;
}
