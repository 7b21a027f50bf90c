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
  return outside(pathVariable, [workspace]).join(path.delimiter);
}

/**
 * PATH where a program the runner starts on the host may be found: `hostPathVariable` without the
 * current directory, `roots` (the workspace), the git repository around each, and any
 * node_modules directory. `npx` run in a subdirectory puts the project's node_modules/.bin first
 * on PATH, and the run's workspace need not be the current directory (`--workspace`).
 */
export function plantFreePath(pathVariable: string | undefined, roots: ReadonlyArray<string | null | undefined>): string {
  const places: string[] = [];
  for (const root of [process.cwd(), ...roots]) {
    if (!root) continue;
    places.push(root);
    const repository = nearestRepository(root);
    if (repository) places.push(repository);
  }
  return outside(pathVariable, places)
    .filter((dir) => !dir.split(path.sep).includes('node_modules'))
    .join(path.delimiter);
}

/**
 * A program the runner starts on the host about the work in `places` (git listing a config file or
 * an alias, tar or unzip listing an archive for the policy), found on PATH outside each of them and
 * the git repository around each; `pathVariable` is that PATH, for what it starts in turn (tar runs
 * gzip by name). The config file may lie in `.git` or in another repository's git directory (a
 * linked work tree's), and the policy looks from a subdirectory: neither is the whole workspace.
 */
export function hostProgramOutside(name: string, searchPath: string | undefined, places: ReadonlyArray<string | null | undefined>): { program: string; pathVariable: string } | null {
  const roots: string[] = [];
  for (const place of places) {
    if (!place) continue;
    roots.push(place);
    const repository = nearestRepository(place);
    if (repository) roots.push(repository);
  }
  const pathVariable = outside(searchPath, roots).join(path.delimiter);
  const program = programOnPath(name, pathVariable);
  return program === null ? null : { program, pathVariable };
}

/**
 * The absolute entries of `pathVariable` inside none of `places`, each entry's links resolved once
 * (a start-up resolved every entry again for each place: ~2 ms of it before the first request).
 */
function outside(pathVariable: string | undefined, places: readonly string[]): string[] {
  const roots = places.map(canonicalPath).filter((root) => path.dirname(root) !== root);
  const entries = (pathVariable ?? '').split(path.delimiter).filter((dir) => dir !== '' && path.isAbsolute(dir));
  if (roots.length === 0) return entries;
  return entries.filter((dir) => {
    const real = canonicalPath(dir);
    return !roots.some((root) => isInside(root, real));
  });
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
