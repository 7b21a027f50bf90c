// Where a command's words stop being possible programs. For deny rules any program may run the
// words after it (`prlimit`, `setarch x86_64`, one nobody has listed), so a shell's or a wrapper's
// name anywhere in a command counts: `… | X sh` runs sh on the pipe. A few everyday programs are
// known never to run a word of theirs, whatever their options say, and after one of them the
// words are text: `ps aux | grep ash` searches for 'ash', `xargs grep -l su` for 'su'.
import path from 'node:path';
import { readXargs } from './xargs-input.js';

/**
 * Programs with no option that runs a command: not sort (`--compress-program`), rg (`--pre`),
 * sed (`e`), awk (`system()`), less (`!`), find, xargs or git. Options a word could still add
 * (`grep $x`) only change what they print.
 */
const NEVER_RUN_THEIR_WORDS: ReadonlySet<string> = new Set([
  'grep', 'egrep', 'fgrep', 'wc', 'head', 'tail', 'cut', 'tr', 'jq', 'cat', 'ls', 'uniq', 'nl', 'tac', 'rev',
  'column', 'comm', 'paste', 'fold', 'basename', 'dirname', 'realpath', 'readlink', 'stat', 'du', 'ps', 'pgrep',
  'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'base64', 'od', 'xxd', 'hexdump', 'strings', 'which',
  // The programs bash's builtins stand for, as xargs or find runs them (`xargs -I {} echo "file: {}"`).
  'echo', 'printf',
]);

/** Where these names are the programs they say: bare (found on PATH) or in the system's bin directories, not `./grep`. */
function systemProgram(word: string): string | null {
  if (!word.includes('/')) return word;
  return /^\/(usr\/)?bin\/[^/]+$/.test(word) ? path.posix.basename(word) : null;
}

/** A program that never runs its words, by its bare name or in the system's bin directories. */
export function neverRunsItsWords(word: string): boolean {
  const program = systemProgram(word);
  return program !== null && NEVER_RUN_THEIR_WORDS.has(program);
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
    // An option it does not know may take the word that looks like the program (`xargs -a grep ash` runs ash).
    const next = readXargs(argv, at).program;
    if (next === null) break;
    at = next;
  }
  return argv.length;
}
