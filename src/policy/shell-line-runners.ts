// Programs that hand a shell a line of their own making: `su -c LINE` (also runuser, sg, script,
// flock), `watch WORDS…` (sh -c, unless -x), `mispipe A B`, `pee A B …`, `hyperfine A B …`,
// `concurrently` and `watchexec` (each word), `nodemon --exec`, `entr -s`, `pueue add`,
// `nix-shell --run`, `ssh HOST WORDS…` (the remote user's shell),
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
  if (name === 'nodemon') return nodemonLines(words);
  if (name === 'entr') return entrLines(words);
  if (name === 'pueue') return pueueLines(words);
  // nix-shell runs the value of --run (or --command) with bash; its other words are no lines.
  if (name === 'nix-shell') return { lines: optionValues(words, ['--run', '--command']), piped: [] };
  if (name !== 'pee') return null;
  return { lines: words.slice(1).filter((word) => !PEE_OPTIONS.has(word)), piped: [] };
}

/** Every value of the long options `names` in `words`, separate or after `=`. */
function optionValues(words: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const eq = word.indexOf('=');
    if (names.includes(word) && i + 1 < words.length) values.push(words[i + 1]!);
    else if (eq > 0 && names.includes(word.slice(0, eq))) values.push(word.slice(eq + 1));
  }
  return values;
}

/**
 * nodemon runs `sh -c "EXEC SCRIPT ARGS…"`: its --exec value (node by default) joined with every
 * word that is none of its own options, wherever it stands (`nodemon --exec rm -rf d` is `rm -rf d`).
 * Each such word is a line too: one with a blank goes in double quotes, where `$(…)` still runs.
 */
function nodemonLines(words: readonly string[]): { lines: string[]; piped: string[] } {
  const command: string[] = [];
  let exec: string | null = null;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') {
      command.push(...words.slice(i + 1));
      break;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const option = eq > 0 ? word.slice(0, eq) : word;
    if (NODEMON_VALUED.has(option)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if ((option === '-x' || option === '--exec') && value !== undefined) exec = value;
    } else if (!NODEMON_FLAGS.has(word)) command.push(word);
  }
  const head = exec === null ? [] : [exec];
  return { lines: [[...head, ...command].join(' '), ...head, ...command].filter((line) => line !== ''), piped: [] };
}

const NODEMON_VALUED: ReadonlySet<string> = new Set(['-x', '--exec', '-w', '--watch', '-i', '--ignore', '-e', '--ext', '-d', '--delay', '-s', '--signal', '-P', '--polling-interval', '--config', '--cwd']);
const NODEMON_FLAGS: ReadonlySet<string> = new Set(['-v', '--version', '-h', '--help', '-q', '--quiet', '-V', '--verbose', '--dump', '-L', '--legacy-watch', '-C', '--on-change-only', '--spawn', '-I', '--no-stdin', '--no-update-notifier', '--exitcrash', '--no-colors', '--no-colours']);

/** `entr -s LINE` hands LINE to $SHELL -c (entr's options are single letters taking no value); without -s entr runs its words as they are. */
function entrLines(words: readonly string[]): { lines: string[]; piped: string[] } | null {
  let i = 1;
  let shell = false;
  for (; i < words.length && words[i]!.startsWith('-') && words[i] !== '-'; i++) {
    if (words[i] === '--') {
      i++;
      break;
    }
    if (/^-[a-z]*s/.test(words[i]!)) shell = true;
  }
  return shell && i < words.length ? { lines: [words[i]!], piped: [] } : null;
}

/**
 * `pueue add [OPTIONS] COMMAND…` joins COMMAND's words into one line that its daemon runs with
 * `sh -c`; pueue's global options (-c/-p take a value) may stand before `add`.
 */
function pueueLines(words: readonly string[]): { lines: string[]; piped: string[] } | null {
  let i = 1;
  while (i < words.length && words[i]!.startsWith('-')) i += PUEUE_GLOBAL_VALUED.has(words[i]!) ? 2 : 1;
  if (words[i] !== 'add') return null;
  for (i++; i < words.length && words[i]!.startsWith('-'); i++) {
    if (words[i] === '--') {
      i++;
      break;
    }
    if (!PUEUE_ADD_VALUED.has(words[i]!)) continue;
    i++;
    // --after takes one or more task ids.
    if (words[i - 1] === '-a' || words[i - 1] === '--after') while (/^\d+$/.test(words[i + 1] ?? '')) i++;
  }
  // pueue joins the words as they are (no quoting): the joined line is exactly what sh reads.
  return { lines: i < words.length ? [words.slice(i).join(' ')] : [], piped: [] };
}

const PUEUE_GLOBAL_VALUED: ReadonlySet<string> = new Set(['-c', '--config', '-p', '--profile']);
const PUEUE_ADD_VALUED: ReadonlySet<string> = new Set(['-w', '--working-directory', '-d', '--delay', '-g', '--group', '-a', '--after', '-o', '--priority', '-l', '--label']);

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
