// Recursive commands told to follow symbolic links (`grep -R`, `rg -L`, `find -L`, `cp -rL`,
// `chmod -RL`, `tar -h`, `du -L`), or that follow them unless told not to (`zip -r`, `diff -r`),
// read, or change, whatever a link in the tree leads to. A path argument is
// checked where it points, but a link below it is not an argument: the tree it walks is looked at
// instead, and a link in it leading out of the workspace refuses the command. A tree too big to
// look at within the budget is refused too (fail closed), with the option that does not follow.
import path from 'node:path';
import type { Workspace } from '../util/workspace.js';
import { ownEntry } from './shell-options.js';
import { WORD_GRAMMARS } from './opened-table.js';
import { walkTrees } from './tree-walk.js';

/** A long option as GNU getopt takes it: any prefix of two letters or more (`--deref`); an ambiguous one fails, so counts too. */
const long = (word: string, name: string) => word.length >= 4 && name.startsWith(word);

/** What each program takes as "follow links", and whether it walks `.` without a path operand. */
const GREP = { follows: (w: string) => long(w, '--dereference-recursive') || /^-[A-Za-z]*R/.test(w), walksDot: true, instead: '-r' };
const FOLLOWERS: Record<string, { follows: (word: string) => boolean; walksDot: boolean; instead: string }> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: { follows: (w) => w === '--follow' || /^-[A-Za-z]*L/.test(w), walksDot: true, instead: 'no -L' },
  find: { follows: (w) => w === '-L' || w === '-follow', walksDot: true, instead: 'no -L' },
  cp: { follows: (w) => long(w, '--dereference') || /^-[A-Za-z]*[LH]/.test(w), walksDot: false, instead: 'no -L' },
  chmod: { follows: (w) => /^-[A-Za-z]*L/.test(w), walksDot: false, instead: 'no -L' },
  chown: { follows: (w) => long(w, '--dereference') || /^-[A-Za-z]*L/.test(w), walksDot: false, instead: 'no -L' },
  chgrp: { follows: (w) => long(w, '--dereference') || /^-[A-Za-z]*L/.test(w), walksDot: false, instead: 'no -L' },
  tar: { follows: (w) => long(w, '--dereference') || /^-[A-Za-z]*h/.test(w), walksDot: false, instead: 'no -h' },
  du: { follows: (w) => long(w, '--dereference') || /^-[A-Za-z]*L/.test(w), walksDot: true, instead: 'no -L' },
  rsync: {
    follows: (w) => /^-[A-Za-z]*[Lk]/.test(w) || long(w, '--copy-links') || long(w, '--copy-dirlinks') || long(w, '--copy-unsafe-links'),
    walksDot: false,
    instead: 'no -L, -k or --copy-unsafe-links',
  },
  ls: { follows: (w) => long(w, '--dereference') || /^-[A-Za-z]*L/.test(w), walksDot: true, instead: 'no -L' },
};

/**
 * Programs that follow links by default once they recurse: `zip -r` stores what a link leads to
 * unless -y (--symlinks), and GNU `diff -r` compares it unless --no-dereference.
 */
const DEFAULT_FOLLOWERS: Record<string, { follows: (argv: readonly string[]) => boolean; walksDot: boolean; instead: string }> = {
  zip: {
    follows: (argv) => argv.some((w) => /^-[A-Za-z]*[rR]/.test(w) || long(w, '--recurse-paths') || long(w, '--recurse-patterns')) && !argv.some((w) => /^-[A-Za-z]*y/.test(w) || long(w, '--symlinks')),
    walksDot: false,
    instead: '-y',
  },
  diff: {
    follows: (argv) => argv.some((w) => /^-[A-Za-z]*r/.test(w) || long(w, '--recursive')) && !argv.some((w) => long(w, '--no-dereference')),
    walksDot: false,
    instead: '--no-dereference',
  },
  // gzip -r reads what a link below the tree leads to (it skips a link named as an operand).
  ...Object.fromEntries(
    ['gzip', 'gunzip'].map((name) => [name, { follows: (argv: readonly string[]) => argv.some((w) => /^-[A-Za-z]*r/.test(w) || long(w, '--recursive')), walksDot: false, instead: 'no -r' }]),
  ),
};

/** Entries looked at, at most, per command: a bigger tree is refused rather than half checked. */
const WALK_BUDGET = 20_000;

/** tar's first word without a dash is its option letters, old style (`tar chf out.tar src`). */
const OLD_STYLE_TAR_FOLLOWS = /^[A-Za-z]*h[A-Za-z]*$/;

/** Whether `argv`'s program is told to follow symbolic links while it walks a tree. */
export function followsLinks(argv: readonly string[]): boolean {
  const program = path.posix.basename(argv[0] ?? '');
  const byDefault = ownEntry(DEFAULT_FOLLOWERS, program);
  if (byDefault !== undefined) return byDefault.follows(argv.slice(1));
  const rule = ownEntry(FOLLOWERS, program);
  if (rule === undefined) return false;
  if (program === 'tar' && OLD_STYLE_TAR_FOLLOWS.test(argv[1] ?? '')) return true;
  return argv.slice(1).some((w) => rule.follows(w));
}

/**
 * Null when `argv` follows no links, or the trees it names hold no link leading out of the
 * workspace; else why it is refused. `operands` are its path words, resolved from `directory`.
 */
export function followedLinkProblem(argv: readonly string[], operands: readonly string[], directories: readonly string[], workspace: Workspace): string | null {
  const program = path.posix.basename(argv[0] ?? '');
  const rule = ownEntry(DEFAULT_FOLLOWERS, program) ?? ownEntry(FOLLOWERS, program);
  if (!rule || !followsLinks(argv)) return null;
  // `operands` may hold the pattern or an option's value where no tree is named: '.' is walked then.
  const roots = rule.walksDot && !namesATree(argv) ? [...operands, '.'] : operands;
  // Each tree as the command names it, from each directory it may run in: one budget for them all.
  const named = new Map<string, { directory: string; operand: string }>();
  for (const directory of directories) for (const operand of roots) named.set(path.resolve(directory, operand), { directory, operand });
  const end = walkTrees([...named.keys()], { budget: WALK_BUDGET }, (entry, full, root) => {
    if (!entry.isSymbolicLink() || workspace.resolve(full).ok) return null;
    const { directory, operand } = named.get(root)!;
    return `'${program}' follows symbolic links, and '${path.relative(directory, full) || full}' below '${operand}' leads outside the workspace; use ${rule.instead}`;
  });
  if (end === null) return null;
  return 'refused' in end ? end.refused : `'${program}' follows symbolic links and the tree it walks is too big to check them all; use ${rule.instead}`;
}

/** Programs whose table lists every long option that takes a value (checked against GNU grep 3 and ripgrep 13/14). */
const COMPLETE_LONG: ReadonlySet<string> = new Set(['grep', 'egrep', 'fgrep', 'rg']);

/**
 * Whether `argv` surely names a tree to walk (else grep -R, rg -L, find -L, ls -R and du walk '.').
 * Read so that a doubt counts as no tree: a word after a long option the tables give no value may
 * be its value (GNU takes `--cont 3` as `--context 3`), and grep's or rg's pattern is one of the
 * words left unless -e or -f gives it. `grep -R secret -A 3` names no tree; `grep -R x -A 3 src` does.
 */
export function namesATree(argv: readonly string[]): boolean {
  const program = path.posix.basename(argv[0] ?? '');
  if (program === 'find') {
    let i = 1;
    for (; i < argv.length && /^-([HLP]|O\d*|D)$/.test(argv[i]!); i++) if (argv[i] === '-D') i++;
    // The starting points come before the first word of the expression.
    return i < argv.length && !/^[-(!),]/.test(argv[i]!);
  }
  const g = ownEntry(WORD_GRAMMARS, program);
  if (!g) return false;
  const elsewhere = g.leading?.unless ?? [];
  let given = false;
  let certain = 0;
  let doubtful = -1;
  for (let i = 1, options = true; i < argv.length; i++) {
    const word = argv[i]!;
    if (options && word === '--') options = false;
    else if (options && word.startsWith('--')) {
      const name = word.split('=')[0]!;
      if (elsewhere.some((option) => option.startsWith('--') && option.startsWith(name) && name.length > 3)) given = true;
      if (word.includes('=')) continue;
      if (g.valuedLong?.includes(name)) i++;
      // A flag, where the table lists every long option with a value (grep's, rg's); else it may take one.
      else if (!COMPLETE_LONG.has(program) || g.valuedLong?.some((option) => option.startsWith(name))) doubtful = i + 1;
    } else if (options && word.startsWith('-') && word !== '-') {
      for (let c = 1; c < word.length; c++) {
        if (elsewhere.includes(`-${word[c]}`)) given = true;
        if (g.attached?.includes(word[c]!)) break;
        if (g.valued?.includes(word[c]!)) {
          if (c === word.length - 1) i++;
          break;
        }
      }
    } else if (i !== doubtful) certain++;
  }
  return certain > (given ? 0 : (g.leading?.count ?? 0));
}
