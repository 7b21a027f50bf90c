// Names a lister prints are read back by xargs, which splits them at blanks and takes quotes and
// backslashes out (parallel, cpio and `-I` read a line each). A repository may hold a directory
// named `a ` with `etc/passwd` below it: `find .` prints `./a /etc/passwd`, and `xargs cat` is
// handed `/etc/passwd`. So before such names are trusted, the trees the lister prints are looked
// at for a name that would not read back as itself; a tree too big to look at within the budget
// is refused (fail closed). Names printed and read NUL-separated (`find -print0 | xargs -0`) read
// back as they are, and nothing is looked at.
import { walkTrees } from './tree-walk.js';

/** How the reader splits what it reads: at blanks with quotes and backslashes (xargs), at newlines (a line each), at NULs. */
export type Split = 'blanks' | 'lines' | 'nul';

/**
 * Entries looked at, at most, per command: enough for a JavaScript project with its node_modules
 * (this repository's tree, 35,000 entries, takes about 0.12 s on a 2-core machine), where
 * `find . -name '*.ts' | xargs wc -l` is an ordinary line; more than links a walk follows get
 * (shell-follow-links.ts), as those commands have an option that does not follow.
 */
const WALK_BUDGET = 100_000;

const ODD: Record<Split, RegExp | null> = {
  blanks: /[\s'"\\]/,
  lines: /[\n\r]/,
  nul: null,
};

/**
 * Why a name below `roots` would not read back as itself when split by `split`, or null. `depth`
 * 1 looks at the roots' own entries only (`ls` without -R).
 */
export function oddNameProblem(roots: readonly string[], split: Split, depth: number, shown: (p: string) => string, budget = WALK_BUDGET): string | null {
  const odd = ODD[split];
  if (odd === null) return null;
  const end = walkTrees(roots, { budget, depth }, (entry, full) =>
    odd.test(entry.name) ? `'${shown(full)}' holds ${split === 'lines' ? 'a line break' : 'a blank, a quote or a backslash'}, where the names are split` : null,
  );
  if (end === null) return null;
  return 'refused' in end ? end.refused : `the tree below '${shown(end.overBudget)}' is too big to check that every name it holds reads back as itself`;
}
