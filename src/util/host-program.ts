// Programs the runner itself runs outside the sandbox (git, ripgrep, bwrap) are looked up on PATH,
// but never in a directory the workspace holds. `npx` puts <project>/node_modules/.bin first on
// PATH, and a repository (or a command the policy allowed) can put a `git` there: the runner would
// then run it on the host, outside the sandbox, at its next snapshot. Relative PATH entries (which
// depend on the working directory) are skipped too.
import fs from 'node:fs';
import path from 'node:path';
import { canonicalPath, isInside } from './paths.js';
import { nearestRepository } from './nearest-repository.js';

/**
 * PATH without entries that are relative or lie inside `workspace` (a canonical path). The root
 * directory holds every entry: a run started in `/` (a container's default working directory)
 * would find no program at all, bwrap included, so it leaves out nothing but relative entries.
 */
export function hostPathVariable(pathVariable: string | undefined, workspace: string): string {
  const root = canonicalPath(workspace);
  const holdsEverything = path.dirname(root) === root;
  return (pathVariable ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir) && (holdsEverything || !isInside(root, canonicalPath(dir))))
    .join(path.delimiter);
}

/**
 * PATH where a program the runner starts on the host may be found: `hostPathVariable` without the
 * current directory, `roots` (the workspace), the git repository around each, and any
 * node_modules directory. `npx` run in a subdirectory puts the project's node_modules/.bin first
 * on PATH, and the run's workspace need not be the current directory (`--workspace`).
 */
export function plantFreePath(pathVariable: string | undefined, roots: ReadonlyArray<string | null | undefined>): string {
  const cwd = process.cwd();
  let dirs = hostPathVariable(pathVariable, cwd);
  for (const root of [cwd, ...roots]) {
    if (!root) continue;
    for (const dir of [root, nearestRepository(root)]) if (dir) dirs = hostPathVariable(dirs, dir);
  }
  return dirs
    .split(path.delimiter)
    .filter((dir) => !dir.split(path.sep).includes('node_modules'))
    .join(path.delimiter);
}


const found = new Map<string, string | null>();

/** The absolute path of the executable file `name` on `hostPathVariable(pathVariable, workspace)`, or null. */
export function hostProgram(name: string, pathVariable: string | undefined, workspace: string): string | null {
  const dirs = hostPathVariable(pathVariable, workspace);
  const key = `${name}\0${dirs}`;
  if (!found.has(key)) found.set(key, programOnPath(name, dirs));
  return found.get(key)!;
}

/** The first executable file `name` in the absolute directories of `pathVariable`, or null. */
export function programOnPath(name: string, pathVariable: string | undefined): string | null {
  for (const dir of (pathVariable ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d))) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
