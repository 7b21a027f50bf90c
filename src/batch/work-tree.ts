// A directory target that is a git directory itself (a bare repository, as a server or a mirror
// keeps them, or a repository's `.git`) has no work tree: the model finds none of the project's
// files there, and what it writes lands among git's own (a `hooks/post-update` runs at the next
// push). Such a target is refused before its run, with what to name instead.
import fs from 'node:fs';
import path from 'node:path';
import { isDirectory } from '../util/paths.js';
import { readRegularText } from '../util/read-regular-file.js';

/** Why `dir` cannot be a target's workspace (it is a git directory), or null. Git's own test: a HEAD that names a ref or a commit, objects/ and refs/. */
export function gitDirectoryTarget(dir: string): string | null {
  if (!isDirectory(path.join(dir, 'objects')) || !isDirectory(path.join(dir, 'refs'))) return null;
  // A project's own file named HEAD is no git HEAD (never a plain read: it might be a FIFO).
  if (!/^(ref: refs\/|[0-9a-f]{40})/.test(readRegularText(path.join(dir, 'HEAD'), 1024) ?? '')) return null;
  // A work tree whose files happen to be named so still has its .git.
  if (fs.existsSync(path.join(dir, '.git'))) return null;
  return path.basename(dir) === '.git'
    ? `${dir} is a repository's .git directory, not its work tree: name the directory that holds it`
    : `${dir} is a bare git repository, with no work tree for the run to change: name a clone of it, or its file:// URL (the batch clones it)`;
}
