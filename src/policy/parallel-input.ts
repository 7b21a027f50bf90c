// How GNU parallel reads its command and its inputs, for the deny rules (xargs-input.ts does the
// same for xargs). Its command is the words after its options, up to the first `:::`, `::::`,
// `:::+` or `::::+`. Its inputs are the words after `:::` (in the line, where the rules see them),
// the lines of the files after `::::` or given by -a/--arg-file, and otherwise its stdin. Each
// input goes where a replacement string stands ({}, {.}, {1}, {= … =}, or -I's own) or, with none,
// after the command; with no command at all, each input is the command line itself.
import { longOption } from './shell-options.js';

/** Short options whose value is the rest of the word or the next one (as the manual gives them). */
const VALUED = 'aCdEIjLNnPSs';
const FLAGS = '0kqvuXmrtgie';
const VALUED_LONG = [
  '--arg-file', '--colsep', '--delimiter', '--eof', '--replace', '--jobs', '--max-procs', '--max-lines', '--max-args', '--max-replace-args',
  '--sshlogin', '--max-chars', '--sshloginfile', '--slf', '--env', '--joblog', '--results', '--res', '--timeout', '--delay', '--retries', '--halt',
  '--memfree', '--load', '--workdir', '--wd', '--basefile', '--bf', '--return', '--transfer-file', '--tf', '--tagstring', '--tag-string',
  '--header', '--block', '--block-size', '--recstart', '--recend', '--tmpdir', '--trim', '--nice', '--sshdelay', '--termseq', '--memsuspend',
  '--extensionreplace', '--basenamereplace', '--dirnamereplace', '--basenameextensionreplace', '--seqreplace', '--slotreplace',
];
const FLAGS_LONG = [
  '--null', '--keep-order', '--quote', '--verbose', '--ungroup', '--group', '--line-buffer', '--lb', '--bar', '--progress', '--eta',
  '--dry-run', '--dryrun', '--xapply', '--link', '--no-notice', '--will-cite', '--tag', '--shuf', '--no-run-if-empty', '--pipe',
  '--pipepart', '--plain', '--silent', '--tty', '--xargs', '--shellquote', '--csv', '--round-robin', '--rr', '--fg', '--resume',
  '--resume-failed', '--retry-failed', '--files', '--compress', '--ctag', '--keep-order', '--group-by', '--version', '--help',
];

/** The words after which its arguments are inputs: in the line (`:::`) or the lines of files (`::::`). */
const LITERAL = new Set([':::', ':::+']);
const FILES = new Set(['::::', '::::+']);

/** GNU parallel's replacement strings: {}, {.}, {/}, {//}, {/.}, {#}, {%}, {1}, {1.}, {= perl =}. */
const BRACES = /\{(?:=.*?=|[^{}\s]*)\}/;
const ALL_BRACES = new RegExp(BRACES.source, 'g');
/** A word that is one replacement string and nothing else: the input alone. */
export const BARE_REPLACEMENT = new RegExp(`^${BRACES.source}$`);

export interface ParallelCall {
  /** Where its command starts (`end` when it has none: each input is a command line), or null when an option is one it does not know. */
  program: number | null;
  /** Where its command ends: the first separator, or the end of argv. */
  end: number;
  /** -I's string, when given (the braces are always replacement strings too). */
  replace: string | null;
  /** A file whose lines are inputs (after `::::`, or -a), or null. */
  argFile: string | null;
  /** It reads stdin: no `:::`, `::::` or -a gives its inputs. */
  readsStdin: boolean;
}

/** How the parallel at `argv[at]` reads its command and inputs. */
export function readParallel(argv: readonly string[], at: number): ParallelCall {
  let replace: string | null = null;
  let argFile: string | null = null;
  let program: number | null = null;
  let i = at + 1;
  let known = true;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (LITERAL.has(word) || FILES.has(word)) break;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const given = eq < 0 ? word : word.slice(0, eq);
      const name = [...VALUED_LONG, ...FLAGS_LONG].includes(given) ? given : longOption(given, [...VALUED_LONG, ...FLAGS_LONG]);
      if (name === null) {
        known = false;
        break;
      }
      const value = eq < 0 ? (VALUED_LONG.includes(name) ? argv[++i] : undefined) : word.slice(eq + 1);
      if (name === '--replace') replace = value ?? '{}';
      if (name === '--arg-file') argFile ??= value ?? '';
      continue;
    }
    for (let c = 1; c < word.length; c++) {
      const letter = word[c]!;
      if (VALUED.includes(letter)) {
        const value = c === word.length - 1 ? argv[++i] : word.slice(c + 1);
        if (letter === 'I') replace = value ?? '';
        if (letter === 'a') argFile ??= value ?? '';
        break;
      }
      if (!FLAGS.includes(letter)) {
        known = false;
        break;
      }
    }
    if (!known) break;
  }
  if (known) program = i;
  let end = argv.length;
  for (let k = i; k < argv.length; k++) {
    if (LITERAL.has(argv[k]!) || FILES.has(argv[k]!)) {
      end = k;
      break;
    }
  }
  const separators = argv.slice(end);
  const fileAt = separators.findIndex((word) => FILES.has(word));
  if (fileAt >= 0) argFile ??= separators[fileAt + 1] ?? '';
  const readsStdin = argFile === null && !separators.some((word) => LITERAL.has(word));
  return { program: program === null ? null : Math.min(program, end), end, replace, argFile, readsStdin };
}

/** Whether a word of its command holds a replacement string, where each input goes. */
export function holdsReplacement(word: string, replace: string | null): boolean {
  return BRACES.test(word) || (replace !== null && replace !== '' && word.includes(replace));
}

/** The first replacement string in a word, for a reason. */
export function replacementIn(word: string, replace: string | null): string {
  return BRACES.exec(word)?.[0] ?? replace ?? '{}';
}

/** A word with its replacement strings as a plain word, so that the line reads as the shell will run it. */
export function blankReplacements(word: string): string {
  return word.replace(ALL_BRACES, 'INPUT');
}
