// What a command may run that no word of it names as a program, for deny rules (shell-rules.ts
// asks before it looks at the words). Each is refused, as a line whose commands cannot be told;
// the strings bash runs for `trap` and `mapfile -C` are handed back to be checked like any script.
//
// - Names and variables bash evaluates or runs (bash-names.ts), and variables that make another
//   program run a command (GIT_SSH_COMMAND, EDITOR, LD_PRELOAD, …) set by `env NAME=…` or `sudo`.
// - Options that run a command line: tar's --checkpoint-action and kin, rg --pre, zip -TT, rsync
//   -e, ssh -o ProxyCommand, make --eval, split --filter, strace -o '|…', gcc -wrapper, and the
//   editors and debuggers with shell escapes (vi, ed, gdb, …): mostly shell-guards.ts's list, which
//   the allowlist holds them to as well.
import path from 'node:path';
import { argumentGuards, COMMAND_LINE_OPTIONS } from './shell-guards.js';
import { isCompilerDriver } from './compiler-guard.js';
import { commandWords, knowsWords } from './shell-opened.js';
import { nameProblem, variableProblem } from './bash-names.js';
import { makeDefinitionScripts } from './make-variables.js';
import { isSshProgram, sshRunningOptions } from './ssh-options.js';

/** Programs that take NAME=VALUE words before their command: each sets the command's environment. */
const SETS_ENVIRONMENT: ReadonlySet<string> = new Set(['env', 'sudo', 'doas']);

/** Programs whose options may run a command line, as shell-guards.ts reads them. */
const GUARDED: ReadonlySet<string> = new Set([
  'tar', 'gtar', 'rg', 'zip', 'rsync', 'vi', 'vim', 'nvim', 'view', 'vimdiff', 'ex', 'ed', 'red', 'nano', 'pico', 'emacs', 'joe',
  ...COMMAND_LINE_OPTIONS,
]);

/** ssh's options (-o NAME=VALUE) that run a local command, and its options that name a program or a configuration file. */
const SSH_COMMAND_OPTIONS = /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|pkcs11provider|securitykeyprovider)\b/i;

const base = (word: string | undefined) => path.posix.basename(word ?? '');

/**
 * Why `argv` (one command) may run what no word of it names, or null. Looked at where a command
 * starts: first, and where a wrapper the tables know runs its command (`nice tar …`, `timeout 5
 * env …`); after a wrapper they do not know (`sudo`), at every word.
 */
export function hiddenRunner(argv: readonly string[], isWrapper: (word: string) => boolean): string | null {
  const starts = new Set([0, ...commandWords(argv).runs]);
  if (isWrapper(argv[0] ?? '') && !knowsWords(argv[0]!)) for (const i of argv.keys()) starts.add(i);
  const line = `'${argv.join(' ')}'`;
  // A D-Bus address that starts a program (`--address=unixexec:path=/bin/x,argv1=…`), in any word.
  const exec = argv.find((word) => /unixexec:/i.test(word));
  if (exec !== undefined) return `in ${line}, '${exec}' is a D-Bus address that runs a program, which cannot be checked`;
  for (const i of starts) {
    const words = argv.slice(i);
    const problem = nameProblem(words) ?? environmentProblem(words) ?? optionProblem(words);
    if (problem !== null) return `in ${line}, ${problem}`;
  }
  return null;
}

/**
 * Values set for a program that it may run as a command line: `env CC='…' make`, `make
 * CC='…'` (make's built-in rules run $(CC)). A value with a blank or a shell character is checked
 * as a script; a plain word (`CC=clang`) is a name, not a line.
 */
export function environmentScripts(argv: readonly string[]): string[] {
  const name = base(argv[0]);
  // make reads more operators than `=`, and runs what `!=` says (make-variables.ts).
  if (name === 'make' || name === 'gmake') return makeDefinitionScripts(argv);
  const settings = SETS_ENVIRONMENT.has(name)
    ? argv.slice(1, Math.max(1, argv.findIndex((word, i) => i > 0 && !word.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))))
    : [];
  return settings.flatMap((word) => {
    const value = /^[A-Za-z_][A-Za-z0-9_]*=(.*)$/s.exec(word)?.[1];
    return value !== undefined && /[\s;&|<>()$`]/.test(value) ? [value] : [];
  });
}

/** The strings bash runs for `trap ACTION SIGNAL…`, `mapfile -C CALLBACK` (also readarray) and `compgen -C COMMAND`. */
export function bashCallbacks(argv: readonly string[]): string[] {
  const name = argv[0];
  if (name === 'trap') {
    const args = argv.slice(1).filter((word) => word !== '--');
    // `trap -p`, `trap -l` print; `trap - SIG` and `trap '' SIG` reset or ignore.
    if (args.length < 2 || args[0]!.startsWith('-')) return [];
    return args[0] === '' ? [] : [args[0]!];
  }
  if (name === 'mapfile' || name === 'readarray') return optionValues(argv, 'dnOsuCc', 'C');
  if (name === 'compgen' || name === 'complete') return optionValues(argv, 'oAGWFCXPSp', 'C');
  return [];
}

/** The values of option `letter` in argv, its short options with values `valued` (a cluster's first valued letter takes the rest of the word, or the next one). */
function optionValues(argv: readonly string[], valued: string, letter: string): string[] {
  const values: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (!word.startsWith('-') || word.startsWith('--')) continue;
    const at = [...word.slice(1)].findIndex((c) => valued.includes(c));
    if (at < 0) continue;
    const value = at === word.length - 2 ? argv[++i] : word.slice(at + 2);
    if (word[at + 1] === letter && value !== undefined) values.push(value);
  }
  return values;
}

/** NAME=VALUE words `env`, `sudo` or `doas` sets for its command, before the command. */
function environmentProblem(words: readonly string[]): string | null {
  if (!SETS_ENVIRONMENT.has(base(words[0]))) return null;
  for (const word of words.slice(1)) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word);
    if (assignment) {
      const problem = variableProblem(assignment[1]!, `'${base(words[0])}' sets`);
      if (problem !== null) return problem;
    } else if (!word.startsWith('-')) break;
  }
  return null;
}

/** An option of an ordinary program that runs a command line. */
function optionProblem(words: readonly string[]): string | null {
  const name = base(words[0]);
  // compgen/complete -W: the word list is expanded as the shell would, command substitutions too.
  if ((name === 'compgen' || name === 'complete') && optionValues(words, 'oAGWFCXPSp', 'W').some((list) => /[$`]/.test(list))) {
    return `'${name} -W' expands its word list, which may run a command substitution that cannot be checked`;
  }
  if (GUARDED.has(name) || isCompilerDriver(name)) {
    const finding = argumentGuards([...words], { outsideWorkspace: () => null }).find((found) => found.kind === undefined);
    return finding ? `${finding.message}, which cannot be checked` : null;
  }
  if (isSshProgram(name)) {
    // In any cluster (`-vo ProxyCommand=…`), as getopt reads it (ssh-options.ts).
    for (const { letter, value = '' } of sshRunningOptions(words)) {
      if (letter === 'o' && SSH_COMMAND_OPTIONS.test(value)) return `'${name} -o ${value.split(/[=\s]/)[0]}' runs a local command, which cannot be checked`;
      if (letter !== 'o') return `'${name} -${letter}' reads a configuration file, a batch file or a library, or runs a program of its choice, which cannot be checked`;
    }
    return null;
  }
  return null;
}
