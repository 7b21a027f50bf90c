// Which programs are shells, for deny rules: a shell runs the string of its `-c` as a command
// line and, given no script, reads its commands from stdin, so what it is given is checked (or
// refused when it cannot be). A name counts as installed programs spell it too: `bash5.2`,
// `ksh93`, `zsh-5.9`, `dash.static`. Interpreters of other languages (python3 -c, node -e) are not
// shells: their code is out of the deny rules' reach, and a string of theirs is checked only when
// it reads as a command line.
import path from 'node:path';

const SHELL_NAMES: ReadonlySet<string> = new Set([
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'pdksh', 'oksh', 'loksh', 'lksh', 'ash', 'hush', 'yash', 'posh',
  'rbash', 'rzsh', 'rksh', 'fish', 'csh', 'tcsh', 'osh', 'ysh', 'elvish', 'xonsh', 'nushell', 'pwsh', 'powershell',
]);

/**
 * Shells whose names are everyday words too (Plan 9's rc and es, nushell's nu): taken for shells
 * only where a command starts, not wherever the word appears (`--lang es`, `grep rc`).
 */
const SHORT_SHELL_NAMES: ReadonlySet<string> = new Set(['rc', 'es', 'nu']);

/** The name without a version or build suffix: `bash5.2`, `bash-5.2`, `ksh93`, `dash.static` -> bash, bash, ksh, dash. */
function plainName(word: string): string {
  return path.posix
    .basename(word)
    .toLowerCase()
    .replace(/\.(static|distrib)$/, '')
    .replace(/[-_.]?\d[\d.]*$/, '');
}

/** True when `word` names a shell, wherever it stands in a command. */
export function isShellName(word: string | undefined): boolean {
  return word !== undefined && SHELL_NAMES.has(plainName(word));
}

/** True when `word`, standing where a command starts, names a shell: any name, `rc`, `es` and `nu` too. */
export function isShellProgram(word: string | undefined): boolean {
  return word !== undefined && (SHELL_NAMES.has(plainName(word)) || SHORT_SHELL_NAMES.has(plainName(word)) || isProcessImage(word));
}

/** `/proc/self/exe` (or a pid's, a thread's): the program running it, which for the shell tool's line is bash. */
function isProcessImage(word: string): boolean {
  return /^\/proc\/(self|thread-self|\d+)(\/task\/\d+)?\/exe$/.test(word);
}

/**
 * True when the `-c` string (or `--command`) of the program `argv` starts is surely a shell
 * command line, so one that cannot be checked is refused rather than left alone. (npx's and
 * npm exec's are read by npm-calls.ts.)
 */
export function runsCommandLineOption(argv: readonly string[]): boolean {
  return isShellProgram(argv[0]);
}
