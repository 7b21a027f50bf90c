// The walk the policy takes through a tree a command will read, to look at each entry before the
// command runs (links it would follow, names it would split). It is bounded: a tree bigger than the
// budget is reported as such, and the caller refuses the command rather than half check it.
import fs from 'node:fs';
import path from 'node:path';

/** What a walk ended with: an entry the visit refused, the budget spent below a root, or nothing (null). */
export type WalkEnd = { refused: string } | { overBudget: string } | null;

export interface WalkOptions {
  /** Entries looked at, at most, over all the roots. */
  budget: number;
  /** 1: a root's own entries only (`ls` without -R); default: all the way down. */
  depth?: number;
}

/**
 * Visits every entry below `roots`, depth first, each directory once; a link is an entry, never
 * walked through. `visit` returns why an entry refuses the command, or null to go on.
 */
export function walkTrees(roots: readonly string[], opts: WalkOptions, visit: (entry: fs.Dirent, full: string, root: string) => string | null): WalkEnd {
  const depth = opts.depth ?? Infinity;
  let budget = opts.budget;
  const seen = new Set<string>();
  for (const root of roots) {
    const stack: Array<[string, number]> = [[root, 0]];
    while (stack.length > 0) {
      const [current, level] = stack.pop()!;
      if (seen.has(current)) continue;
      seen.add(current);
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(current, { withFileTypes: true });
      } catch {
        continue; // a file, or gone: nothing below it
      }
      for (const entry of entries) {
        if (--budget < 0) return { overBudget: root };
        const full = path.join(current, entry.name);
        const refused = visit(entry, full, root);
        if (refused !== null) return { refused };
        if (entry.isDirectory() && level + 1 < depth) stack.push([full, level + 1]);
      }
    }
  }
  return null;
}
