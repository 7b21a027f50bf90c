// git's own test of a git directory (a bare repository, a repository's `.git`, one made with
// --separate-git-dir): objects/ and refs/, and a HEAD that names a ref or a commit. A project whose
// own files are named so (a file HEAD of prose, directories objects/ and refs/) is none, nor is a
// work tree that holds such files beside its `.git`. One reader for the run's workspace check
// (recipe/git-dir-workspace.ts) and batch's target check (batch/work-tree.ts), so they agree.
import fs from 'node:fs';
import path from 'node:path';
import { isDirectory } from './paths.js';
import { readRegularText } from './read-regular-file.js';

export function isGitDirectory(dir: string): boolean {
  if (!isDirectory(path.join(dir, 'objects')) || !isDirectory(path.join(dir, 'refs'))) return false;
  // Never a plain read: HEAD might be a FIFO. A SHA-256 repository's ids are longer; they start so too.
  if (!/^(ref: refs\/|[0-9a-f]{40})/.test(readRegularText(path.join(dir, 'HEAD'), 1024) ?? '')) return false;
  return !fs.existsSync(path.join(dir, '.git'));
}
