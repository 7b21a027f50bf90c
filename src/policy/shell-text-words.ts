// Where a command's words stop being possible programs. For deny rules any program may run the
// words after it (`prlimit`, `setarch x86_64`, one nobody has listed), so a shell's or a wrapper's
// name anywhere in a command counts: `… | X sh` runs sh on the pipe. A few everyday programs are
// known never to run a word of theirs, whatever their options say, and after one of them the
// words are text: `ps aux | grep ash` searches for 'ash', `xargs grep -l su` for 'su'.
import path from 'node:path';
import { longOption } from './shell-options.js';

/**
 * Programs with no option that runs a command: not sort (`--compress-program`), rg (`--pre`),
 * sed (`e`), awk (`system()`), less (`!`), find, xargs or git. Options a word could still add
 * (`grep $x`) only change what they print.
 */
const NEVER_RUN_THEIR_WORDS: ReadonlySet<string> = new Set([
  'grep', 'egrep', 'fgrep', 'wc', 'head', 'tail', 'cut', 'tr', 'jq', 'cat', 'ls', 'uniq', 'nl', 'tac', 'rev',
  'column', 'comm', 'paste', 'fold', 'basename', 'dirname', 'realpath', 'readlink', 'stat', 'du', 'ps', 'pgrep',
  'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'base64', 'od', 'xxd', 'hexdump', 'strings', 'which',
]);

/** Where these names are the programs they say: bare (found on PATH) or in the system's bin directories, not `./grep`. */
function systemProgram(word: string): string | null {
  if (!word.includes('/')) return word;
  return /^\/(usr\/)?bin\/[^/]+$/.test(word) ? path.posix.basename(word) : null;
}

/** xargs's options (GNU and BSD): letters whose value is the rest of the word or the next one, letters whose value must be attached, and flags. */
const XARGS_VALUED = 'adEILnPsJRS';
const XARGS_ATTACHED = 'eil';
const XARGS_FLAGS = '0oprtx';
const XARGS_VALUED_LONG = ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'];
const XARGS_FLAGS_LONG = ['--null', '--open-tty', '--interactive', '--no-run-if-empty', '--verbose', '--exit', '--show-limits', '--eof', '--replace', '--max-lines'];

/**
 * The index of the program xargs runs (argv.length when none), or null when an option is one it
 * does not know, whose value may be the word that looks like the program (`xargs -a grep ash`
 * runs ash, with the pipe on its stdin).
 */
function xargsProgram(argv: readonly string[], at: number): number | null {
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return i + 1;
    if (!word.startsWith('-') || word === '-') return i;
    if (word.startsWith('--')) {
      if (word.includes('=')) continue;
      if (XARGS_FLAGS_LONG.includes(word)) continue;
      if (longOption(word, XARGS_VALUED_LONG)) i++;
      else if (!longOption(word, XARGS_FLAGS_LONG)) return null;
      continue;
    }
    for (let c = 1; c < word.length; c++) {
      const letter = word[c]!;
      if (XARGS_VALUED.includes(letter)) {
        if (c === word.length - 1) i++;
        break;
      }
      if (XARGS_ATTACHED.includes(letter)) break;
      if (!XARGS_FLAGS.includes(letter)) return null;
    }
  }
  return argv.length;
}

/**
 * The index of the first word of argv that can only be text: the words after a program that never
 * runs its words, where that program starts the command or is the one xargs runs. argv.length
 * when any word may be a program.
 */
export function firstTextWord(argv: readonly string[]): number {
  let at = 0;
  while (at < argv.length) {
    const program = systemProgram(argv[at]!);
    if (program !== null && NEVER_RUN_THEIR_WORDS.has(program)) return at + 1;
    if (program !== 'xargs') break;
    const next = xargsProgram(argv, at);
    if (next === null) break;
    at = next;
  }
  return argv.length;
}
