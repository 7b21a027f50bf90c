// Path rule patterns for the file tools: a picomatch glob over the workspace-relative canonical
// path (`src/**`, `docs/*.md`). Allow rules match case-sensitively (fewer matches), deny rules
// case-insensitively (more matches). Negation (`!secret/**`) is refused rather than given a
// meaning: a deny rule says "never there" more plainly, and deny rules win.
import { picomatchLib } from '../util/globs.js';

export interface PathPattern {
  glob: string;
  /** Static directory part of the glob ('' when it may match anywhere). */
  base: string;
  matchCase: (relative: string) => boolean;
  matchNoCase: (relative: string) => boolean;
}

type Compiled = { ok: true; matcher: PathPattern } | { ok: false; reason: string };

export function compilePathPattern(pattern: string): Compiled {
  const glob = pattern.trim().replace(/^(\.\/)+/, '');
  if (glob === '') return { ok: false, reason: 'the pattern is empty: write a glob relative to the workspace, e.g. "src/**", or the bare tool name for every path' };
  if (glob.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(glob) || glob.startsWith('~')) {
    return { ok: false, reason: `'${pattern}' must be relative to the workspace, e.g. "src/**"` };
  }
  if (glob.split('/').includes('..')) return { ok: false, reason: `'${pattern}' leaves the workspace ('..'): file tools never reach outside it` };
  if (glob.startsWith('!')) {
    return { ok: false, reason: `'${pattern}' is negated, which rules do not support: allow the paths you mean, and refuse the others with a deny rule (deny rules win)` };
  }
  if (glob.includes('\\')) return { ok: false, reason: `'${pattern}' contains a backslash: use '/' as the separator` };
  try {
    const options = { dot: true, strictSlashes: true };
    const picomatch = picomatchLib();
    const matchCase = picomatch(glob, options);
    const matchNoCase = picomatch(glob, { ...options, nocase: true });
    const scanned = picomatch.scan(glob);
    return { ok: true, matcher: { glob, base: scanned.isGlob ? scanned.base : glob, matchCase, matchNoCase } };
  } catch (error) {
    return { ok: false, reason: `'${pattern}' is not a valid glob (${(error as Error).message})` };
  }
}
