// The command lines git hands to a shell from its own words, for deny rules. A rule that refuses
// `rm -rf *` must refuse `git submodule foreach 'rm -rf d'`, `git rebase -x 'rm -rf d'` and
// `git -c core.pager='rm -rf d' log` too: git runs those strings with sh, and no word of the
// command names rm. Each such string becomes a script the deny rules check like any other line;
// where the string is out of sight (an alias from the environment, an included configuration
// file, the ext:: transport's program) the command cannot be checked. Under `allowlist` the git
// guard (git-guard.ts) refuses these forms outright; this is for every mode with deny rules.
import { foreignBackslash } from './foreign-grammars.js';
import { longOption } from './shell-options.js';

export interface GitScript {
  text: string;
  /** What hands it to the shell, for reasons: `git rebase --exec`, `git -c core.pager`. */
  source: string;
  /** git surely runs it as a command, so one that does not parse is refused rather than left alone. */
  strict: boolean;
  /** It runs with git submodule foreach's variables set ($name, $sm_path, ...). */
  submoduleVariables?: boolean;
}

export type GitScripts = { ok: true; scripts: GitScript[] } | { ok: false; reason: string };

/**
 * Configuration whose value is a command git runs through the shell (section and variable names
 * fold case; `*` stands for any subsection). A value of any other key is checked too when it
 * reads as a command line, so a key missing here is still caught when it spells a denied command.
 */
const COMMAND_KEYS: readonly RegExp[] = [
  /^core\.(pager|editor|sshcommand|gitproxy|askpass|fsmonitor|alternaterefscommand)$/,
  /^pager\..+$/,
  /^sequence\.editor$/,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^merge\..+\.driver$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^credential\.(.+\.)?helper$/,
  /^gpg\.(.+\.)?program$/,
  /^gpg\.ssh\.defaultkeycommand$/,
  /^interactive\.difffilter$/,
  /^sendemail\.(.+\.)?(tocmd|cccmd|headercmd|smtpserver)$/,
  /^(difftool|mergetool|browser|man)\..+\.(cmd|path)$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^uploadpack\.packobjectshook$/,
  /^submodule\..+\.update$/,
  /^trailer\..+\.(command|cmd)$/,
  /^hook\..+\.command$/,
  /^tar\..+\.command$/,
  /^imap\.tunnel$/,
  /^sendemail\.(.+\.)?sendmailcmd$/,
];

/** help.autocorrect at any of these runs nothing; a delay or `immediate` runs the command git guesses a mistyped name to be. */
const AUTOCORRECT_OFF = /^(0|false|no|off|never|show|prompt)$/i;

/** A configuration file brought in whole: whatever it sets (pagers, aliases) is out of sight. */
const INCLUDE_KEY = /^(include|includeif\..+)\.path$/;
const ALIAS_KEY = /^alias\..+$/;

/**
 * Configuration that says how a later `git push` to a remote pushes: its refspec (`+main:main`
 * forces) and `mirror` (every ref, forced, deleted where the local one is gone). Set by `-c` or
 * `git config`, it stands for that push, `git push REMOTE +main:main` or `git push REMOTE --mirror`.
 */
const PUSH_KEY = /^remote\.(.+)\.(push|mirror)$/;
/** How git reads a boolean that is false; any other value of `remote.*.mirror` counts as true. */
const FALSE = /^(false|no|off|0|)$/i;

/** Global options (before the subcommand) whose value is the next word when not attached with '='. */
const VALUED_GLOBALS: ReadonlySet<string> = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--attr-source']);

/**
 * Options of a subcommand whose value is a command line: long ones (any unambiguous prefix counts,
 * as git's option parser accepts) and short letters (the value attached or the next word).
 */
const COMMAND_OPTIONS: Readonly<Record<string, { long: readonly string[]; short: string }>> = {
  rebase: { long: ['--exec'], short: 'x' },
  difftool: { long: ['--extcmd'], short: 'x' },
  clone: { long: ['--upload-pack'], short: 'u' },
  'ls-remote': { long: ['--upload-pack'], short: 'u' },
  fetch: { long: ['--upload-pack'], short: '' },
  pull: { long: ['--upload-pack'], short: '' },
  'fetch-pack': { long: ['--upload-pack', '--exec'], short: '' },
  push: { long: ['--receive-pack', '--exec'], short: '' },
  'send-pack': { long: ['--receive-pack', '--exec'], short: '' },
  archive: { long: ['--exec'], short: '' },
  grep: { long: ['--open-files-in-pager'], short: '' },
  'filter-branch': {
    long: ['--setup', '--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'],
    short: '',
  },
  'send-email': { long: ['--to-cmd', '--cc-cmd', '--header-cmd', '--smtp-server'], short: '' },
  instaweb: { long: ['--httpd'], short: 'd' },
};

/** Options of `git config` whose value is the next word: it is not a key or a value to check. */
const CONFIG_VALUED: ReadonlySet<string> = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value', '--url']);
/** Forms of `git config` that read; the words after them are keys and patterns, not values set. */
const CONFIG_READS: ReadonlySet<string> = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', 'get', 'list']);
const CONFIG_KEY = /^[a-z0-9-]+(\..*)?\.[a-z][a-z0-9-]*$/i;

/** Where the subcommand of a git command stands in argv (`git -C d -c k=v checkout x` -> 5), argv.length when it has none. */
export function gitSubcommandAt(argv: readonly string[]): number {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('-')) return i;
    if (VALUED_GLOBALS.has(word)) i++;
  }
  return argv.length;
}

/** Every command line `argv` (a git command) hands to the shell, or why one cannot be known. */
export function gitScripts(argv: readonly string[]): GitScripts {
  const scripts: GitScript[] = [];
  const transport = argv.slice(1).find((word) => /ext::/i.test(word));
  if (transport !== undefined) {
    return { ok: false, reason: `the git transport in '${transport}' runs a program of its own (ext::), which cannot be checked; use a plain URL or path` };
  }
  let i = 1;
  for (; i < argv.length && argv[i]!.startsWith('-'); i++) {
    const word = argv[i]!;
    if (word === '-c' || (word.startsWith('-c') && !word.startsWith('--'))) {
      const setting = word === '-c' ? argv[++i] : word.slice(2);
      if (setting === undefined) break;
      const eq = setting.indexOf('=');
      // `-c key` alone sets it to true: no command, but for help.autocorrect and a remote's mirror.
      if (eq < 0) {
        if (setting.toLowerCase() === 'help.autocorrect') return autocorrects(`git -c ${setting}`);
        scripts.push(...pushConfiguration(setting, 'true', `git -c ${setting}`));
        continue;
      }
      const found = configValue(setting.slice(0, eq), setting.slice(eq + 1), `git -c ${setting.slice(0, eq)}`);
      if (!found.ok) return found;
      scripts.push(...found.scripts);
    } else if (/^--config-env(=|$)/.test(word)) {
      const spec = word === '--config-env' ? (argv[++i] ?? '') : word.slice('--config-env='.length);
      const key = spec.slice(0, Math.max(0, spec.indexOf('='))).toLowerCase();
      if (ALIAS_KEY.test(key) || INCLUDE_KEY.test(key) || PUSH_KEY.test(key) || key === 'help.autocorrect' || COMMAND_KEYS.some((pattern) => pattern.test(key))) {
        return { ok: false, reason: `it sets the git configuration '${key}' from the environment (--config-env), which cannot be checked; write it as -c ${key}=VALUE` };
      }
    } else if (VALUED_GLOBALS.has(word)) {
      i++;
    }
  }
  const subcommand = argv[i];
  if (subcommand === undefined) return { ok: true, scripts };
  const rest = argv.slice(i + 1);
  // Helpers git runs for itself, called by name: remote-ext runs its command, submodule--helper foreach its script.
  if (subcommand === 'remote-ext') return { ok: false, reason: `git remote-ext runs a program of its own, which cannot be checked; use a plain URL or path` };
  const found =
    subcommand === 'config'
      ? configWrites(rest)
      : subcommand === 'submodule' || subcommand === 'submodule--helper'
        ? submoduleForeach(rest)
        : subcommand === 'clone'
          ? cloneSettings(rest)
          : subcommand === 'remote'
            ? remoteMirror(rest)
            : commandOptions(subcommand, rest);
  if (!found.ok) return found;
  scripts.push(...found.scripts);
  return { ok: true, scripts };
}

/**
 * The script a configuration value stands for. An alias runs `git VALUE`, or with `!` the
 * shell; `credential.helper` and `submodule.*.update` mark a shell command with `!` too.
 */
function configValue(rawKey: string, value: string, source: string): GitScripts {
  const key = rawKey.toLowerCase();
  if (INCLUDE_KEY.test(key)) {
    return { ok: false, reason: `${source} brings in a configuration file, which may set pagers, aliases and other commands that cannot be checked; run git without it` };
  }
  if (ALIAS_KEY.test(key)) {
    // Without `!`, git splits the alias itself (a backslash drops before any character).
    const foreign = value.startsWith('!') ? null : foreignBackslash(value, `git (${source})`);
    if (foreign !== null) return { ok: false, reason: foreign };
    return { ok: true, scripts: [{ text: value.startsWith('!') ? value.slice(1) : `git ${value}`, source, strict: true }] };
  }
  if (key === 'help.autocorrect' && !AUTOCORRECT_OFF.test(value)) return autocorrects(source);
  if (PUSH_KEY.test(key)) return { ok: true, scripts: pushConfiguration(rawKey, value, source) };
  const strict = COMMAND_KEYS.some((pattern) => pattern.test(key));
  return { ok: true, scripts: [{ text: value.startsWith('!') ? value.slice(1) : value, source, strict }] };
}

/** `git clone -c KEY=VALUE` (`--config`) writes the new repository's configuration, which later git commands there run; and its --upload-pack. */
function cloneSettings(rest: readonly string[]): GitScripts {
  const scripts: GitScript[] = [];
  for (let j = 0; j < rest.length; j++) {
    const word = rest[j]!;
    if (word === '--') break;
    const setting = word === '-c' || word === '--config' ? rest[++j] : /^--config=/.test(word) ? word.slice('--config='.length) : /^-c./.test(word) ? word.slice(2) : undefined;
    if (setting === undefined) continue;
    const eq = setting.indexOf('=');
    if (eq < 0) continue;
    const found = configValue(setting.slice(0, eq), setting.slice(eq + 1), `git clone -c ${setting.slice(0, eq)}`);
    if (!found.ok) return found;
    scripts.push(...found.scripts.map((script) => ({ ...script, strict: true })));
  }
  const options = commandOptions('clone', rest);
  if (!options.ok) return options;
  return { ok: true, scripts: [...scripts, ...options.scripts] };
}

/** `git config KEY VALUE` (also `set`, `--add`, `--replace-all`, `--file F`): the values it writes, as -c would set them. */
function configWrites(rest: readonly string[]): GitScripts {
  // Renaming a section makes its values another section's: `foo.x` becomes the alias `alias.x`.
  const rename = rest.find((word) => /^(--)?rename(-section)?$/.test(word));
  if (rename !== undefined) return { ok: false, reason: `git config ${rename} gives values already written the meaning of another key (an alias, a pager), which cannot be checked; set the key itself` };
  if (rest.some((word) => CONFIG_READS.has(word))) return { ok: true, scripts: [] };
  const operands: string[] = [];
  for (let j = 0; j < rest.length; j++) {
    const word = rest[j]!;
    if (CONFIG_VALUED.has(word)) j++;
    else if (word !== '--' && !word.startsWith('-')) operands.push(word);
  }
  const scripts: GitScript[] = [];
  // A key is followed by its value, whichever form of the command put it there.
  for (let j = 0; j + 1 < operands.length; j++) {
    if (!CONFIG_KEY.test(operands[j]!)) continue;
    const found = configValue(operands[j]!, operands[j + 1]!, `git config ${operands[j]}`);
    if (!found.ok) return found;
    scripts.push(...found.scripts);
    j++;
  }
  return { ok: true, scripts };
}

/**
 * The aliases a `git config` command (`argv`, a git command) writes, as `[name, value]`: a later
 * `git NAME` in the same line runs the value, which no lookup of git's configuration made before
 * the line runs can see (git-config-aliases.ts).
 */
export function aliasWrites(argv: readonly string[]): Array<[name: string, value: string]> {
  const at = gitSubcommandAt(argv);
  if (argv[at] !== 'config') return [];
  const rest = argv.slice(at + 1);
  if (rest.some((word) => CONFIG_READS.has(word))) return [];
  const operands: string[] = [];
  for (let j = 0; j < rest.length; j++) {
    const word = rest[j]!;
    if (CONFIG_VALUED.has(word)) j++;
    else if (word !== '--' && !word.startsWith('-')) operands.push(word);
  }
  const writes: Array<[string, string]> = [];
  for (let j = 0; j + 1 < operands.length; j++) {
    const alias = /^alias\.(.+)$/is.exec(operands[j]!);
    if (alias) writes.push([alias[1]!.toLowerCase(), operands[++j]!]);
  }
  return writes;
}

/**
 * `git submodule foreach [--recursive] COMMAND [ARGS...]`: git runs COMMAND with sh, the further
 * words as its arguments (`sh -c 'COMMAND "$@"'`), so the script is COMMAND with them quoted after it.
 */
function submoduleForeach(rest: readonly string[]): GitScripts {
  const at = rest.indexOf('foreach');
  if (at < 0) return { ok: true, scripts: [] };
  let j = at + 1;
  while (j < rest.length && rest[j]!.startsWith('-')) if (rest[j++] === '--') break;
  const [command, ...args] = rest.slice(j);
  if (command === undefined) return { ok: true, scripts: [] };
  const text = [command, ...args.map(quoted)].join(' ');
  return { ok: true, scripts: [{ text, source: 'git submodule foreach', strict: true, submoduleVariables: true }] };
}

/** The values of a subcommand's command options: `rebase --exec X`, `-xX`, `-ix X`, `grep -OX`. */
function commandOptions(subcommand: string, rest: readonly string[]): GitScripts {
  const table = Object.hasOwn(COMMAND_OPTIONS, subcommand) ? COMMAND_OPTIONS[subcommand]! : null;
  const scripts: GitScript[] = [];
  const add = (text: string | undefined, option: string) => {
    if (text !== undefined) scripts.push({ text, source: `git ${subcommand} ${option}`, strict: true });
  };
  for (let j = 0; j < rest.length; j++) {
    const word = rest[j]!;
    if (word === '--') break;
    if (word.startsWith('--') && table) {
      const eq = word.indexOf('=');
      const option = longOption(eq < 0 ? word : word.slice(0, eq), table.long);
      if (option) add(eq < 0 ? rest[++j] : word.slice(eq + 1), option);
    } else if (/^-[A-Za-z]/.test(word) && !word.startsWith('--')) {
      // `grep -O` takes its pager attached only; without one it is the default pager.
      const letter = subcommand === 'grep' ? 'O' : (table?.short ?? '');
      const at = letter === '' ? -1 : word.indexOf(letter, 1);
      if (at < 0) continue;
      const attached = word.slice(at + 1);
      if (attached !== '') add(attached, `-${letter}`);
      else if (subcommand !== 'grep') add(rest[++j], `-${letter}`);
    }
  }
  return { ok: true, scripts };
}

/** The push a remote's `push` or `mirror` setting stands for (none for a false mirror), as a script the deny rules check. */
function pushConfiguration(rawKey: string, value: string, source: string): GitScript[] {
  const match = PUSH_KEY.exec(rawKey.toLowerCase());
  if (!match) return [];
  // The remote's name keeps its case (the section folds, the subsection does not).
  const remote = rawKey.slice('remote.'.length, rawKey.length - match[2]!.length - 1);
  const push = match[2] === 'push' ? quoted(value.trim()) : FALSE.test(value.trim()) ? null : '--mirror';
  return push === null ? [] : [{ text: `git push ${quoted(remote)} ${push}`, source, strict: true }];
}

/** `git remote add --mirror[=push] NAME URL` sets remote.NAME.mirror: a later `git push NAME` is `git push NAME --mirror`. */
function remoteMirror(rest: readonly string[]): GitScripts {
  const at = rest.indexOf('add');
  if (at < 0) return { ok: true, scripts: [] };
  let mirror = false;
  const operands: string[] = [];
  for (let j = at + 1; j < rest.length; j++) {
    const word = rest[j]!;
    const eq = word.indexOf('=');
    if (longOption(eq < 0 ? word : word.slice(0, eq), ['--mirror']) !== null) mirror = eq < 0 || word.slice(eq + 1) !== 'fetch';
    else if ((word === '-t' || word === '-m' || word === '--track' || word === '--master') && j + 1 < rest.length) j++;
    else if (!word.startsWith('-')) operands.push(word);
  }
  const name = operands[0];
  if (!mirror || name === undefined) return { ok: true, scripts: [] };
  return { ok: true, scripts: [{ text: `git push ${quoted(name)} --mirror`, source: 'git remote add --mirror', strict: true }] };
}

/** A word as sh reads it back unchanged. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function autocorrects(source: string): GitScripts {
  return { ok: false, reason: `${source} makes git run the command it guesses a mistyped name to be (\`git pusj\` runs push), which cannot be checked; leave help.autocorrect as it is` };
}
