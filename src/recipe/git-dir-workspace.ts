// A workspace inside a repository's git directory (`--workspace repo/.git`, a run started after
// `cd .git`, a bare repository) is no work tree: git refuses its status there ("must be run in a
// work tree"), so what commands change goes untracked, every file tool's write is refused as a
// write into `.git`, and the sandbox, which holds `config`, `hooks` and `info` read-only where it
// finds a `.git` in the workspace, finds none: a command could write the repository's config (an
// fsmonitor, an alias) or a hook that runs the next time anyone uses git there. Refused before the
// run, with the work tree to name instead.
import path from 'node:path';
import { InputError } from '../types/errors.js';
import { isGitDirectory } from '../util/git-directory.js';
import { canonicalPath } from '../util/paths.js';

export interface GitDirPlace {
  /** The git directory the workspace is in (or is). */
  gitDir: string;
  /** Its work tree, for the hint; null for a bare repository. */
  workTree: string | null;
}

/** The git directory `dir` lies in or is, or null for any other directory. Runs once, at start: a realpath and a stat or three. */
export function gitDirHolding(dir: string): GitDirPlace | null {
  const real = canonicalPath(dir);
  const parts = real.split(path.sep);
  // The outermost `.git`: `.git/modules/sub` is the top repository's, named by its own work tree.
  const at = parts.indexOf('.git');
  if (at > 0) {
    const gitDir = parts.slice(0, at + 1).join(path.sep);
    return { gitDir, workTree: parts.slice(0, at).join(path.sep) || path.sep };
  }
  // A bare repository, or one made with --separate-git-dir (git's own test: util/git-directory.ts).
  if (isGitDirectory(real)) return { gitDir: real, workTree: null };
  return null;
}

/** What to say of a workspace that lies in a git directory; `what` names it ("--workspace 'x'"). */
export function gitDirWorkspaceProblem(what: string, place: GitDirPlace, fix: (workTree: string) => string): string {
  const where = place.workTree === null ? `is the git directory of a repository (${place.gitDir}: HEAD, objects and refs)` : `lies inside the git directory ${place.gitDir}`;
  const hint = place.workTree === null ? 'name a work tree of it (git worktree add DIR, or a clone)' : fix(place.workTree);
  return `${what} ${where}, not in a work tree: git keeps the repository's history, config and hooks there, which tools must not write, and tracks no changes in it; ${hint}`;
}

/**
 * The current directory, a run's workspace without --workspace, refused as a git directory: the
 * run's default output directory was opened under it before the recipe was read, and the runner
 * takes that away again (execute-run.ts), rather than leave its record among git's files.
 */
export class CwdInGitDirError extends InputError {}
