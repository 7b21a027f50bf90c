// How commands match shell rule patterns (compiled by recipe/rule-shell.ts). A pattern is one
// literal command, optionally ending in `*`: `git diff *` matches argv that starts with the words
// `git diff`; `npm test` matches exactly that argv.
import path from 'node:path';
import type { ShellPattern } from '../recipe/rules.js';
import { analyzeShellCommand, type ShellAnalysis } from './shell-analyze.js';
import { meaningCovers, readMeaning, type Meaning } from './shell-meaning.js';
import { optionValues } from './shell-options.js';
import { gitScripts, gitSubcommandAt } from './git-scripts.js';
import { misplacedSubmoduleValue, withSubmoduleValues } from './git-submodule-variables.js';
import { startsShellWithoutCommand } from './shell-bare-wrappers.js';
import { blankReplacements } from './parallel-input.js';
import { envSplitStrings, shellLineOf, terminalHandOver } from './shell-line-runners.js';
import { bashCallbacks, environmentScripts, hiddenRunner } from './shell-hidden-runners.js';
import { isShellName, isShellProgram, runsCommandLineOption } from './shell-names.js';
import { npmCallStrings, npxOperand } from './npm-calls.js';
import { firstTextWord, neverRunsItsWords } from './shell-text-words.js';
import { runsItsData } from './shell-data-commands.js';
import { readXargsCalls } from './xargs-input.js';
import { fdExecAt, findMayPassOptions, foundPrograms } from './find-exec.js';
import { foreignBackslash } from './foreign-grammars.js';
import { makeRecipeShell } from './make-variables.js';

export type { ShellPattern } from '../recipe/rules.js';

/**
 * Programs known to run another command given in their arguments, as words or as a script string.
 * They are never trusted implicitly (only a rule that names them matches). For deny rules the list
 * is not what makes a wrapper: any word naming the rule's program starts a command the rule is
 * tried on (denyMatch), and a word naming one of these, wherever it stands, starts a command whose
 * script strings and stdin are checked (commandsForDeny), so `X Y sh -c '…'` is `sh -c '…'`.
 */
export const WRAPPERS: ReadonlySet<string> = new Set([
  'env', 'command', 'builtin', 'exec', 'eval', 'source', '.', 'xargs', 'timeout', 'nice', 'nohup',
  'setsid', 'stdbuf', 'sudo', 'doas', 'su', 'runuser', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh',
  'fish', 'csh', 'tcsh', 'busybox', 'time', 'watch', 'parallel', 'chroot', 'unshare', 'nsenter',
  'flock', 'ionice', 'chrt', 'taskset', 'script', 'systemd-run', 'strace', 'ltrace', 'xvfb-run',
  'caffeinate', 'arch', 'find', 'coproc', 'prlimit', 'setarch', 'linux32', 'linux64', 'i386',
  'x86_64', 'choom', 'fakeroot', 'sg', 'newgrp', 'ssh', 'pkexec', 'numactl', 'cgexec', 'firejail',
  'bwrap', 'proot', 'unbuffer', 'faketime', 'valgrind', 'torsocks', 'proxychains', 'proxychains4',
]);

/**
 * Bash builtins that only print their words: `echo rm -rf /` runs nothing. Named bare, as bash
 * runs its builtin then; `/bin/echo` is any program.
 */
const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf']);

/** A command as deny rules see it; `openEnded` when stdin or file names supply more words (xargs, find -exec). */
export interface DenyCandidate {
  argv: string[];
  openEnded: boolean;
  /** Its first word is text xargs or parallel reads (`xargs -I X X -rf d`), so it may name any program: which reads it. */
  anyProgram?: 'xargs' | 'parallel' | 'find';
}

/**
 * Deny rules match generously: case-insensitively, on the program's base name, with other
 * arguments in between (`git -C . push origin` matches `git push *`), on the program alone
 * when the remaining words are unknown, and the caller also tries every command a wrapper
 * would run (see commandsForDeny).
 */
export function denyMatches(candidate: DenyCandidate, pattern: ShellPattern): boolean {
  return denyMatch(candidate, pattern) !== null;
}

/**
 * The command a deny rule refuses in `candidate`, or null. Any program may run the words after it
 * (`prlimit`, `setarch x86_64`, a dynamic loader, one nobody listed), so the rule is tried on
 * every tail that starts at a word naming its program: `X Y rm -rf d` is checked as `rm -rf d`,
 * whatever X and Y are. A tail after `xargs`, `find`, `parallel` gets more words than it shows.
 */
export function denyMatch(candidate: DenyCandidate, pattern: ShellPattern, where: 'whole' | 'tails' | 'both' = 'both'): DenyCandidate | null {
  const program = (pattern.words[0] ?? '').toLowerCase();
  const { argv } = candidate;
  const printsOnly = PRINTERS.has(argv[0] ?? '');
  let openEnded = candidate.openEnded;
  const last = where === 'whole' ? 1 : argv.length;
  for (let i = 0; i < last; i++) {
    if (i === 0 ? where !== 'tails' : !printsOnly && base(argv[i]) === program) {
      const tail: DenyCandidate = { argv: argv.slice(i), openEnded, ...(i === 0 && candidate.anyProgram ? { anyProgram: candidate.anyProgram } : {}) };
      if (literalDenyMatch(tail, pattern) || meaningDenyMatch(tail, pattern)) return tail;
    }
    if (feedsMoreWords(argv, i)) openEnded = true;
  }
  return null;
}

/**
 * The rule's words appear in order, whatever else is around them; case-insensitively, except for
 * options, whose case is their meaning (`git branch -d` is not `-D`; synonyms across case, such as
 * `rm -R` for `-r`, are the option table's business).
 */
function literalDenyMatch(candidate: DenyCandidate, pattern: ShellPattern): boolean {
  const fold = (word: string) => (word.startsWith('-') ? word : word.toLowerCase());
  const [first, ...rest] = pattern.words.map(fold);
  const [program, ...args] = candidate.argv.map((word, i) => (i === 0 ? word.toLowerCase() : fold(word)));
  if (program === undefined || (!candidate.anyProgram && path.posix.basename(program) !== first)) return false;
  if (candidate.openEnded) return true;
  let at = 0;
  for (const word of rest) {
    at = args.indexOf(word, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** The command means at least what the rule's words mean (`rm -vrf` is `rm -rf`). */
function meaningDenyMatch(candidate: DenyCandidate, pattern: ShellPattern): boolean {
  const rule = ruleMeaning(pattern);
  const argv = candidate.anyProgram ? [pattern.words[0] ?? '', ...candidate.argv.slice(1)] : candidate.argv;
  const command = readMeaning(argv, 'command');
  return rule !== null && command !== null && meaningCovers(command, rule);
}

const ruleMeanings = new WeakMap<ShellPattern, Meaning | null>();

function ruleMeaning(pattern: ShellPattern): Meaning | null {
  if (!ruleMeanings.has(pattern)) ruleMeanings.set(pattern, readMeaning(pattern.words, 'rule'));
  return ruleMeanings.get(pattern)!;
}

/** A program that runs other commands: a listed wrapper or any shell (`bash5.2`, `ash`). */
export function isWrapper(word: string | undefined): boolean {
  return WRAPPERS.has(base(word)) || isShellName(word);
}

function base(word: string | undefined): string {
  return word === undefined ? '' : path.posix.basename(word).toLowerCase();
}

/** `hash -p` or `enable -f` (the option as given), which make a name run other code, or null. */
function renamesProgram(argv: readonly string[]): string | null {
  const program = base(argv[0]);
  const letter = program === 'hash' ? 'p' : program === 'enable' ? 'f' : null;
  if (letter === null) return null;
  for (const word of argv.slice(1)) {
    if (word === '--' || !word.startsWith('-')) break;
    if (word.slice(1).includes(letter)) return `${program} ${word}`;
  }
  return null;
}

/** Wrappers whose command gets further words from stdin or from file names. */
const OPEN_ENDED: ReadonlySet<string> = new Set(['xargs', 'parallel', 'find']);

/** argv[i] hands its command words that may be options: xargs's and parallel's input, find's and fd's names where they may start with '-'. */
function feedsMoreWords(argv: readonly string[], i: number): boolean {
  return (OPEN_ENDED.has(base(argv[i])) && (base(argv[i]) !== 'find' || findMayPassOptions(argv, i))) || fdExecAt(argv, i);
}

/**
 * Every command a command may run, for deny rules: itself, each tail after a wrapper (`timeout 5
 * git push` also yields `git push`), and the commands inside script strings (given to shells and
 * eval, or any word with a space, which `env -S`, `watch`, `su -c`, `sg -c` run as a command
 * line). The first word naming a wrapper starts what is checked so, wherever it stands
 * (`X sh -c '…'`). A script that cannot be reduced to literal commands makes the whole command
 * unevaluable. Before any wrapper, or with none, a `-c`/`--command` string is checked too when it
 * reads as a command line, but one that does not (`python3 -c 'print(1)'`) is left alone.
 */
export async function commandsForDeny(
  argv: readonly string[],
  depth = 0,
  stdin: StdinSource = NO_STDIN,
): Promise<{ ok: true; candidates: DenyCandidate[] } | { ok: false; reason: string }> {
  if (depth > 8) return { ok: false, reason: 'it nests shells and wrappers too deeply' };
  // An alias runs a command under another name (`alias r='rm -rf'; r d`, with expand_aliases on).
  if (base(argv[0]) === 'alias') return { ok: false, reason: 'it defines a shell alias, under whose name a later command runs something the deny rules cannot see' };
  // So do `hash -p /bin/rm grep` (bash runs /bin/rm for a later `grep`) and `enable -f lib.so grep`
  // (a builtin loaded from a file).
  const renames = renamesProgram(argv);
  if (renames) return { ok: false, reason: `it binds a program's name to other code (${renames}), under which a later command runs something the deny rules cannot see` };
  // GNU coreutils' multi-call binary runs the program its option names: `coreutils
  // --coreutils-prog=rm x` is `rm x`, checked as such (with the option its own word, the tails see it).
  const multiCall = argv.findIndex((word, i) => base(argv[i - 1]) === 'coreutils' && /^--coreutils-prog(?:-shebang)?=./.test(word));
  if (multiCall > 0) {
    const named = await commandsForDeny([argv[multiCall]!.replace(/^[^=]*=/, ''), ...argv.slice(multiCall + 1)], depth + 1, stdin);
    if (!named.ok) return named;
    const own = await commandsForDeny([...argv.slice(0, multiCall), ...argv.slice(multiCall + 1)], depth + 1, stdin);
    return own.ok ? { ok: true, candidates: [{ argv: [...argv], openEnded: false }, ...named.candidates, ...own.candidates] } : own;
  }
  const hidden = hiddenRunner(argv, isWrapper);
  if (hidden !== null) return { ok: false, reason: hidden };
  const candidates: DenyCandidate[] = [{ argv: [...argv], openEnded: false }, ...gitSpelledOtherwise(argv)];
  const add = async (script: string, strict: boolean, fedBy: StdinSource = NO_STDIN) => {
    const analysis = await analyzeShellCommand(script);
    if (!analysis.ok) return strict ? { ok: false as const, reason: `the script '${script}' inside it cannot be checked: ${analysis.reason}` } : null;
    const nested = await deniableCommands(analysis, depth + 1, fedBy);
    if (!nested.ok) return strict ? nested : null;
    candidates.push(...nested.candidates);
    return null;
  };
  // trap's action, mapfile's and compgen's callbacks, and values set for a program are scripts it may run.
  for (const script of [...bashCallbacks(argv), ...environmentScripts(argv)]) {
    const failed = await add(script, true, stdin);
    if (failed) return failed;
  }
  // `make SHELL=rm .SHELLFLAGS=-rf` runs each recipe line as `rm -rf LINE`, also behind a wrapper.
  for (const i of argv.keys()) {
    const recipeShell = makeRecipeShell(argv.slice(i));
    if (recipeShell !== null) candidates.push(recipeShell);
  }
  if (PRINTERS.has(argv[0] ?? '')) return { ok: true, candidates };
  // git hands some of its words to sh (aliases, pagers, `rebase -x`, `submodule foreach`), also
  // behind any program that runs the words after it (`nice git -c alias.x='!…' x`).
  for (const [i, word] of argv.entries()) {
    if (base(word) !== 'git') continue;
    const found = gitScripts(argv.slice(i));
    if (!found.ok) return found;
    for (const script of found.scripts) {
      // foreach's $name, $sm_path, ... are words of their own, which only echo and printf may print.
      const values = script.submoduleVariables ? withSubmoduleValues(script.text) : { text: script.text, replaced: false };
      const analysis = await analyzeShellCommand(values.text);
      if (!analysis.ok) {
        if (!script.strict) continue;
        return { ok: false, reason: `${script.source} runs '${script.text}' with the shell, and it cannot be checked: ${analysis.reason}; write it as plain commands` };
      }
      const misplaced = values.replaced ? misplacedSubmoduleValue(analysis) : null;
      if (misplaced !== null) {
        return { ok: false, reason: `${script.source} runs '${script.text}' with the shell, and in '${misplaced}' a submodule's name or path (from .gitmodules) may be a command, an option or a file name, which cannot be checked; only echo or printf may print one` };
      }
      const nested = await deniableCommands(analysis, depth + 1, stdin);
      if (nested.ok) candidates.push(...nested.candidates);
      else if (script.strict) return nested;
    }
  }
  // After a program that never runs its words (`grep ash`, `xargs grep -l su`), no word is a program.
  const text = firstTextWord(argv);
  const start = argv.findIndex((word, i) => i < text && (isWrapper(word) || (i === 0 && isShellProgram(word))));
  const before = start < 0 ? argv : argv.slice(0, start);
  // sed's `e` and sort's --compress-program run text of their data, wherever they stand.
  for (let i = 0; i < text; i++) {
    const problem = runsItsData(argv.slice(i));
    if (problem !== null) return { ok: false, reason: `in '${argv.join(' ')}', ${problem}` };
  }
  const fed = await xargsInput(argv, text, stdin, candidates, add);
  for (const { at, end } of foundPrograms(argv, text, isWrapper)) candidates.push({ argv: argv.slice(at, end), openEnded: false, anyProgram: 'find' });
  if (fed !== null) return fed;
  // Before any wrapper, a `-c` string is checked when it reads as a command line; a shell's
  // (`rc -c`, `ash -c`) must read so, or the command is refused.
  const runner = runsCommandLineOption(argv);
  for (const script of commandStrings(runner ? argv : before, runner)) {
    const failed = await add(script, runner);
    if (failed) return failed;
  }
  // npm's own -c/--call, wherever npx or npm stands (`nice npx --call '…'`), must read as plain commands.
  for (let i = 0; i < text; i++) {
    for (const script of npmCallStrings(argv.slice(i))) {
      const failed = await add(script, true, stdin);
      if (failed) return failed;
    }
  }
  // Where a command starts (first, or after a wrapper's name): what tmux, screen, at, batch, mispipe and pee hand over.
  for (let i = 0; i < text; i++) {
    // After a wrapper's name, or where npx's program starts (`npx -y nodemon --exec '…'`).
    if (i > 0 && !WRAPPERS.has(base(argv[i - 1])) && !argv.slice(0, i).some((_w, k) => (k === 0 || WRAPPERS.has(base(argv[k - 1]))) && k + npxOperand(argv.slice(k)) === i)) continue;
    const handed = terminalHandOver(argv.slice(i));
    if (handed === null) continue;
    if ('uncheckable' in handed) return { ok: false, reason: handed.uncheckable };
    for (const line of handed.lines) {
      // mispipe's second command reads the first one's output: a shell there reads a pipe.
      const failed = await add(line, true, handed.piped?.includes(line) ? { texts: [], piped: true, file: null } : stdin);
      if (failed) return failed;
    }
  }
  if (start < 0) return { ok: true, candidates };
  const wrapped = argv.slice(start);
  const openEnded = wrapped.some((_word, i) => feedsMoreWords(wrapped, i));
  for (let i = 1; i < wrapped.length; i++) candidates.push({ argv: wrapped.slice(i), openEnded });
  const scripts = new Set<string>();
  // Who splits a script other than a shell (env -S, or a program nobody knows); what a shell reads is in `byShell`.
  const splitBy = new Map<string, string>();
  const byShell = new Set<string>();
  let readsStdin = false;
  let descriptorScript: string | null = null;
  /** A wrapper given no command (`setarch x86_64`), whose shell reads stdin; where a wrapper may stand, not wherever its name does (`grep x86_64`). */
  let bare: string | null = null;
  let bareIsFirst = false;
  for (const [i, word] of wrapped.entries()) {
    if (start + i >= text) break;
    const name = base(word);
    if (bare === null && (start === 0 || i > 0) && startsShellWithoutCommand(wrapped.slice(i))) {
      bare = wrapped.slice(i).join(' ');
      bareIsFirst = start + i === 0;
    }
    if (i > 0 && /\s/.test(word)) {
      // After parallel, {} and its kin are where its (quoted) inputs go: words, not brace syntax.
      const script = wrapped.slice(0, i).some((before) => base(before) === 'parallel') ? blankReplacements(word) : word;
      scripts.add(script);
      splitBy.set(script, `'${wrapped.slice(0, i).join(' ')}' (any program may take a word as a command line)`);
      // An option with its script attached (`env -S'rm -rf d'`, `-vS…`, `--split-string=…`): the
      // script may start after the `=` or after any letter of a short-option cluster.
      if (word.startsWith('-')) {
        const { assigned, clustered } = optionValues(word);
        for (const value of [...(assigned === null ? [] : [assigned]), ...clustered]) {
          if (!/\s/.test(value)) continue;
          scripts.add(value);
          splitBy.set(value, `'${wrapped.slice(0, i + 1).join(' ')}' (any program may take a word as a command line)`);
        }
      }
    }
    const shellReads = (script: string) => {
      scripts.add(script);
      byShell.add(script);
    };
    if (name === 'eval') shellReads(wrapped.slice(i + 1).join(' '));
    const line = shellLineOf(wrapped.slice(i));
    if (line !== null) shellReads(line);
    for (const split of envSplitStrings(wrapped.slice(i))) {
      scripts.add(split);
      splitBy.set(split, 'env -S');
    }
    // rc, es and nu are shells where a command starts: first, or right after a wrapper's name (`env rc`).
    if (isShellName(word) || (isShellProgram(word) && (start + i === 0 || WRAPPERS.has(base(wrapped[i - 1]))))) {
      const operands = wrapped.slice(i + 1).filter((arg) => !arg.startsWith('-'));
      for (const arg of operands) shellReads(arg);
      descriptorScript ??= operands.find(namesDescriptor) ?? null;
      // A shell without a script reads its commands from stdin (`-s` says so explicitly).
      if (operands.length === 0 || wrapped.slice(i + 1).some((arg) => /^-[a-z]*s/.test(arg))) readsStdin = true;
    }
    if (name === 'source' || name === '.') {
      const file = wrapped.slice(i + 1).find((arg) => arg !== '--');
      if (file !== undefined && namesDescriptor(file)) descriptorScript ??= file;
    }
  }
  // Its stdin or another open descriptor, by a file name: whatever feeds it, nobody can tell what runs.
  if (descriptorScript !== null) {
    return { ok: false, reason: `${runs(argv, start)} the script it reads from '${descriptorScript}' (stdin or another open descriptor), which cannot be checked` };
  }
  if (readsStdin || bare !== null) {
    const subject = readsStdin ? runs(argv, start) : `'${bare}' is given no command, so the shell it starts runs`;
    // Further in, the name may be text (`xargs grep su`): say how to write that too.
    const program = base(bare?.split(' ')[0]);
    const text = bareIsFirst ? '' : `, or if '${program}' is text here, not a program, write it so that it is not the bare name ('[${program[0]}]${program.slice(1)}')`;
    const instead = readsStdin ? '' : `; name the command it should run after it (a script file: '${bare} bash FILE')${text}`;
    if (stdin.piped) return { ok: false, reason: `${subject} commands it reads from a pipe, which cannot be checked${instead}` };
    if (stdin.file !== null) return { ok: false, reason: `${subject} commands it reads from a file on its stdin ('${stdin.file}'), which cannot be checked${instead}` };
    // The texts are checked whole here; a shell inside them reads what is left of them.
    for (const text of stdin.texts) {
      const failed = await add(text, true, { ...stdin, texts: [] });
      if (failed) return failed;
    }
  }
  for (const script of scripts) {
    const reader = byShell.has(script) ? undefined : splitBy.get(script);
    const foreign = reader === undefined ? null : foreignBackslash(script, reader);
    if (foreign !== null) return { ok: false, reason: foreign };
    // `sh -c`, `eval`, `su -c` scripts read the stdin their runner was given: `… | sh -c 'sh -s'`.
    const failed = await add(script, true, stdin);
    if (failed) return failed;
  }
  return { ok: true, candidates };
}

/**
 * What xargs does with the words it reads: appended to a wrapper given no command of its own
 * (`xargs env`, `xargs timeout 5`), they are the command, and put in place of a replace string
 * (`-I X`) they may be the program or a command line. The first is refused when the words come
 * from a pipe or a file and checked when from a heredoc; the second is tried against the rules
 * as any program, or refused where it may be a command line. Null when nothing is refused.
 */
async function xargsInput(
  argv: readonly string[],
  text: number,
  stdin: StdinSource,
  candidates: DenyCandidate[],
  add: (script: string, strict: boolean) => Promise<{ ok: false; reason: string } | null>,
): Promise<{ ok: false; reason: string } | null> {
  const reading = readXargsCalls(argv, text, { wrapper: isWrapper, shell: isShellName, text: neverRunsItsWords });
  const line = `'${argv.join(' ')}'`;
  const source = stdin.piped ? 'a pipe' : stdin.file !== null ? `a file on its stdin ('${stdin.file}')` : null;
  const unknown = reading.unknownOption;
  const unknownFrom = unknown?.argFile != null ? `the file '${unknown.argFile}'` : source;
  if (unknown !== null && unknownFrom !== null) {
    return { ok: false, reason: `in ${line}, '${unknown.words}' has an option ${unknown.reader} does not know, so which program runs the words it reads from ${unknownFrom} cannot be told; write ${unknown.reader}'s options as its manual gives them` };
  }
  if (reading.script !== null) {
    const { reader, word, replace } = reading.script;
    if (replace === '') return { ok: false, reason: `in ${line}, ${reader} hands each line it reads to '${word}' as its script, which cannot be checked; write the script in the line and give it the line as an argument` };
    return { ok: false, reason: `in ${line}, ${reader} puts each line it reads in place of '${replace}' in '${word}', which may run it as a command line that cannot be checked; give the line to the program itself as an argument ('${reader} -I ${replace} grep foo ${replace}')` };
  }
  const lines = reading.linesAreCommands;
  if (lines !== null) {
    return { ok: false, reason: `in ${line}, '${lines.words}' is given no command, so each line it reads from the file '${lines.argFile}' is a command line it runs, which cannot be checked; name the command it should run after it ('parallel grep foo :::: ${lines.argFile}')` };
  }
  for (const script of reading.shellLines) {
    const failed = await add(script, true);
    if (failed) return failed;
  }
  for (const { reader, at, end, openEnded } of reading.anyProgram) candidates.push({ argv: argv.slice(at, end), openEnded, anyProgram: reader });
  const given = reading.wrapperGivenNone;
  if (given !== null) {
    const from = given.argFile !== null ? `the file '${given.argFile}'` : source;
    const instead = `; name the command it should run after it ('${given.reader} ${given.words} grep foo')`;
    if (from !== null) return { ok: false, reason: `in ${line}, '${given.words}' is given no command, so the words ${given.reader} reads from ${from} are the command it runs, which cannot be checked${instead}` };
    for (const text of stdin.texts) {
      const foreign = foreignBackslash(text, given.reader);
      if (foreign !== null) return { ok: false, reason: `in ${line}, ${foreign}` };
      const failed = await add(text, true);
      if (failed) return failed;
    }
  }
  return null;
}

/**
 * A file name for stdin or another descriptor, as a script: `/dev/stdin`, `/dev/fd/0`,
 * `/proc/self/fd/0`, `/proc/1/fd/0`, anything else under /dev or /proc, and what names one
 * from another directory (`cd /dev && bash stdin`, `cd /proc/self/fd && sh 0`).
 */
function namesDescriptor(word: string): boolean {
  const name = path.posix.normalize(word);
  return /^\/(dev|proc)\//.test(name) || /(^|\/)(stdin|\d+)$/.test(name);
}

/** The subject of a reason: `'sudo sh' runs`, or for a wrapper further in, `'grep sh' may run 'sh', which runs`. */
function runs(argv: readonly string[], start: number): string {
  const line = `'${argv.join(' ')}'`;
  return start === 0 ? `${line} runs` : `${line} may run '${argv.slice(start).join(' ')}' (any program may run the words after it), which runs`;
}

/**
 * The strings given to `-c`/`--command` (as `sg G -c`, `su -c`, `flock F -c` take them; npm's
 * `--call`) that hold more than one word, or every one when `all` (a shell surely runs it).
 */
function commandStrings(argv: readonly string[], all: boolean): string[] {
  const strings: string[] = [];
  argv.forEach((word, i) => {
    const attached = /^--(command|call)=/.exec(word);
    const value = attached ? word.slice(attached[0].length) : (word === '-c' || word === '--command' || word === '--call') && i > 0 ? argv[i + 1] : undefined;
    if (value !== undefined && (all || /\s/.test(value))) strings.push(value);
  });
  return strings;
}

/**
 * What a command's stdin may hold, as far as the line says: literal texts (heredocs,
 * here-strings), another command's output, or a file (`< install.sh`, `<&3`: `file` says which).
 */
export interface StdinSource {
  texts: readonly string[];
  piped: boolean;
  file: string | null;
}

const NO_STDIN: StdinSource = { texts: [], piped: false, file: null };

/**
 * Every command an analysed line may run, for deny rules. A shell reading stdin runs the line's
 * heredocs and here-strings (checked as scripts); after the first command it may read a pipe,
 * and with `< file` a file, neither of which can be checked (`echo 'rm -rf /' | sh`, `sh < x.sh`).
 */
export async function deniableCommands(
  analysis: Extract<ShellAnalysis, { ok: true }>,
  depth = 0,
  inherited: StdinSource = NO_STDIN,
): Promise<{ ok: true; candidates: DenyCandidate[] } | { ok: false; reason: string }> {
  // A script given to `sh -c` or `eval` reads the stdin its runner was given: `… | sh -c 'sh -s'`.
  const texts = [...inherited.texts, ...analysis.redirects.flatMap((r) => (r.kind === 'input' ? [r.body] : []))];
  // Redirections are the line's, not one command's: a file read anywhere may be a shell's stdin.
  const read = analysis.redirects.find((r) => r.kind === 'read' || (r.kind === 'descriptor' && r.text.includes('<&')));
  const file = inherited.file ?? read?.text ?? null;
  const candidates: DenyCandidate[] = [];
  for (const [i, command] of analysis.commands.entries()) {
    const expanded = await commandsForDeny(command.argv, depth, { texts, piped: inherited.piped || i > 0, file });
    if (!expanded.ok) return expanded;
    candidates.push(...expanded.candidates);
  }
  return { ok: true, candidates };
}

/** Push commands under other names: git's plumbing for it, the same as `git push` to a deny rule. */
const PUSHES: ReadonlySet<string> = new Set(['send-pack', 'http-push']);

/**
 * git subcommands run by another spelling, as `git SUB …` for deny rules: a program `git-SUB`
 * (`/usr/lib/git-core/git-push origin main`), and `git send-pack`/`http-push`, which push.
 */
function gitSpelledOtherwise(argv: readonly string[]): DenyCandidate[] {
  const found: DenyCandidate[] = [];
  for (const [i, word] of argv.entries()) {
    const program = /^git-([a-z][a-z-]*)$/.exec(base(word));
    if (program) found.push({ argv: ['git', PUSHES.has(program[1]!) ? 'push' : program[1]!, ...argv.slice(i + 1)], openEnded: false });
    if (base(word) === 'git') {
      const at = i + gitSubcommandAt(argv.slice(i));
      if (PUSHES.has(argv[at] ?? '')) found.push({ argv: ['git', ...argv.slice(i + 1, at), 'push', ...argv.slice(at + 1)], openEnded: false });
    }
  }
  return found;
}
