// git aliases from git's configuration files, for deny rules. `git p origin main` runs `git push
// -f origin main` when the repository's .git/config (or the user's ~/.gitconfig) says `alias.p =
// push -f`, and `git zap` runs `rm -rf d` when it says `alias.zap = !rm -rf d`: no word of the line
// names what runs. So a git subcommand that is not one of git's own is looked up with `git config`
// where the command runs, and what the alias expands to is checked like the line itself. An alias
// given with `-c` is the line's own (git-scripts.ts); a lookup that fails refuses the command.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { analyzeShellCommand } from './shell-analyze.js';
import { foreignBackslash } from './foreign-grammars.js';
import { GIT_COMMANDS } from './git-guard.js';
import { aliasWrites, gitSubcommandAt } from './git-scripts.js';
import { deniableCommands, type DenyCandidate } from './shell-rules.js';
import { hostProgramOutside } from '../util/host-program.js';

const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf']);
const LOOKUP_TIMEOUT_MS = 2_000;
/** Aliases of aliases deeper than this are refused (git itself stops at a loop). */
const MAX_ALIAS_DEPTH = 5;

/** Other global options whose value is the next word (gitSubcommandAt reads them the same way). */
const VALUED_ELSE: ReadonlySet<string> = new Set(['-c', '--config-env', '--namespace', '--super-prefix', '--attr-source']);

type Expanded = { ok: true; candidates: DenyCandidate[] } | { ok: false; reason: string };

/** `candidates` and every command the configured aliases among them expand to, or why that cannot be told. */
/** `root`: the workspace, where the git that looks them up must not come from (host-program.ts). */
export async function withConfiguredAliases(candidates: readonly DenyCandidate[], directory: string, root: string): Promise<Expanded> {
  const all = [...candidates];
  const lookups = new Map<string, AliasLookup>();
  // Aliases the line itself writes (`git config alias.p push; git p -f`): set before `git p` runs.
  const written = new Map<string, string[]>();
  for (const candidate of candidates) {
    for (const [i, word] of candidate.argv.entries()) {
      if (path.posix.basename(word).toLowerCase() !== 'git') continue;
      for (const [name, value] of aliasWrites(candidate.argv.slice(i))) written.set(name, [...(written.get(name) ?? []), value]);
    }
  }
  let pending = [...candidates];
  for (let depth = 0; pending.length > 0; depth++) {
    const next: DenyCandidate[] = [];
    for (const candidate of pending) {
      for (const call of aliasCalls(candidate.argv)) {
        const key = [...call.where, call.name].join('\0');
        let found = lookups.get(key);
        if (!found) {
          found = lookUp(call.where, call.name, directory, root);
          lookups.set(key, found);
        }
        if ('problem' in found) return { ok: false, reason: found.problem };
        // Every value the alias may have when it runs: given with -c, written by the line, or configured.
        const values: Array<[string, string]> = [
          ...call.inline.map((value): [string, string] => [value, `given with -c, '${value}'`]),
          ...(written.get(call.name.toLowerCase()) ?? []).map((value): [string, string] => [value, `written by the line, '${value}'`]),
          ...(found.value === null ? [] : [[found.value, `from git's configuration, '${found.value}'`] as [string, string]]),
        ];
        for (const [value, from] of values) {
          if (depth >= MAX_ALIAS_DEPTH) return { ok: false, reason: `the git alias '${call.name}' expands to further aliases too deeply to be checked` };
          const source = `the git alias '${call.name}' (${from})`;
          // Without `!`, git splits the alias itself (a backslash drops before any character).
          const foreign = value.startsWith('!') ? null : foreignBackslash(value, `git (${source})`);
          if (foreign !== null) return { ok: false, reason: foreign };
          // git appends the words after the alias's name to what it stands for (`!`: as the script's "$@").
          const script = value.startsWith('!') ? `${value.slice(1)} ${call.rest.map(quoted).join(' ')}` : `git ${value} ${call.rest.map(quoted).join(' ')}`;
          const analysis = await analyzeShellCommand(script.trim());
          if (!analysis.ok) return { ok: false, reason: `${source} runs what cannot be checked: ${analysis.reason}` };
          const nested = await deniableCommands(analysis, 1);
          if (!nested.ok) return { ok: false, reason: `${source} runs what cannot be checked: ${nested.reason}` };
          next.push(...nested.candidates);
        }
      }
    }
    all.push(...next);
    pending = next;
  }
  return { ok: true, candidates: all };
}

interface AliasCall {
  /** The options that choose the repository (`-C dir`, `--git-dir=…`), as written. */
  where: string[];
  name: string;
  rest: string[];
  /** The values `-c alias.NAME=…` gives this very call, which outrank git's configuration. */
  inline: string[];
}

/** Each git command in `argv` whose subcommand is not git's own, so may be an alias. */
function aliasCalls(argv: readonly string[]): AliasCall[] {
  const calls: AliasCall[] = [];
  // echo and printf print their words (`echo git p` runs no alias).
  if (PRINTERS.has(argv[0] ?? '')) return calls;
  for (const [i, word] of argv.entries()) {
    if (path.posix.basename(word).toLowerCase() !== 'git') continue;
    const git = argv.slice(i);
    const at = gitSubcommandAt(git);
    const name = git[at];
    // An alias name is letters, digits and '-'; git finds no alias for any other word.
    if (name === undefined || GIT_COMMANDS.has(name) || !/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(name)) continue;
    const where: string[] = [];
    const inline: string[] = [];
    for (let j = 1; j < at; j++) {
      const option = git[j]!;
      const setting = option === '-c' ? git[j + 1] : /^-c./.test(option) ? option.slice(2) : undefined;
      const alias = setting === undefined ? null : /^alias\.([^=]+)=(.*)$/is.exec(setting);
      if (alias && alias[1]!.toLowerCase() === name.toLowerCase()) inline.push(alias[2]!);
      if (option === '-C') where.push('-C', git[++j] ?? '');
      else if (/^--(git-dir|work-tree)=/.test(option)) where.push(option);
      else if (option === '--git-dir' || option === '--work-tree') where.push(`${option}=${git[++j] ?? ''}`);
      else if (VALUED_ELSE.has(option)) j++;
    }
    calls.push({ where, name, rest: git.slice(at + 1), inline });
  }
  return calls;
}

type AliasLookup = { value: string | null } | { problem: string };

/** What `alias.NAME` is set to where the command runs, null when it is not set. */
function lookUp(where: readonly string[], name: string, directory: string, root: string): AliasLookup {
  // git runs here on the host, before any sandbox: never a git the workspace holds (npx puts its
  // node_modules/.bin first on PATH, and a call may have written a `git` there).
  const git = hostProgramOutside('git', process.env.PATH, [directory, root]);
  if (git === null) return { problem: `'git ${name}' may be an alias from git's configuration, and no git outside the workspace was found to look it up, so what it runs cannot be checked` };
  const result = spawnSync(git.program, [...where, 'config', '--get', `alias.${name}`], {
    cwd: directory,
    env: { ...process.env, PATH: git.pathVariable },
    encoding: 'utf8',
    timeout: LOOKUP_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (!result.error && result.status === 0) return { value: result.stdout.replace(/\n$/, '') };
  if (!result.error && result.status === 1) return { value: null };
  const why = result.error ? result.error.message : (result.stderr.trim().split('\n')[0] ?? `exit ${result.status}`);
  return { problem: `'git ${name}' may be an alias from git's configuration, and it could not be looked up (${why}), so what it runs cannot be checked` };
}

/** A word as sh reads it back unchanged. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
