// Path rule patterns for the file tools: a picomatch glob over the workspace-relative canonical
// path (`src/**`, `docs/*.md`). Allow rules match case-sensitively (fewer matches), deny rules
// case-insensitively (more matches). Negation (`!secret/**`) is refused rather than given a
// meaning: a deny rule says "never there" more plainly, and deny rules win.
// A pattern ending in `/` names a directory, as in .gitignore: the directory and everything under
// it (`secret/` is `secret` and `secret/**`). The paths matched never end in `/`, so read literally
// it would match nothing, and a deny rule that matches nothing is a silent hole. `.` and `./` are
// the workspace's directory, so everything. A `.` or empty segment inside (`src/./a`, `src//a`)
// would match nothing either, and is refused.
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
  const trimmed = pattern.trim();
  // `./src/**` is `src/**`; `.`, `./` (and `././`) are the workspace itself.
  const withoutDot = trimmed.replace(/^(\.\/)+/, '');
  const workspace = trimmed !== '' && (withoutDot === '' || withoutDot === '.');
  const directory = !workspace && withoutDot.endsWith('/');
  const glob = workspace ? '**' : withoutDot.replace(/\/+$/, '');
  if (glob === '') return { ok: false, reason: 'the pattern is empty: write a glob relative to the workspace, e.g. "src/**", or the bare tool name for every path' };
  if (glob.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(glob) || glob.startsWith('~')) {
    return { ok: false, reason: `'${pattern}' must be relative to the workspace, e.g. "src/**"` };
  }
  if (glob.split('/').includes('..')) return { ok: false, reason: `'${pattern}' leaves the workspace ('..'): file tools never reach outside it` };
  if (glob.startsWith('!')) {
    return { ok: false, reason: `'${pattern}' is negated, which rules do not support: allow the paths you mean, and refuse the others with a deny rule (deny rules win)` };
  }
  // `"'secret/**'"` (quoted twice, as a shell rule may be): the quotes would be part of the glob,
  // which then matches no path, and a deny rule would refuse nothing.
  if (/^(['"]).*\1$/s.test(trimmed) && trimmed.length > 1) {
    return { ok: false, reason: `'${pattern}' is wrapped in quotes, which would be part of the glob and match no path: write it without them (${trimmed.slice(1, -1)})` };
  }
  if (glob.includes('\\')) return { ok: false, reason: `'${pattern}' contains a backslash: use '/' as the separator` };
  // `.env,secrets/**`, as --tools takes a list: read as one glob it matches no path, and a deny rule
  // written so would refuse nothing, though its author meant two.
  if (hasListComma(glob)) {
    return {
      ok: false,
      reason: `'${pattern}' has a comma outside braces: it is one glob (of names holding that comma), not a list of them; write a rule for each path, or braces ({a,b}/*.md); a comma that is part of a file name is [,]`,
    };
  }
  if (glob.split('/').some((segment) => segment === '.' || segment === '')) {
    return { ok: false, reason: `'${pattern}' has a '.' or empty segment, which no path matches: write it without ('${glob.split('/').filter((s) => s !== '.' && s !== '').join('/')}')` };
  }
  try {
    const options = { dot: true, strictSlashes: true };
    const picomatch = picomatchLib();
    const globs = directory ? [glob, `${glob}/**`] : [glob];
    const matchCase = anyOf(globs.map((g) => picomatch(g, options)));
    const matchNoCase = anyOf(globs.map((g) => picomatch(g, { ...options, nocase: true })));
    const full = globs.at(-1)!;
    const scanned = picomatch.scan(full);
    return { ok: true, matcher: { glob: full, base: scanned.isGlob ? scanned.base : full, matchCase, matchNoCase } };
  } catch (error) {
    return { ok: false, reason: `'${pattern}' is not a valid glob (${(error as Error).message})` };
  }
}

function anyOf(matchers: Array<(relative: string) => boolean>): (relative: string) => boolean {
  return matchers.length === 1 ? matchers[0]! : (relative) => matchers.some((match) => match(relative));
}

/** A comma outside `{…}` and `[…]`, not escaped: where the glob reads as a list someone meant. */
function hasListComma(glob: string): boolean {
  let braces = 0;
  let inClass = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '{') braces++;
    else if (c === '}') braces = Math.max(0, braces - 1);
    else if (c === ',' && braces === 0) return true;
  }
  return false;
}
