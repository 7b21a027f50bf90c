// How allow rules match a command: the rule's words, exactly and in order, and with a trailing `*`
// any further arguments, except where the command runs a script no rule's words describe (`bash
// -c '…'`, `eval`, a shell reading its commands from stdin): only an exact rule approves those.
import path from 'node:path';
import type { ShellPattern } from '../recipe/rules.js';
import { isShellName } from './shell-names.js';
import { isWrapper } from './shell-rules.js';
import { envSplitStrings, pipeLines, shellLineOf } from './shell-line-runners.js';

/** Allow rules: exact words, case-sensitive, `*` only as trailing arguments. */
export function allowMatches(argv: readonly string[], pattern: ShellPattern): boolean {
  const { words, trailing } = pattern;
  if (argv.length < words.length || (!trailing && argv.length !== words.length)) return false;
  if (!words.every((word, i) => argv[i] === word)) return false;
  // `bash -c`, `sh -c`, `eval` run a whole script: only an exact rule may allow one.
  return !(trailing && runsScript(argv));
}

/** A rule ending in `*` would match argv but for the script it runs (allowMatches): said in the refusal. */
export function scriptOutsideRule(argv: readonly string[], pattern: ShellPattern): boolean {
  const { words, trailing } = pattern;
  return trailing && argv.length >= words.length && words.every((word, i) => argv[i] === word) && runsScript(argv);
}

/**
 * True when argv runs a script string: `eval ...`, `bash -c ...`, `env -S ...`, `su -c ...`,
 * `flock f -c ...`, `watch ...`, `sudo -s ...`, `mispipe`, `pee`, also behind a
 * wrapper (`env sh -c`), or a script it reads from stdin (`bash`, `sh -s`: `echo '…' | bash` is
 * `bash -c '…'`).
 */
function runsScript(argv: readonly string[]): boolean {
  const programs = isWrapper(argv[0]) ? argv.map(base) : [base(argv[0])];
  return programs.some(
    (program, i) =>
      program === 'eval' ||
      // `env -S 'cat /etc/passwd'`: env splits the string into a command line, as bash -c runs one.
      (program === 'env' && envSplitStrings(argv.slice(i)).length > 0) ||
      // su/sg/runuser/script/flock -c, watch, sudo -s: a line for the shell, one word the path checks
      // take for a name. (ssh's line runs on another machine, where the workspace's paths mean nothing.)
      (program !== 'ssh' && shellLineOf(argv.slice(i)) !== null) ||
      // mispipe and pee run each word with `sh -c`.
      pipeLines(argv.slice(i)) !== null ||
      (isShellName(program) && (argv.slice(i + 1).some(isCommandOption) || (readsScriptFromStdin(argv.slice(i + 1)) && !handedNames(argv.slice(0, i))))) ||
      (program === 'busybox' && isShellName(argv[i + 1])),
  );
}

/** xargs or parallel before it appends the names it reads: those are its operands. */
function handedNames(before: readonly string[]): boolean {
  return before.some((word) => base(word) === 'xargs' || base(word) === 'parallel');
}

/** A shell's words name no script file (options only), or -s says its commands come from stdin; `--version` and `--help` run none. */
function readsScriptFromStdin(words: readonly string[]): boolean {
  if (words.some((word) => word === '--version' || word === '--help')) return false;
  return words.some((word) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(word)) || words.every((word) => word.startsWith('-') || word.startsWith('+'));
}

function isCommandOption(word: string): boolean {
  return /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word) || word === '--command';
}

function base(word: string | undefined): string {
  return word === undefined ? '' : path.posix.basename(word).toLowerCase();
}
