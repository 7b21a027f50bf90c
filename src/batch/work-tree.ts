// A directory target that is a git directory itself (a bare repository, as a server or a mirror
// keeps them, or a repository's `.git`) has no work tree: the model finds none of the project's
// files there, and what it writes lands among git's own (a `hooks/post-update` runs at the next
// push). Such a target is refused before its run, with what to name instead.
import path from 'node:path';
import { isGitDirectory } from '../util/git-directory.js';

/** Why `dir` cannot be a target's workspace (it is a git directory, by git's own test), or null. */
export function gitDirectoryTarget(dir: string): string | null {
  if (!isGitDirectory(dir)) return null;
  return path.basename(dir) === '.git'
    ? `${dir} is a repository's .git directory, not its work tree: name the directory that holds it`
    : `${dir} is a bare git repository, with no work tree for the run to change: name a clone of it, or its file:// URL (the batch clones it)`;
}
