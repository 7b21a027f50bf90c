// Where the git repository around a directory starts, found the cheap way: the nearest directory
// at or above it that holds a `.git` (a directory, or a file pointing elsewhere), without running
// git. Used where a process per question would cost more than the answer is worth (the snapshot's
// "is this a work tree at all", the policy's `git -C` targets, the bare-name lookup's PATH).

import fs from 'node:fs';
import path from 'node:path';

/** The nearest directory from `dir` up that holds a `.git`, not going above `top` when given; null when there is none. */
export function nearestRepository(dir: string, top?: string): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (top !== undefined && !isAtOrBelow(at, top)) return null;
    if (fs.existsSync(path.join(at, '.git'))) return at;
    if (at === top || path.dirname(at) === at) return null;
  }
}

function isAtOrBelow(at: string, top: string): boolean {
  const relative = path.relative(top, at);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
