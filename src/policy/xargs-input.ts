// What xargs makes of the words it reads. Without a replace string it appends them to its
// command, so when that command is a wrapper given none of its own (`xargs env`, `xargs timeout 5`,
// `xargs sudo`) the words it reads are the program. With one (`-I X`, `-i`, `--replace`, BSD
// `-J X`) it puts each line where the string stands, which may be the program (`xargs -I X X -rf d`)
// or a script (`xargs -I X sh -c X`). Options as GNU's manual and BSD's give them.
import path from 'node:path';
import { longOption } from './shell-options.js';
import { wrapperCommand } from './shell-bare-wrappers.js';
import { commandWords, knowsWords } from './shell-opened.js';
import { BARE_REPLACEMENT, blankReplacements, holdsReplacement, readParallel, replacementIn } from './parallel-input.js';

/** Letters whose value is the rest of the word or the next one, letters whose value must be attached, and flags. */
const VALUED = 'adEILnPsJRS';
const ATTACHED = 'eil';
const FLAGS = '0oprtx';
const VALUED_LONG = ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'];
const FLAGS_LONG = ['--null', '--open-tty', '--interactive', '--no-run-if-empty', '--verbose', '--exit', '--show-limits', '--eof', '--replace', '--max-lines'];

export interface XargsCall {
  /** The index of the program it runs (argv.length when none: it runs echo), or null when an option is one it does not know. */
  program: number | null;
  /** The string each line it reads replaces, or null when it appends the words instead. */
  replace: string | null;
  /** BSD's -J: the words it reads go where the string stands as words of their own. */
  words: boolean;
  /** The file it reads instead of stdin (`-a f`), or null. */
  argFile: string | null;
  /** -0 (--null): names end at a NUL, and blanks, quotes and backslashes are name characters. */
  nul: boolean;
}

/** How the xargs at `argv[at]` reads its words and where its program stands. */
export function readXargs(argv: readonly string[], at: number): XargsCall {
  let replace: string | null = null;
  let argFile: string | null = null;
  let words = false;
  let nul = false;
  const call = (program: number | null): XargsCall => ({ program, replace, words, argFile, nul });
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return call(i + 1);
    if (!word.startsWith('-') || word === '-') return call(i);
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const given = eq < 0 ? word : word.slice(0, eq);
      const name = [...VALUED_LONG, ...FLAGS_LONG].includes(given) ? given : longOption(given, [...VALUED_LONG, ...FLAGS_LONG]);
      if (name === null) return call(null);
      const value = eq < 0 ? (VALUED_LONG.includes(name) ? argv[++i] : undefined) : word.slice(eq + 1);
      if (name === '--replace') [replace, words] = [value ?? '{}', false];
      if (name === '--arg-file') argFile = value ?? '';
      if (name === '--null') nul = true;
      continue;
    }
    for (let c = 1; c < word.length; c++) {
      const letter = word[c]!;
      if (VALUED.includes(letter)) {
        const value = c === word.length - 1 ? argv[++i] : word.slice(c + 1);
        if (letter === 'I' || letter === 'J') replace = value ?? '';
        if (letter === 'I' || letter === 'J') words = letter === 'J';
        if (letter === 'a') argFile = value ?? '';
        break;
      }
      if (ATTACHED.includes(letter)) {
        if (letter === 'i') [replace, words] = [word.slice(c + 1) || '{}', false];
        break;
      }
      if (!FLAGS.includes(letter)) return call(null);
      if (letter === '0') nul = true;
    }
  }
  return call(argv.length);
}

/**
 * The commands xargs's program runs, in order: the program, then the command each wrapper in
 * front of it is given (`xargs timeout 5 nice grep` yields timeout, nice, grep). `open` is true
 * when the last is a wrapper given no command of its own, or one whose words are not known (then
 * the words xargs adds may be its command), unless a program that never runs its words follows.
 */
export function xargsCommands(
  argv: readonly string[],
  program: number,
  isWrapper: (word: string) => boolean,
  isText: (word: string) => boolean,
): { starts: number[]; open: boolean } {
  const starts: number[] = [];
  let at = program;
  while (at < argv.length) {
    starts.push(at);
    if (!isWrapper(argv[at]!)) return { starts, open: false };
    const next = wrapperNext(argv, at);
    if (next === null) {
      // A fixed program after it, one that never runs its words, is its command.
      const known = argv.findIndex((word, i) => i > at && isText(word));
      if (known < 0) return { starts, open: true };
      at = known;
    } else at = next;
  }
  return { starts, open: starts.length > 0 };
}

/** Where the command a wrapper runs starts, by its grammar; null when it has none or its grammar is not known. */
function wrapperNext(argv: readonly string[], at: number): number | null {
  const words = argv.slice(at);
  const name = path.posix.basename(argv[at]!);
  if (name !== 'xargs' && knowsWords(name)) {
    const runs = commandWords(words).runs[0];
    return runs === undefined ? null : at + runs;
  }
  if (name === 'xargs') {
    const inner = readXargs(argv, at).program;
    return inner === null || inner >= argv.length ? null : inner;
  }
  const command = wrapperCommand(words);
  return command === null ? null : at + command;
}

/** The program that hands its command the words it reads. */
type Reader = 'xargs' | 'parallel';

/** What the xargs and GNU parallel commands of one argv do with the words they read. */
export interface XargsReading {
  /** The words from an xargs or parallel on, when it has an option it does not know: what it runs cannot be told. */
  unknownOption: { reader: Reader; words: string; argFile: string | null } | null;
  /** A wrapper given no command that the words are appended to (`timeout 5`), and where they come from when not stdin. */
  wrapperGivenNone: { reader: Reader; words: string; argFile: string | null } | null;
  /** A word holding the replace string where it may be a command line (`sh -c X`, `env -S X`, `su -c X`). */
  script: { reader: Reader; word: string; replace: string } | null;
  /** Tails that start at a word holding the replace string, which may be any program; `openEnded` when a later word may supply options. */
  anyProgram: Array<{ reader: Reader; at: number; end?: number; openEnded: boolean }>;
  /** A parallel given no command, whose inputs from a file are the command lines it runs. */
  linesAreCommands: { words: string; argFile: string } | null;
  /** parallel's command, which it runs with the shell: checked as a command line. */
  shellLines: string[];
}

/** How every xargs before `text` (where argv's words are only text) feeds its command. */
export function readXargsCalls(
  argv: readonly string[],
  text: number,
  is: { wrapper: (word: string) => boolean; shell: (word: string) => boolean; text: (word: string) => boolean },
): XargsReading {
  const reading: XargsReading = { unknownOption: null, wrapperGivenNone: null, script: null, anyProgram: [], linesAreCommands: null, shellLines: [] };
  for (let at = 0; at < text; at++) {
    const name = path.posix.basename(argv[at]!).toLowerCase();
    if (name === 'parallel') readParallelCall(argv, at, text, is, reading);
    if (name !== 'xargs') continue;
    const call = readXargs(argv, at);
    if (call.program === null) {
      reading.unknownOption ??= { reader: 'xargs', words: argv.slice(at).join(' '), argFile: null };
      continue;
    }
    if (call.program >= argv.length) continue; // it runs echo
    const { starts, open } = xargsCommands(argv, call.program, is.wrapper, is.text);
    const last = starts[starts.length - 1]!;
    if (call.replace === null) {
      // A shell given no script reads the pipe, as shell-rules.ts already tells.
      if (open && !is.shell(argv[last]!)) reading.wrapperGivenNone ??= { reader: 'xargs', words: argv.slice(last).join(' '), argFile: call.argFile };
      continue;
    }
    const replace = call.replace;
    if (replace === '') continue;
    for (let i = call.program; i < Math.min(text, argv.length); i++) {
      const word = argv[i]!;
      if (!word.includes(replace)) continue;
      // A wrapper's own word (`env -S X`, `su -c X`), a shell's operand, or a -c string may be a command line.
      const wrapperWord = i < last || (open && i > last);
      const commandLine = /^--?(c|command|call)(=|$)/.test(argv[i - 1] ?? '') || /^--(command|call)=/.test(word);
      if (wrapperWord || (i > last && (is.shell(argv[last]!) || path.posix.basename(argv[last]!) === 'eval')) || commandLine) {
        reading.script ??= { reader: 'xargs', word, replace };
        continue;
      }
      // The whole line takes its place, as one word: a later word holding it supplies options only
      // when this one is not the line alone (`Xm -Xf`). BSD's -J puts every word read there.
      const openEnded = call.words || (word !== replace && argv.slice(i + 1).some((later) => later.includes(replace)));
      reading.anyProgram.push({ reader: 'xargs', at: i, openEnded });
    }
  }
  return reading;
}

/**
 * GNU parallel, read into `reading` as xargs is: where its inputs go, and what of them the rules
 * cannot see. Inputs after `:::` are words of the line, which the rules already try as commands;
 * those from a file or stdin are not. Unlike xargs, parallel runs its command with the shell.
 */
function readParallelCall(
  argv: readonly string[],
  at: number,
  text: number,
  is: { wrapper: (word: string) => boolean; shell: (word: string) => boolean; text: (word: string) => boolean },
  reading: XargsReading,
): void {
  const call = readParallel(argv, at);
  const unseen = call.argFile !== null || call.readsStdin;
  if (call.program === null) {
    if (unseen) reading.unknownOption ??= { reader: 'parallel', words: argv.slice(at).join(' '), argFile: call.argFile };
    return;
  }
  const own = argv.slice(0, Math.min(call.end, text));
  if (call.program >= own.length) {
    // No command: each input is a command line. From stdin, shell-rules.ts tells it as a bare shell.
    if (call.argFile !== null) reading.linesAreCommands ??= { words: argv.slice(at, call.program).join(' '), argFile: call.argFile };
    return;
  }
  // Without -q it joins its command's words into a line for the shell (`parallel echo '$(x)' ::: a`
  // runs x): the line is checked as one, its replacement strings as plain words.
  if (!argv.slice(at + 1, call.program).some((word) => /^-[a-zA-Z0-9]*q/.test(word) || word === '--quote')) {
    reading.shellLines.push(own.slice(call.program).map(blankReplacements).join(' '));
  }
  if (!unseen) return;
  const { starts, open } = xargsCommands(own, call.program, is.wrapper, is.text);
  const last = starts[starts.length - 1]!;
  const holding = own.map((word, i) => i >= call.program! && holdsReplacement(word, call.replace));
  if (!holding.some(Boolean)) {
    // Appended: to a wrapper given none they are its command, to a shell (`bash -c`) its script.
    if (open && !is.shell(own[last]!)) reading.wrapperGivenNone ??= { reader: 'parallel', words: own.slice(last).join(' '), argFile: call.argFile };
    else if (is.shell(own[last]!)) reading.script ??= { reader: 'parallel', word: own.slice(last).join(' '), replace: '' };
    return;
  }
  for (let i = call.program; i < own.length; i++) {
    if (!holding[i]) continue;
    const word = own[i]!;
    const wrapperWord = i < last || (open && i > last);
    const commandLine = /^--?(c|command|call)(=|$)/.test(own[i - 1] ?? '') || /^--(command|call)=/.test(word);
    if (wrapperWord || (i > last && (is.shell(own[last]!) || path.posix.basename(own[last]!) === 'eval')) || commandLine) {
      reading.script ??= { reader: 'parallel', word, replace: replacementIn(word, call.replace) };
      continue;
    }
    // A word with spaces is a line for the shell, which shellLines checks, its inputs quoted as
    // words; unless one stands where a command starts (`'{} -rf d'`, `'cd x; {}'`).
    if (/\s/.test(word)) {
      if (/(?:^|[;&|()`\n]|\$\()\s*\{/.test(word)) reading.script ??= { reader: 'parallel', word, replace: replacementIn(word, call.replace) };
      continue;
    }
    // As for xargs: a later word holding one supplies options only when this one is not the input alone.
    const openEnded = !BARE_REPLACEMENT.test(word) && own.slice(i + 1).some((later) => holdsReplacement(later, call.replace));
    reading.anyProgram.push({ reader: 'parallel', at: i, end: own.length, openEnded });
  }
}
