// Names and variables bash itself evaluates, as builtins are given them: a name with a subscript
// is arithmetic, which runs `$(…)` (`printf -v 'a[$(rm -rf d)]' x`, `read 'a[…]'`, `test -v
// 'a[…]'`), `let` evaluates a variable's value the same way (`read x <<< 'a[$(…)]'; let x`), and
// some variables bash expands or runs later (PS4 under `set -x`, BASH_ENV in a child shell) or make
// another program run a command (GIT_SSH_COMMAND, EDITOR, LD_PRELOAD, …). The deny rules refuse
// them (shell-hidden-runners.ts), and so does the allowlist's guard for these builtins
// (shell-guards.ts): `printf *` allows printing, not running.

/** Variables bash expands or runs later in the same shell or a child one. */
const SHELL_VARIABLES: ReadonlySet<string> = new Set([
  'BASH_ENV', 'ENV', 'PS0', 'PS1', 'PS2', 'PS3', 'PS4', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'BASH_XTRACEFD', 'EXECIGNORE', 'GLOBIGNORE',
]);

/**
 * Variables that decide which program a later command word names, or where `cd` goes: bash reads
 * them without their being exported, so `printf -v PATH %s .; cat a.txt` runs the repository's
 * own `cat`, which a rule for `cat *` never meant.
 */
const LOOKUP_VARIABLES: ReadonlySet<string> = new Set(['PATH', 'CDPATH', 'OLDPWD']);

/** Variables that make another program run a command, load code or read options that do. */
const PROGRAM_VARIABLES: ReadonlySet<string> = new Set([
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_PROXY_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_PAGER', 'GIT_ASKPASS',
  'SSH_ASKPASS', 'GIT_EXEC_PATH', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_TEMPLATE_DIR',
  'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'LESSOPEN', 'LESSCLOSE', 'BROWSER', 'LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'NODE_OPTIONS',
  'PERL5OPT', 'RUBYOPT', 'PYTHONSTARTUP', 'MAKEFLAGS', 'MFLAGS', 'MAKEFILES', 'TAR_OPTIONS', 'RIPGREP_CONFIG_PATH', 'RSYNC_RSH', 'ZIPOPT',
  'SHELL', 'CONFIG_SHELL', 'HOME', 'XDG_CONFIG_HOME', 'GIT_DIR', 'GIT_COMMON_DIR', 'GIT_DIFFTOOL_EXTCMD', 'GNUMAKEFLAGS',
]);
const PROGRAM_VARIABLE_PREFIXES = [/^GIT_CONFIG_(KEY|VALUE)_\d+$/, /^npm_config_/i, /^YARN_/, /^DBUS_[A-Z]+_BUS_ADDRESS$/];
/** bash's own tables and settings: BASH_CMDS (a name's program), BASH_ALIASES, BASH_ENV, BASH_FUNC_…. */
const SHELL_VARIABLE_PREFIX = /^BASH_/;

/** Why a builtin's words (`printf -v NAME`, `read NAME`, …) make bash run what no word names, or null. */
export function nameProblem(words: readonly string[]): string | null {
  const name = words[0];
  if (name === 'let') return "'let' evaluates its words as arithmetic, where a name's value or a subscript may run a command substitution";
  if (name === 'fc') return "'fc' runs commands again from the history, which cannot be checked";
  const option = shellOptionProblem(words);
  if (option !== null) return option;
  for (const target of namesSet(words)) {
    if (target.includes('[')) return `'${name}' is given the name '${target}', whose subscript bash evaluates as arithmetic, which may run a command substitution`;
    // `test -v NAME` only asks whether it is set.
    if (name === 'test' || name === '[') continue;
    const problem = variableProblem(target, `'${name}' sets`);
    if (problem !== null) return problem;
    if (LOOKUP_VARIABLES.has(target)) return `'${name}' sets ${target}, which decides what program a later command word runs (or where cd goes), so what runs cannot be told; leave it as it is`;
  }
  return null;
}

/** The names `printf -v`, `read`, `mapfile`/`readarray`, `getopts`, `wait -p` set, and `test -v`/`[ -v` tests. */
function namesSet(words: readonly string[]): string[] {
  const name = words[0];
  const optionValue = (letter: string) => {
    const at = words.findIndex((word) => word === `-${letter}` || (word.startsWith(`-${letter}`) && !word.startsWith('--')));
    if (at < 0) return [];
    return words[at] === `-${letter}` ? (words[at + 1] === undefined ? [] : [words[at + 1]!]) : [words[at]!.slice(2)];
  };
  if (name === 'printf' || name === 'wait') return optionValue(name === 'printf' ? 'v' : 'p');
  if (name === 'test' || name === '[') return words.flatMap((word, i) => (word === '-v' && words[i + 1] !== undefined ? [words[i + 1]!] : []));
  if (name === 'getopts') return words.slice(2, 3);
  if (name === 'read' || name === 'mapfile' || name === 'readarray') {
    const valued = name === 'read' ? 'dinNptua' : 'dnOsuCc';
    const names: string[] = [];
    for (let i = 1; i < words.length; i++) {
      const word = words[i]!;
      if (word === '--') {
        names.push(...words.slice(i + 1));
        break;
      }
      if (!word.startsWith('-') || word === '-') {
        names.push(word);
        continue;
      }
      const at = [...word.slice(1)].findIndex((letter) => valued.includes(letter));
      if (at < 0) continue;
      const letter = word[at + 1]!;
      const value = at === word.length - 2 ? words[++i] : word.slice(at + 2);
      // read -a NAME: the array it fills.
      if (letter === 'a' && name === 'read' && value !== undefined) names.push(value);
    }
    return names;
  }
  return [];
}

export function variableProblem(variable: string, subject: string): string | null {
  if (SHELL_VARIABLES.has(variable) || SHELL_VARIABLE_PREFIX.test(variable)) return `${subject} ${variable}, which bash itself expands or runs, so what runs cannot be told; leave it as it is`;
  if (PROGRAM_VARIABLES.has(variable) || PROGRAM_VARIABLE_PREFIXES.some((pattern) => pattern.test(variable))) {
    return `${subject} ${variable}, which makes a program run a command or load code that cannot be checked; leave it as it is`;
  }
  return null;
}


/**
 * `set` and `shopt` options that change what later words mean: `set -k` makes NAME=VALUE words
 * anywhere the command's environment (GIT_SSH_COMMAND after the command), `set -H` expands `!` in
 * double quotes from the history, `expand_aliases` runs BASH_ALIASES, `extdebug` a DEBUG trap's
 * verdict. `set -e`, `-u`, `-x`, `-o pipefail` change nothing of that.
 */
function shellOptionProblem(words: readonly string[]): string | null {
  const name = words[0];
  if (name === 'set') {
    for (const [i, word] of words.entries()) {
      if (/^[-+][a-zA-Z]*[kH]/.test(word)) return `'set ${word}' changes what later words of the line mean, which cannot be checked`;
      if ((word === '-o' || word === '+o') && /^(keyword|history|histexpand)$/.test(words[i + 1] ?? '')) return `'set -o ${words[i + 1]}' changes what later words of the line mean, which cannot be checked`;
    }
  }
  if (name === 'shopt' && words.some((word) => /^(expand_aliases|extdebug)$/.test(word))) return `'shopt' turns on an option that runs code later words do not name, which cannot be checked`;
  return null;
}
