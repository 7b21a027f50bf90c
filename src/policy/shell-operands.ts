// Arguments that are text the program reads as a pattern, a script or a message, never as a file:
// `grep '/api/v1' src`, `sed -n '/start/,/end/p' f`, `git commit -m '/docs: fix'`. The path check
// skips them. Each finder is conservative: where it cannot tell which word is the text (an option
// it does not know that may take the next word, -e or -f giving the pattern elsewhere), it skips
// nothing, and the word is checked as a path like any other. The guards still read these words.
import path from 'node:path';
import { longOption, ownEntry } from './shell-options.js';

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
const COMPILERS: ReadonlySet<string> = new Set(['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'cpp']);

/** Indexes in argv of words that are not file names. */
export function nonPathArguments(argv: readonly string[]): Set<number> {
  const found = new Set<number>();
  const program = argv[0] === undefined ? '' : path.posix.basename(argv[0]);
  const grammar = ownEntry(FIRST_OPERAND, program);
  if (grammar) {
    const index = firstOperand(argv, grammar);
    if (index !== null) found.add(index);
  }
  if (program === 'git') gitCommitMessage(argv, found);
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

/** The message of `git commit -m MESSAGE` (also `-am`, `-mMESSAGE`, `--message=`). */
function gitCommitMessage(argv: readonly string[], found: Set<number>): void {
  if (argv[1] !== 'commit') return;
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return;
    if (arg === '--message' && i + 1 < argv.length) found.add(++i);
    else if (arg.startsWith('--message=')) found.add(i);
    else if (/^-[A-Za-z]/.test(arg) && !arg.startsWith('--')) {
      for (let c = 1; c < arg.length; c++) {
        const letter = arg[c]!;
        // -F FILE, -c/-C COMMIT, -t FILE: a value that is not the message ends the cluster.
        if ('FcCt'.includes(letter)) break;
        if (letter === 'm') {
          if (c === arg.length - 1) {
            if (i + 1 < argv.length) found.add(++i);
          } else found.add(i);
          break;
        }
      }
    }
  }
}
