// Arguments that are text the program reads as a pattern, a script or a message, never as a file:
// `grep '/api/v1' src`, `sed -n '/start/,/end/p' f`, `git commit -m '/docs: fix'`, `cut -d/ -f2
// f`, every word of `echo`. The path check skips them. Each finder is conservative: where it cannot
// tell which word is the text (an option it does not know that may take the next word, -e or -f
// giving the pattern elsewhere), it skips nothing, and the word is checked as a path like any
// other. The guards still read these words.
import path from 'node:path';
import { longOption, ownEntry } from './shell-options.js';
import { WORD_GRAMMARS } from './opened-table.js';
import { gitSubcommandAt } from './git-scripts.js';

interface Grammar {
  /** Short options whose value is the next word when nothing is attached. */
  valued: string;
  /** Short options that give the pattern or program elsewhere: the first operand is then a file. */
  elsewhere: string;
  /** Long options that do the same. */
  elsewhereLong: string[];
}

const GREP: Grammar = { valued: 'ABCDdm', elsewhere: 'ef', elsewhereLong: ['--regexp', '--file'] };
const RG: Grammar = { valued: 'ABCEgjMmrtTd', elsewhere: 'ef', elsewhereLong: ['--regexp', '--file'] };
/** As sed-guard.ts reads sed: the operand skipped here is the one it scans as the script. */
const SED: Grammar = { valued: 'l', elsewhere: 'ef', elsewhereLong: ['--expression', '--file'] };
const AWK: Grammar = { valued: 'Fv', elsewhere: 'fEilW', elsewhereLong: ['--file', '--include', '--load', '--exec', '--source'] };

/**
 * Programs whose first word is a subcommand (`npm test`, `go vet`, `cargo build`), and, after
 * `run`, a script's name (`npm run lint`): names the program looks up in its own tables, never
 * files. Read only when it is a plain word right after the program (an option before it may take
 * it as its value). Not `bun`, which runs a file named like a word (`bun index`).
 */
const SUBCOMMAND_PROGRAMS: ReadonlySet<string> = new Set(['git', 'npm', 'pnpm', 'yarn', 'go', 'cargo', 'pip', 'pip3', 'poetry', 'uv', 'dotnet', 'deno', 'docker', 'podman', 'kubectl', 'helm', 'gh', 'terraform', 'mix', 'bundle', 'rustup']);
const SCRIPT_RUNNERS: ReadonlySet<string> = new Set(['npm', 'pnpm', 'yarn']);
const PLAIN_WORD = /^[a-z][a-z0-9:_-]*$/;

const FIRST_OPERAND: Record<string, Grammar> = { grep: GREP, egrep: GREP, fgrep: GREP, rg: RG, sed: SED, gsed: SED, awk: AWK, gawk: AWK, mawk: AWK, nawk: AWK };
/** git grep's pattern, as grep's: -e and -f give it elsewhere. */
const GIT_GREP: Grammar = { valued: 'ABCm', elsewhere: 'ef', elsewhereLong: ['--regexp', '--file'] };

/**
 * Builtins and programs that compute or print text from their words and touch no file they name,
 * by their bare name (`./echo` may be any program): `echo /etc/passwd` opens nothing.
 */
const TEXT_ONLY: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', 'pwd', 'sleep', 'seq', 'expr', 'yes', 'tr', 'basename', 'dirname', 'nproc', 'uname', 'whoami', 'id', 'kill']);
const COMPILERS: ReadonlySet<string> = new Set(['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'cpp']);

/** Indexes in argv of words that are not file names. */
export function nonPathArguments(argv: readonly string[]): Set<number> {
  const found = new Set<number>();
  const program = argv[0] === undefined ? '' : path.posix.basename(argv[0]);
  if (argv[0] === program && TEXT_ONLY.has(program)) return new Set([...argv.keys()].slice(1));
  if (argv[0] === program) textOptionValues(argv, found);
  const grammar = ownEntry(FIRST_OPERAND, program);
  if (grammar) {
    const index = firstOperand(argv, grammar);
    if (index !== null) found.add(index);
  }
  if (program === 'git') gitTextWords(argv, found);
  if (argv[0] === 'go') goTestPatterns(argv, found);
  if (argv[0] === 'find') findPatterns(argv, found);
  // By the bare name only: `./npm` may be any program, and may open the word.
  if (argv[0] === program && SUBCOMMAND_PROGRAMS.has(program) && PLAIN_WORD.test(argv[1] ?? '')) {
    found.add(1);
    if (SCRIPT_RUNNERS.has(program) && (argv[1] === 'run' || argv[1] === 'run-script') && PLAIN_WORD.test(argv[2] ?? '')) found.add(2);
  }
  // A macro definition (`-DPREFIX=/usr/local`): the compiler never opens it.
  if (COMPILERS.has(program)) {
    argv.forEach((arg, i) => {
      if (i > 0 && /^-[DU]./.test(arg)) found.add(i);
      if (i > 0 && (arg === '-D' || arg === '-U') && i + 1 < argv.length) found.add(i + 1);
    });
  }
  return found;
}

/** The pattern of grep/rg, the script of sed, the program of awk: the first operand, when no option gives it. */
function firstOperand(argv: readonly string[], grammar: Grammar): number | null {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return i + 1 < argv.length ? i + 1 : null;
    // GNU moves options after operands to the front: `grep FILE -e PATTERN` has no pattern operand.
    if (arg === '-' || !arg.startsWith('-')) return argv.slice(i + 1).some((later) => givesTextElsewhere(later, grammar)) ? null : i;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      // Without '=', a long option may take the next word: which word is the pattern is then unknown.
      if (eq < 0 || longOption(arg.slice(0, eq), grammar.elsewhereLong)) return null;
      continue;
    }
    for (let c = 1; c < arg.length; c++) {
      const letter = arg[c]!;
      if (grammar.elsewhere.includes(letter)) return null;
      if (grammar.valued.includes(letter)) {
        if (c === arg.length - 1) i++;
        break;
      }
      if (letter === 'i' && grammar === SED) break; // -i.bak: the rest is the suffix
    }
  }
  return null;
}

/**
 * A word that may be an option giving the pattern or program (`-e`, `-ef`, `--regexp=`, `--file`),
 * read conservatively: any short cluster holding such a letter, any prefix of such a long option.
 * (After `--` nothing is an option, but a word that looks like one there only costs a path check.)
 */
function givesTextElsewhere(word: string, grammar: Grammar): boolean {
  if (word.startsWith('--')) return word.length > 2 && longOption(word.split('=')[0]!, grammar.elsewhereLong) !== null;
  return /^-[^-]/.test(word) && [...word.slice(1)].some((letter) => grammar.elsewhere.includes(letter));
}

/**
 * Options whose value is text, never a file or part of one, by program: separators, field lists,
 * patterns, labels, formats. (Not, say, `cp -S`, whose suffix joins a file's name.)
 */
const AWK_TEXT = ['-F', '--field-separator', '-v', '--assign', '-e', '--source'];
const GREP_TEXT = ['-e', '--regexp', '--include', '--exclude', '--exclude-dir', '--label', '--group-separator'];
const TEXT_VALUES: Readonly<Record<string, readonly string[]>> = {
  cut: ['-d', '--delimiter', '--output-delimiter', '-f', '--fields', '-b', '--bytes', '-c', '--characters'],
  paste: ['-d', '--delimiters'],
  sort: ['-t', '--field-separator', '-k', '--key'],
  awk: AWK_TEXT, gawk: AWK_TEXT, mawk: AWK_TEXT, nawk: AWK_TEXT,
  grep: GREP_TEXT, egrep: GREP_TEXT, fgrep: GREP_TEXT,
  rg: ['-e', '--regexp', '-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '-r', '--replace', '--type-add'],
  sed: ['-e', '--expression'], gsed: ['-e', '--expression'],
  diff: ['-I', '--ignore-matching-lines', '-F', '--show-function-line', '-x', '--exclude', '-L', '--label'],
  ls: ['-I', '--ignore', '--hide'],
  stat: ['-c', '--format', '--printf'],
  date: ['-d', '--date'],
  // jq's `--arg NAME VALUE` and `--argjson NAME VALUE`: opened-table.ts's pairs that are no files.
  jq: [],
};

/**
 * The values of TEXT_VALUES's options: `cut -d/`, `awk -F/`, `sort -t / -k2`, `grep -e /x`, `jq
 * --arg p /x`. The words are read in order with opened-table.ts's arity, as getopt reads them, so
 * that a word another option takes (`sort -o -t /x` writes a file named `-t`) is not taken for
 * one; a cluster counts only when its first letter takes the value (in `-rt/` which letter does is
 * the program's business), a long option only spelled out in full.
 */
function textOptionValues(argv: readonly string[], found: Set<number>): void {
  const text = ownEntry(TEXT_VALUES, argv[0]!);
  const grammar = ownEntry(WORD_GRAMMARS, argv[0]!);
  if (!text || !grammar) return;
  const take = (option: string, at: number, attached: boolean) => {
    if (text.includes(option) && at < argv.length) found.add(at);
    return attached ? 0 : 1;
  };
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return;
    if (!word.startsWith('-') || word === '-') continue;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      const pair = grammar.pairs && Object.hasOwn(grammar.pairs, name) ? grammar.pairs[name] : undefined;
      if (pair !== undefined) {
        if (!pair && eq < 0) [i + 1, i + 2].forEach((at) => at < argv.length && found.add(at));
        i += eq < 0 ? 2 : 1;
      } else if (grammar.valuedLong?.includes(name)) i += take(name, eq < 0 ? i + 1 : i, eq >= 0);
      continue;
    }
    // The value starts at the first letter that takes one; the letters before it are flags.
    const at = [...word.slice(1)].findIndex((letter) => grammar.attached?.includes(letter) || grammar.valued?.includes(letter));
    if (at < 0 || grammar.attached?.includes(word[at + 1]!)) continue;
    const attached = at + 2 < word.length;
    if (at === 0 || !attached) i += take(`-${word[at + 1]}`, attached ? i : i + 1, attached);
  }
}

/** git subcommands whose `-m` is a message, and those whose `-S`/`-G` is a string or regex to look for. */
const GIT_MESSAGES: ReadonlySet<string> = new Set(['commit', 'tag', 'merge', 'notes', 'stash', 'commit-tree']);
const GIT_PICKAXE: ReadonlySet<string> = new Set(['log', 'show', 'diff', 'whatchanged', 'diff-tree', 'diff-index', 'diff-files', 'reflog']);
/** Long options whose value is text to git: a message, a search, a person, a format. */
const GIT_TEXT_LONG = ['--message', '--grep', '--author', '--committer', '--format', '--pretty'];
/** Short options whose value (attached or next) is no text: a cluster's letters end at one (`-F FILE`, `-C COMMIT`, `-u KEYID`). */
const GIT_OTHER_VALUES = 'FcCtuSsXpOLn';

/**
 * git's words that are text: the message of `commit`/`tag`/`merge`/`notes`/`stash -m` (also `-am`,
 * `-mMESSAGE`, `--message=`), the string of `log -S`/`-G`, `--grep`, `--author`, `--committer`,
 * `--format`, `--pretty`, and git grep's pattern (its first operand, or `-e`'s value).
 */
function gitTextWords(argv: readonly string[], found: Set<number>): void {
  const at = gitSubcommandAt(argv);
  const subcommand = argv[at];
  if (subcommand === undefined) return;
  const letters = `${GIT_MESSAGES.has(subcommand) ? 'm' : ''}${GIT_PICKAXE.has(subcommand) ? 'SG' : ''}${subcommand === 'grep' ? 'e' : ''}`;
  if (subcommand === 'grep') {
    const pattern = firstOperand(argv.slice(at), GIT_GREP);
    if (pattern !== null) found.add(at + pattern);
  }
  for (let i = at + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (!GIT_TEXT_LONG.includes(eq < 0 ? arg : arg.slice(0, eq))) continue;
      if (eq >= 0) found.add(i);
      else if (i + 1 < argv.length) found.add(++i);
    } else if (/^-[A-Za-z]/.test(arg)) {
      for (let c = 1; c < arg.length; c++) {
        const letter = arg[c]!;
        if (letters.includes(letter)) {
          if (c < arg.length - 1) found.add(i);
          else if (i + 1 < argv.length) found.add(++i);
          break;
        }
        if (GIT_OTHER_VALUES.includes(letter)) break;
      }
    }
  }
}

/** go test's regexes (`-run TestA/b`, `-bench=.`, `-skip`, `-list`): text, not packages or files. */
const GO_TEXT: ReadonlySet<string> = new Set(['-run', '-bench', '-skip', '-list']);
/** go's flags that take no value: after one, `-run` is a flag (after `-o`, it would be -o's file). */
const GO_FLAGS: ReadonlySet<string> = new Set(['-v', '-x', '-n', '-a', '-i', '-c', '-race', '-msan', '-asan', '-cover', '-short', '-failfast', '-json', '-benchmem', '-trimpath', '-work', '-linkshared', '-buildvcs']);

function goTestPatterns(argv: readonly string[], found: Set<number>): void {
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' || arg === '-args') return;
    const [name, ...value] = arg.replace(/^--/, '-').split('=');
    if (!GO_TEXT.has(name!)) continue;
    const previous = argv[i - 1]!;
    // A word of its own only where it is a flag: not the value of the flag before it.
    if (i > 2 && previous.startsWith('-') && !previous.includes('=') && !GO_FLAGS.has(previous.replace(/^--/, '-'))) continue;
    if (value.length > 0) found.add(i);
    else if (i + 1 < argv.length) found.add(++i);
  }
}

/** find's tests whose value is a pattern or a format, matched against names it finds: never opened. */
const FIND_PATTERNS: ReadonlySet<string> = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-printf']);
/** find's other tests and actions that take a value (a file among them): the word after is theirs. */
const FIND_VALUED: ReadonlySet<string> = new Set([
  '-type', '-xtype', '-maxdepth', '-mindepth', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size', '-perm', '-user', '-group', '-uid', '-gid',
  '-links', '-inum', '-fstype', '-used', '-regextype', '-context', '-newer', '-anewer', '-cnewer', '-samefile', '-fprint', '-fprint0', '-fls', '-files0-from',
]);

/**
 * The patterns of find's expression (`-not -path './node_modules/*'`, `-path ./.git -prune`,
 * `-name '*.ts'`): the words after the starting points, read test by test; the command of an
 * `-exec` (to `;` or `+`) is its own program's words, and left alone.
 */
function findPatterns(argv: readonly string[], found: Set<number>): void {
  let i = 1;
  for (; i < argv.length && /^-([HLP]|O\d*|D)$/.test(argv[i]!); i++) if (argv[i] === '-D') i++;
  for (; i < argv.length && !/^[-(!),]/.test(argv[i]!); i++);
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (/^-(exec|execdir|ok|okdir)$/.test(word)) {
      while (i + 1 < argv.length && argv[i + 1] !== ';' && argv[i + 1] !== '+') i++;
      i++;
    } else if (FIND_PATTERNS.has(word)) {
      if (i + 1 < argv.length) found.add(++i);
    } else if (word === '-fprintf') {
      i++;
      if (i + 1 < argv.length) found.add(++i);
    } else if (FIND_VALUED.has(word) || /^-newer[aBcm][aBcmt]$/.test(word)) i++;
  }
}
