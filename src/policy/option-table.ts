// What the options of the usual destructive commands mean, as data: which spellings are one
// option (`-r`, `-R`, `--recursive`), which take a value (so `-n5` or `-C dir` are read right),
// which imply others (`git branch -D` is `--delete --force`), and which operands carry a meaning
// (`git push origin +main` forces). Deny rules compare these meanings instead of the words, so
// `rm -rf *` refuses `rm -vrf`, `rm -r --forc` and `rm --recursive --force` alike
// (shell-meaning.ts reads commands and rules with it).
//
// A group is a list of spellings of one option; its first spelling names the meaning. A spelling
// ending in `=` takes a value (attached, `--name=v`/`-nv`, or the next word); ending in `=?`, an
// optional value that can only be attached.

export interface OptionGroup {
  spellings: readonly string[];
  /** Further meanings this option has too (`-D` is also `--delete` and `--force`). */
  implies?: readonly string[];
}

export interface ProgramOptions {
  groups: readonly OptionGroup[];
  /** Options are whole words after one dash (`find -delete`), never clusters of letters. */
  wordOptions?: boolean;
  /** Operands that carry a meaning, such as a refspec forced with `+`. */
  operandMeanings?: ReadonlyArray<{ pattern: RegExp; means: string }>;
  /**
   * Other words an operand of a command stands for, as a rule may write them: a refspec
   * `+HEAD:refs/heads/main` names the branches `head` and `main`.
   */
  operandWords?: (operand: string) => string[];
  /** Programs whose first operand picks a subcommand with options of its own (git). */
  subcommands?: Readonly<Record<string, ProgramOptions>>;
}

const group = (...spellings: string[]): OptionGroup => ({ spellings });
const implying = (spellings: string[], implies: string[]): OptionGroup => ({ spellings, implies });

const FORCE = group('-f', '--force');
const RECURSIVE = group('-r', '-R', '--recursive');
const VERBOSE = group('-v', '--verbose');
const QUIET = group('-q', '--quiet');
const DRY_RUN = group('-n', '--dry-run');
const OWNERSHIP = [
  group('-R', '--recursive'),
  group('-c', '--changes'),
  group('-f', '--silent', '--quiet'),
  VERBOSE,
  group('-h', '--no-dereference'),
  group('--dereference'),
  group('-H'),
  group('-L'),
  group('-P'),
  group('--from='),
  group('--reference='),
  group('--no-preserve-root'),
  group('--preserve-root'),
];

const GIT_SUBCOMMANDS: Record<string, ProgramOptions> = {
  push: {
    groups: [
      group('-f', '--force', '--force-with-lease=?', '--force-if-includes'),
      group('-d', '--delete'),
      implying(['--mirror'], ['-f', '-d']),
      implying(['--prune'], ['-d']),
      group('--all', '--branches'),
      group('--tags'),
      group('-u', '--set-upstream'),
      DRY_RUN,
      VERBOSE,
      QUIET,
      group('-o=', '--push-option='),
      group('--repo='),
      group('--receive-pack=', '--exec='),
      group('--no-verify'),
      group('--follow-tags'),
      group('--atomic'),
      group('--signed=?'),
      group('--recurse-submodules='),
      group('--porcelain'),
      group('--progress'),
      group('-4', '--ipv4'),
      group('-6', '--ipv6'),
    ],
    // `+main` forces that ref; `:main` (also `+:main`) deletes it on the remote.
    operandMeanings: [
      { pattern: /^\+/, means: '-f' },
      { pattern: /^\+?:./, means: '-d' },
    ],
    operandWords: refspecNames,
  },
  reset: {
    groups: [group('--hard'), group('--soft'), group('--mixed'), group('--merge'), group('--keep'), QUIET, group('-p', '--patch'), group('-N', '--intent-to-add'), group('--pathspec-from-file='), group('--recurse-submodules')],
  },
  clean: {
    groups: [FORCE, group('-d'), group('-x'), group('-X'), DRY_RUN, QUIET, group('-i', '--interactive'), group('-e=', '--exclude=')],
  },
  checkout: {
    groups: [FORCE, group('-b='), group('-B='), group('--orphan='), QUIET, group('-m', '--merge'), group('-p', '--patch'), group('--ours'), group('--theirs'), group('-t', '--track=?'), group('--detach'), group('--conflict=')],
  },
  switch: {
    groups: [group('-f', '--force', '--discard-changes'), group('-c=', '--create='), group('-C=', '--force-create='), group('--orphan='), QUIET, group('-m', '--merge'), group('-d', '--detach'), group('-t', '--track=?')],
  },
  restore: {
    groups: [group('-s=', '--source='), group('-S', '--staged'), group('-W', '--worktree'), QUIET, group('-p', '--patch'), group('--ours'), group('--theirs'), group('-m', '--merge')],
  },
  branch: {
    groups: [
      group('-d', '--delete'),
      implying(['-D'], ['-d', '-f']),
      FORCE,
      group('-m', '--move'),
      implying(['-M'], ['-m', '-f']),
      group('-c', '--copy'),
      implying(['-C'], ['-c', '-f']),
      group('-r', '--remotes'),
      group('-a', '--all'),
      group('-u=', '--set-upstream-to='),
      group('-t', '--track=?'),
      VERBOSE,
      QUIET,
    ],
  },
  tag: {
    groups: [group('-d', '--delete'), FORCE, group('-a', '--annotate'), group('-s', '--sign'), group('-m=', '--message='), group('-F=', '--file='), group('-u=', '--local-user=')],
  },
  commit: {
    groups: [
      group('-a', '--all'),
      group('-m=', '--message='),
      group('-F=', '--file='),
      group('-C=', '--reuse-message='),
      group('-c=', '--reedit-message='),
      group('--amend'),
      group('-n', '--no-verify'),
      group('--no-edit'),
      group('-s', '--signoff'),
      group('-S=?', '--gpg-sign=?'),
      group('--author='),
      group('--date='),
      QUIET,
      VERBOSE,
      group('--allow-empty'),
      group('--fixup='),
      group('--squash='),
    ],
  },
  rebase: {
    groups: [group('-i', '--interactive'), group('--onto='), group('-x=', '--exec='), group('--root'), group('--autosquash'), group('--abort'), group('--continue'), group('--skip'), QUIET, VERBOSE, group('-f', '--force-rebase', '--no-ff'), group('-s=', '--strategy='), group('-X=', '--strategy-option=')],
  },
  stash: { groups: [QUIET, group('-u', '--include-untracked'), group('-a', '--all'), group('-k', '--keep-index'), group('-m=', '--message='), group('-p', '--patch')] },
};

/**
 * The branches a push refspec names, so that `git push origin main *` refuses `origin +main`,
 * `main:main`, `HEAD:main` and `refs/heads/main` alike: its source and its destination, each
 * also without `refs/heads/` or `refs/tags/`.
 */
function refspecNames(operand: string): string[] {
  const refspec = operand.replace(/^\+/, '');
  const colon = refspec.indexOf(':');
  const sides = colon < 0 ? [refspec] : [refspec.slice(0, colon), refspec.slice(colon + 1)];
  const names = sides.filter(Boolean).flatMap((side) => [side, side.replace(/^refs\/(heads|tags)\//, '')]);
  return [...new Set(names)].filter((name) => name !== operand);
}

const GIT: ProgramOptions = {
  groups: [
    group('-C='),
    group('-c='),
    group('--config-env='),
    group('--git-dir='),
    group('--work-tree='),
    group('--namespace='),
    group('--exec-path=?'),
    group('--super-prefix='),
    group('--attr-source='),
    group('-p', '--paginate'),
    group('-P', '--no-pager'),
    group('--bare'),
    group('--no-replace-objects'),
    group('--literal-pathspecs'),
    group('--glob-pathspecs'),
    group('--noglob-pathspecs'),
    group('--icase-pathspecs'),
    group('--no-optional-locks'),
  ],
  subcommands: GIT_SUBCOMMANDS,
};

export const PROGRAM_OPTIONS: Readonly<Record<string, ProgramOptions>> = {
  rm: {
    groups: [
      FORCE,
      RECURSIVE,
      group('-d', '--dir'),
      VERBOSE,
      group('-i'),
      group('-I'),
      group('--interactive=?'),
      group('--one-file-system'),
      group('--no-preserve-root'),
      group('--preserve-root=?'),
    ],
  },
  rmdir: { groups: [group('-p', '--parents'), VERBOSE, group('--ignore-fail-on-non-empty')] },
  shred: {
    groups: [group('-u', '--remove=?'), group('-z', '--zero'), FORCE, group('-n=', '--iterations='), group('-s=', '--size='), VERBOSE, group('-x', '--exact'), group('--random-source=')],
  },
  cp: {
    groups: [
      FORCE,
      RECURSIVE,
      implying(['-a', '--archive'], ['-r']),
      group('-i', '--interactive'),
      group('-n', '--no-clobber'),
      group('-t=', '--target-directory='),
      group('-S=', '--suffix='),
      group('-T', '--no-target-directory'),
      group('-u', '--update=?'),
      group('-l', '--link'),
      group('-s', '--symbolic-link'),
      group('-p'),
      group('--preserve=?'),
      group('-b', '--backup=?'),
      group('-d'),
      group('-P', '--no-dereference'),
      group('-L', '--dereference'),
      group('-H'),
      group('-x', '--one-file-system'),
      VERBOSE,
    ],
  },
  mv: {
    groups: [FORCE, group('-i', '--interactive'), group('-n', '--no-clobber'), group('-t=', '--target-directory='), group('-S=', '--suffix='), group('-T', '--no-target-directory'), group('-u', '--update=?'), group('-b', '--backup=?'), VERBOSE],
  },
  chmod: { groups: OWNERSHIP },
  chown: { groups: OWNERSHIP },
  chgrp: { groups: OWNERSHIP },
  find: {
    wordOptions: true,
    groups: [
      group('-delete'),
      group('-exec', '-execdir', '-ok', '-okdir'),
      group('-fprint', '-fprint0', '-fprintf', '-fls'),
    ],
  },
  sed: {
    groups: [
      group('-i=?', '--in-place=?'),
      group('-e=', '--expression='),
      group('-f=', '--file='),
      group('-n', '--quiet', '--silent'),
      group('-E', '-r', '--regexp-extended'),
      group('-s', '--separate'),
      group('-z', '--null-data'),
      group('-l=', '--line-length='),
      group('-u', '--unbuffered'),
      group('--posix'),
      group('--follow-symlinks'),
      group('--debug'),
      group('--sandbox'),
    ],
  },
  git: GIT,
};
