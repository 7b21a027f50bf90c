// Programs the runner itself runs outside the sandbox (git, ripgrep, bwrap) are looked up on PATH,
// but never in a directory the workspace holds. `npx` puts <project>/node_modules/.bin first on
// PATH, and a repository (or a command the policy allowed) can put a `git` there: the runner would
// then run it on the host, outside the sandbox, at its next snapshot. Relative PATH entries (which
// depend on the working directory) are skipped too.
import fs from 'node:fs';
import path from 'node:path';
import { canonicalPath, isInside } from './paths.js';

/** PATH without entries that are relative or lie inside `workspace` (a canonical path). */
export function hostPathVariable(pathVariable: string | undefined, workspace: string): string {
  const root = canonicalPath(workspace);
  return (pathVariable ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir) && !isInside(root, canonicalPath(dir)))
    .join(path.delimiter);
}

const found = new Map<string, string | null>();

/** The absolute path of the executable file `name` on `hostPathVariable(pathVariable, workspace)`, or null. */
export function hostProgram(name: string, pathVariable: string | undefined, workspace: string): string | null {
  const dirs = hostPathVariable(pathVariable, workspace);
  const key = `${name}\0${dirs}`;
  if (found.has(key)) return found.get(key)!;
  let result: string | null = null;
  for (const dir of dirs.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) {
        result = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  found.set(key, result);
  return result;
}
