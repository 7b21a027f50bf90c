// A guarded path is only as fixed as the directories that lead to it. A mount point cannot be
// renamed or removed, but its parent can: `mv .git/modules x && mkdir .git/modules` left a fresh,
// writable submodule config where git looks, and `mv sub x && mkdir sub` a new `.git` file naming
// a git directory of the command's own, though the old ones stayed read-only where they went.
// Every directory between a writable root and a guarded path is therefore bound onto itself as
// well (pinned, still writable), so the path git or a later run reads stays the one guarded.
import path from 'node:path';

/**
 * The directories strictly between the root that holds each of `guarded` (the innermost of
 * `roots`, which are mounts already) and it, each once, less those in `already`.
 */
export function anchorsFor(roots: readonly string[], guarded: readonly string[], already: readonly string[]): string[] {
  const anchors = new Set<string>();
  for (const p of guarded) {
    const root = roots.filter((r) => isBelow(p, r)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    for (let dir = path.dirname(p); dir !== root && isBelow(dir, root); dir = path.dirname(dir)) anchors.add(dir);
  }
  return [...anchors].filter((dir) => !already.includes(dir));
}

/** Parents before children: bwrap mounts in order, and a bind of a parent would cover a child's. */
export function parentsFirst(dirs: readonly string[]): string[] {
  const depth = (p: string) => p.split('/').filter(Boolean).length;
  return [...new Set(dirs)].sort((a, b) => depth(a) - depth(b));
}

function isBelow(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
