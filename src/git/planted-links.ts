// Symbolic links a command leaves in the git directory, where the runner's own git (on the host,
// outside any sandbox) then writes. The sandbox leaves `.git/objects`, `.git/refs` and `.git/logs`
// writable so that `git add` and `git commit` work, and git follows a link there: a command that
// made `.git/logs/refs/heads/<hand-off branch>` a link to `~/.bashrc` had the hand-off's
// `update-ref` append its reflog line to that file, and `.git/objects/ab` a link to a directory
// elsewhere had the snapshot write objects there. Git itself makes no links in a git directory,
// but some tools do (Android's `repo` links objects and refs), so only a link that was not there
// when the run started (or now leads elsewhere) counts: it is removed before the runner's git
// runs, and the run is told.
import fs from 'node:fs';
import path from 'node:path';
import { direntsOf } from '../util/paths.js';

/** Where git writes in a git directory: its own entries, objects' fan-out directories, and every directory of refs and logs. */
const WALKED = new Set(['refs', 'logs']);
/** Enough for any repository's refs and logs; a larger tree is looked at this far. */
const MAX_ENTRIES = 50_000;

/**
 * Where the runner's git command writes: `objects` (change tracking: add, write-tree, nothing but
 * objects, in a temporary index) spares it the walk of refs and logs, thousands of loose tags in
 * some repositories; `all` (the hand-off's update-ref and push write refs and their reflogs).
 */
export type GitWrites = 'objects' | 'all';

/** The links in the git directories `dirs`, by absolute path, each with what it points to. */
export function linksIn(dirs: readonly string[], writes: GitWrites = 'all'): Map<string, string> {
  const links = new Map<string, string>();
  let budget = MAX_ENTRIES;
  const visit = (dir: string, depth: number, walkAll: boolean) => {
    for (const entry of direntsOf(dir)) {
      if (--budget < 0) return;
      const p = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        links.set(p, readLink(p));
      } else if (entry.isDirectory() && depth < 20) {
        // objects/: its fan-out directories and pack/ are looked at, not the objects in them.
        if (walkAll || (writes === 'all' && WALKED.has(entry.name))) visit(p, depth + 1, true);
        else if (depth === 0 && entry.name === 'objects') visit(p, depth + 1, false);
      }
    }
  };
  for (const dir of new Set(dirs)) visit(dir, 0, false);
  return links;
}

/**
 * Removes the links in `dirs` that were not in `start` (or lead elsewhere than they did), and
 * says so, one note each. A link that cannot be removed is said too: the runner's git may follow it.
 */
export function removePlantedLinks(dirs: readonly string[], start: ReadonlyMap<string, string>, writes: GitWrites = 'all'): string[] {
  const notes: string[] = [];
  for (const [link, target] of linksIn(dirs, writes)) {
    if (start.get(link) === target) continue;
    try {
      fs.unlinkSync(link);
      notes.push(`a tool left a symbolic link at ${link} (to ${target}), where the runner's own git writes and would have followed it out of the repository: it was removed`);
    } catch (error) {
      notes.push(`a tool left a symbolic link at ${link} (to ${target}), where git writes, and it could not be removed (${(error as Error).message}): remove it before running git there`);
    }
  }
  return notes;
}

function readLink(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '';
  }
}
