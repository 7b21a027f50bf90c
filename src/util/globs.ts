// picomatch (path globs) and ignore (.gitignore rules), required on first use (util/assets.ts): the
// walking tools and path rules need them, a run's first model request does not.
import type { Ignore } from 'ignore';
import type Picomatch from 'picomatch';
import { requireAsset } from './assets.js';

/** picomatch itself: `picomatchLib()(glob, options)`, `picomatchLib().scan(path)`. */
export function picomatchLib(): typeof Picomatch {
  return requireAsset<typeof Picomatch>('picomatch.cjs');
}

/**
 * An empty set of .gitignore rules. Case-sensitive, as git reads them (core.ignorecase is false on
 * Linux) and as ripgrep does: the library's default ignores case, so `*.log` hid `BUILD.LOG`.
 */
export function ignoreRules(): Ignore {
  return requireAsset<(options?: unknown) => Ignore>('ignore.cjs')({ ignorecase: false });
}
