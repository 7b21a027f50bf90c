// Programs that hand a shell a line of their own making: `su -c LINE` (also runuser, sg, script,
// flock), `watch WORDS…` (sh -c, unless -x), `mispipe A B`, `pee A B …`, `hyperfine A B …`,
// `concurrently` and `watchexec` (each word), `ssh HOST WORDS…` (the remote user's shell),
// `sudo -s`/`-i` or `doas -s` with a command ($SHELL -c), and tmux, whose words may each be a
// line its server runs (`new -d LINE`, `run-shell LINE`, `if-shell LINE …`). Whatever that shell
// reads is a command line, so the deny rules check it as one (shell-rules.ts), blank or not:
// `su -c 'rm${IFS}-rf${IFS}d'` runs rm as surely as `su -c 'rm -rf d'` does. Some hand over what
// nobody can check: keys typed into a terminal (`tmux send-keys`, `screen -X stuff`), and the
// commands of a file or stdin that `at`, `batch` and a crontab run later, outside this call. `env -S STRING`
// splits STRING into the command and its words by a grammar of its own, where `\_` is a blank:
// `env -S 'rm\_-rf\_d'` is `rm -rf d`, so its string is a command line too, blank or not.
import path from 'node:path';
import { wrapperCommand } from './shell-bare-wrappers.js';

/** Programs whose `-c`/`--command` value is a line for a shell. */
const DASH_C: ReadonlySet<string> = new Set(['su', 'runuser', 'sg', 'script', 'flock']);

/** watch's options that take a value (the rest of the word or the next one). */
const WATCH_VALUED = 'nqs';
const WATCH_VALUED_LONG = ['--interval', '--equexit', '--shotsdir'];

/**
 * What a terminal multiplexer or a job queue at the start of `words` hands over: tmux's words that
 * are no option, each of which may be a line its server runs; or why it cannot be checked at all.
 * Null for any other program.
 */
export function terminalHandOver(words: readonly string[]): { lines: string[]; piped?: string[] } | { uncheckable: string } | null {
  const name = path.posix.basename(words[0] ?? '').toLowerCase();
  const line = `'${words.join(' ')}'`;
  const piped = pipeLines(words);
  if (piped !== null) return piped;
  if (name === 'tmux') {
    if (words.some((word) => TMUX_TYPES.has(word))) return { uncheckable: `${line} types keys, a buffer or a file of commands into a terminal, which cannot be checked; run the command itself` };
    return { lines: words.slice(1).filter((word) => !word.startsWith('-') && word !== ';') };
  }
  if (name === 'screen' && words.some((word) => word.startsWith('-X'))) return { uncheckable: `${line} sends a command to a screen session, which cannot be checked; run the command itself` };
  // at -l, -r, -d, -c and -V list, remove, print or say the version: they queue nothing.
  if ((name === 'at' && !words.slice(1).some((word) => /^-[a-zA-Z]*[lrdcV]/.test(word))) || name === 'batch') {
    return { uncheckable: `${line} queues commands (from stdin or a file) that run later, outside this call, which cannot be checked; run them now instead` };
  }
  // crontab -l, -r, -V and -T list, remove, say the version or test a file; any other form
  // installs a table (from a file, stdin or an editor) whose jobs cron runs later. -u's value is no option.
  if (name === 'crontab' && !words.slice(1).some((word) => /^-[a-zA-Z]*[lrVT]/.test(word.replace(/u.*$/, '')))) {
    return { uncheckable: `${line} installs a crontab whose jobs cron runs later, outside this call, which cannot be checked; run the commands now instead` };
  }
  return null;
}

/**
 * moreutils' mispipe and pee hand their words to `sh -c`: `mispipe A B` runs A piped into B (B's
 * stdin is A's output: `piped`), and `pee A B …` pipes its own stdin into each. pee's only options
 * are these four words; any other word, a dash first or not, is a command line. Null for any other program.
 */
export function pipeLines(words: readonly string[]): { lines: string[]; piped: string[] } | null {
  const name = path.posix.basename(words[0] ?? '').toLowerCase();
  if (name === 'mispipe') return { lines: words.slice(1, 3), piped: words.slice(2, 3) };
  // hyperfine, concurrently and watchexec hand each command word to the shell too (an option's
  // value read as a line is only checked: `--runs 5` is the command `5`).
  if (LINE_PER_WORD.has(name)) {
    // `--prepare=LINE` too; a short option's attached value (`-pLINE`) is the rest of its word.
    const lines = words.slice(1).map((word) => (!word.startsWith('-') ? word : word.startsWith('--') ? (word.includes('=') ? word.slice(word.indexOf('=') + 1) : null) : word.slice(2) || null));
    return { lines: lines.filter((line): line is string => line !== null), piped: [] };
  }
  if (name !== 'pee') return null;
  return { lines: words.slice(1).filter((word) => !PEE_OPTIONS.has(word)), piped: [] };
}

const LINE_PER_WORD: ReadonlySet<string> = new Set(['hyperfine', 'concurrently', 'watchexec']);

const PEE_OPTIONS: ReadonlySet<string> = new Set(['--ignore-sigpipe', '--no-ignore-sigpipe', '--ignore-write-errors', '--no-ignore-write-errors']);

/** tmux commands that type into a pane or read commands from a file or a buffer. */
const TMUX_TYPES: ReadonlySet<string> = new Set(['send-keys', 'send', 'send-prefix', 'paste-buffer', 'pasteb', 'load-buffer', 'loadb', 'set-buffer', 'setb', 'source-file', 'source', 'pipe-pane', 'pipep']);

/** env's options that take a value (the rest of the word or the next one), short and long (any unambiguous prefix). */
const ENV_VALUED = 'uCSa';
const ENV_VALUED_LONG = ['--unset', '--chdir', '--split-string', '--argv0'];

/**
 * The strings `env` (at the start of `words`) splits into its command: every `-S`/`--split-string`
 * value, attached or not, also at the end of a cluster (`-iS…`). Empty for any other program.
 */
export function envSplitStrings(words: readonly string[]): string[] {
  if (path.posix.basename(words[0] ?? '').toLowerCase() !== 'env') return [];
  const strings: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--' || !word.startsWith('-') || word === '-') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      // GNU getopt takes any unambiguous prefix (`--split` is `--split-string`).
      const long = name.length > 2 ? ENV_VALUED_LONG.filter((option) => option.startsWith(name)) : [];
      if (long.length !== 1) continue;
      const value = eq < 0 ? words[++i] : word.slice(eq + 1);
      if (long[0] === '--split-string' && value !== undefined) strings.push(value);
      continue;
    }
    for (let c = 1; c < word.length; c++) {
      if (!ENV_VALUED.includes(word[c]!)) continue;
      const value = c === word.length - 1 ? words[++i] : word.slice(c + 1);
      if (word[c] === 'S' && value !== undefined) strings.push(value);
      break;
    }
  }
  return strings;
}

/** The line `words` (a program and what follows it) hands a shell, or null when it hands none. */
export function shellLineOf(words: readonly string[]): string | null {
  const name = path.posix.basename(words[0] ?? '').toLowerCase();
  if (DASH_C.has(name)) return dashCValue(words);
  if (name === 'watch') return watchLine(words);
  if (name === 'ssh') return joinedFrom(words, wrapperCommand(words));
  if (name === 'sudo' || name === 'doas') {
    const command = wrapperCommand(words);
    const options = words.slice(1, command ?? words.length);
    const shell = options.some((word) => word === '--shell' || word === '--login' || /^-[A-Za-z]*[si]/.test(word));
    return shell ? joinedFrom(words, command) : null;
  }
  return null;
}

/** The value of `-c`, `--command[=]`, or a cluster ending in c (`-lc LINE`); null when there is none. */
function dashCValue(words: readonly string[]): string | null {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') return null;
    if (word.startsWith('--command=')) return word.slice('--command='.length);
    if (word === '--command' || /^-[A-Za-z]*c$/.test(word)) return words[i + 1] ?? null;
  }
  return null;
}

/** watch joins its command's words for `sh -c`, unless -x/--exec runs them as they are. */
function watchLine(words: readonly string[]): string | null {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') return joinedFrom(words, i + 1);
    if (!word.startsWith('-') || word === '-') return joinedFrom(words, i);
    if (word === '--exec' || (!word.startsWith('--') && /^-[A-Za-z]*x/.test(word.replace(/[nqs].*$/, '')))) return null;
    if (word.startsWith('--')) {
      if (WATCH_VALUED_LONG.includes(word)) i++;
      continue;
    }
    const valued = [...word.slice(1)].findIndex((letter) => WATCH_VALUED.includes(letter));
    if (valued === word.length - 2) i++;
  }
  return null;
}

function joinedFrom(words: readonly string[], at: number | null): string | null {
  return at === null || at >= words.length ? null : words.slice(at).join(' ');
}
