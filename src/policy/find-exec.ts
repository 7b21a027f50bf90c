// Where find's -exec (and fd's -x) puts the names it finds in the program's place. `find /bin -name
// 'r?' -exec {} -rf d ';'` runs /bin/rm -rf d: the program is a file found at run time (in a
// repository, any file it holds), so a deny rule must be tried on such a command as if `{}` named the
// rule's program, as it is for xargs -I (xargs-input.ts).
import path from 'node:path';

/** The actions whose words after them, up to `;` (or find's `{} +`), are a command the finder runs. */
const RUNS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['find', new Set(['-exec', '-execdir', '-ok', '-okdir'])],
  ['fd', new Set(['-x', '--exec', '-X', '--exec-batch'])],
  ['fdfind', new Set(['-x', '--exec', '-X', '--exec-batch'])],
]);

/** find's name for what it found; fd's, also its path parts (`{/}`, `{//}`, `{.}`, `{/.}`). */
const PLACEHOLDER = /\{(\/|\/\/|\.|\/\.)?\}/;

/** A command a finder runs whose program, or a wrapper's program, is a name it finds: argv[at, end). */
export interface FoundProgram {
  at: number;
  end: number;
}

/**
 * Each place in argv where a word holding `{}` stands as a program in find's -exec command: its
 * first word, or any later word when that is a wrapper (`env {} -rf d`, `timeout 5 ./{}`), which
 * runs its words. GNU find replaces `{}` inside a word too (`./{}`). A name find supplies starts
 * with its starting point, never `-`, so it adds no options: the command is not open-ended.
 */
export function foundPrograms(argv: readonly string[], end: number, isWrapper: (word: string) => boolean): FoundProgram[] {
  const found: FoundProgram[] = [];
  for (let i = 0; i < end; i++) {
    const runs = RUNS.get(path.posix.basename(argv[i]!).toLowerCase());
    if (runs === undefined) continue;
    for (let j = i + 1; j < argv.length; j++) {
      if (!runs.has(argv[j]!)) continue;
      const start = j + 1;
      let stop = start;
      while (stop < argv.length && argv[stop] !== ';' && !(argv[stop] === '+' && argv[stop - 1] === '{}')) stop++;
      const first = argv[start];
      if (first === undefined) break;
      const wrapped = isWrapper(first);
      for (let k = start; k < stop; k++) {
        if (PLACEHOLDER.test(argv[k]!) && (k === start || wrapped)) found.push({ at: k, end: stop });
      }
      j = stop;
    }
  }
  return found;
}


/**
 * Whether the names find hands its commands (from the `find` at argv[at]) may read as options, so
 * that `-exec rm {} +` may be `rm -rf …` for a deny rule. GNU find's names start with a starting
 * point, and one starting with `-` is a test, not a path: `./-rf` is no option. Not so where a
 * starting point may start with `-` (BSD's `-f PATH`, or a word after `--`), where names come from
 * a file (`-files0-from`), where BSD's -execdir/-okdir hand the bare name, or where `{}` is part of
 * a word (`-r{}` with the starting point `f` is `-rf`).
 */
export function findMayPassOptions(argv: readonly string[], at: number): boolean {
  let i = at + 1;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '-D') i++;
    else if (!/^-([HLPEXsx]+|O\d*)$/.test(word)) break;
  }
  if (argv[i] === '--' && argv[i + 1]?.startsWith('-')) return true;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '-f' || word === '-files0-from' || word === '-execdir' || word === '-okdir') return true;
    if (word !== '-exec' && word !== '-ok') continue;
    for (i++; i < argv.length && argv[i] !== ';' && argv[i] !== '+'; i++) {
      if (argv[i]!.includes('{}') && argv[i] !== '{}') return true;
    }
  }
  return false;
}

/**
 * Whether argv[i] is fd's -x/-X (also in a cluster, or `--exec[-batch]`), whose command gets the
 * names fd finds: without its `./` prefix (`--strip-cwd-prefix`, fd before 8.3) or as `{/}` (the
 * base name), a file named `-rf` is an option.
 */
export function fdExecAt(argv: readonly string[], i: number): boolean {
  if (!/^(-[A-Za-z]*[xX]|--exec(-batch)?(=.*)?)$/s.test(argv[i] ?? '')) return false;
  return argv.slice(0, i).some((word) => /^fd(find)?$/.test(path.posix.basename(word).toLowerCase()));
}
