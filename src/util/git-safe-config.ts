// A repository the runner works on is untrusted input, and git runs programs its config names:
// fsmonitor on `git status`, clean filters on `git add`, textconv and external diff on `git diff`,
// `!` aliases, ssh commands, credential helpers. Every git process the runner starts (snapshots,
// diffs, the hand-off) and every git command a tool runs gets those settings overridden from the
// outside: as `-c` arguments for the runner's own git, as GIT_CONFIG_COUNT/KEY/VALUE (which
// outrank the repository's own config) for the tools' environment. Only settings that come from
// the repository (scopes `local` and `worktree`, submodule configs) are overridden; the user's
// own global config is theirs (git-lfs installed globally keeps working). Which settings those
// are is asked of git at every call (util/git-config-sources.ts says why).
import path from 'node:path';
import { isStrictlyInside, realPathOrNull } from './paths.js';
import { findGitDir, gitDirEntries, listConfig, submoduleGitDirs, type ConfigEntry } from './git-config-sources.js';
import { lfsConfigExtensions, lfsExtensionKey } from './git-lfs-extensions.js';

export type ConfigPair = readonly [key: string, value: string];

/** Always set, whatever the repository says: no hooks, no fsmonitor, no signing, no ext:: transport. */
export const ALWAYS_SAFE: readonly ConfigPair[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['protocol.ext.allow', 'never'],
  ['core.pager', 'cat'],
];

/** The exact commands `git lfs install` writes: a known program, not the repository's choice. */
const GIT_LFS = /^git-lfs (clean|smudge|filter-process)( -- %f)?$/;

/**
 * What replaces a repository-set value that would run a program, or null when the key is harmless.
 * An empty value disables filters, textconv and helpers; for diff.external it makes `git diff`
 * fail ("cannot run"), which is fail-closed: `--no-ext-diff` still works.
 */
export function neutralValue(key: string, value: string): string | null {
  const k = key.toLowerCase();
  const [section, ...rest] = k.split('.');
  const last = rest[rest.length - 1] ?? '';
  const subsection = rest.length >= 2;
  switch (section) {
    case 'filter':
      if (!subsection) return null;
      if (last === 'required') return 'false';
      if (last === 'clean' || last === 'smudge' || last === 'process') return GIT_LFS.test(value.trim()) ? null : '';
      return null;
    case 'diff':
      if (k === 'diff.external') return '';
      return subsection && (last === 'textconv' || last === 'command') ? '' : null;
    case 'merge':
      return subsection && last === 'driver' ? '' : null;
    case 'difftool':
    case 'mergetool':
    case 'browser':
      return subsection && (last === 'cmd' || last === 'path') ? '' : null;
    case 'trailer':
      return subsection && (last === 'command' || last === 'cmd') ? '' : null;
    case 'alias':
      // `!` runs a shell command; a leading option (`-c core.fsmonitor=…`, `--exec-path=…`) is
      // applied as if typed on the command line, which outranks every override given here.
      return /^\s*[!-]/.test(value) ? '' : null;
    case 'submodule':
      return subsection && last === 'update' && value.trimStart().startsWith('!') ? 'checkout' : null;
    case 'credential':
      return last === 'helper' ? '' : null;
    case 'remote':
      // Git takes the FIRST uploadpack/receivepack it reads (the repository's), so no override
      // can replace it; they run locally only over the file transport, which is refused instead.
      return subsection && (last === 'uploadpack' || last === 'receivepack') ? FILE_TRANSPORT_OFF : null;
    case 'gpg':
      if (last === 'program') return 'false';
      return last === 'defaultkeycommand' ? '' : null;
    case 'interactive':
      // `git add -p` pipes every hunk through it.
      return last === 'difffilter' ? '' : null;
    case 'sendemail':
      if (last === 'smtpserver') return value.trim().startsWith('/') ? '' : null;
      return last.endsWith('cmd') ? '' : null;
    case 'man':
    case 'guitool':
      return subsection && (last === 'cmd' || last === 'path') ? '' : null;
    case 'imap':
      // `git imap-send` starts the tunnel command instead of connecting.
      return last === 'tunnel' ? '' : null;
    case 'instaweb':
      return last === 'httpd' ? '' : null;
    case 'lfs':
      // git-lfs, the clean and smudge filter a user's own `git lfs install` sets, reads the
      // repository's config too: an extension's clean or smudge command gets every LFS file piped
      // through it (the runner's `git add` of such a file ran it), and a custom transfer agent is
      // a program it starts to move objects. `cat` passes the file on as it is.
      if (rest[0] === 'extension' && subsection && (last === 'clean' || last === 'smudge')) return 'cat';
      return rest[0] === 'customtransfer' && subsection && last === 'path' ? '' : null;
    case 'pager':
      return 'cat';
    case 'core':
      switch (last) {
        case 'sshcommand':
          return 'ssh';
        case 'gitproxy':
        case 'askpass':
        case 'alternaterefscommand':
          return '';
        case 'editor':
          return 'true';
        case 'worktree':
          // Points git's work tree anywhere (`/`): `git clean` or `git add -A` would act there.
          return WORKTREE_HERE;
        default:
          return null;
      }
    case 'sequence':
      return last === 'editor' ? 'true' : null;
    default:
      return null;
  }
}

/** Marks a setting that is neutralised by refusing the file transport (see 'remote' below). */
const FILE_TRANSPORT_OFF = '\0file-transport-off';
/** Marks core.worktree: replaced by the directory that holds the repository's `.git`. */
const WORKTREE_HERE = '\0worktree-here';

/**
 * For the runner's own git only: it never goes into a submodule or an embedded repository. Git
 * runs a command there under that repository's own configuration (`git diff` for
 * diff.submodule=diff, push and fetch on demand, status summaries), and an embedded repository a
 * command created in the work tree is nobody's submodule: no listing of ours covers its config.
 * (`git add` cannot be told; snapshot.ts keeps checked-out gitlinks out of its index instead.)
 */
export const RUNNER_ONLY: readonly ConfigPair[] = [
  ['submodule.recurse', 'false'],
  ['diff.submodule', 'short'],
  ['status.submoduleSummary', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['push.recurseSubmodules', 'no'],
];

/**
 * ALWAYS_SAFE plus an override for every program-running setting the repository at `dir` (and its
 * submodules) sets. The repository's own settings are listed by git at every call (a few ms): what
 * git reads can change with any file in .git (a `commondir` that moves the config elsewhere, HEAD
 * under an `onbranch` include, a file an include names), and git alone knows all of it. `env`: the
 * environment of the git command the settings are for, so that the listing sees what it will.
 */
export function safeGitConfig(dir: string, env?: NodeJS.ProcessEnv): readonly ConfigPair[] {
  const gitDir = findGitDir(dir);
  // Without a listing (a git without --show-scope, a config git refuses): the files, all of them
  // taken as the repository's.
  const entries = [...(listConfig(dir, env) ?? (gitDir ? gitDirEntries(gitDir) : []))];
  const workTree = gitDir && path.basename(gitDir) === '.git' ? path.dirname(gitDir) : dir;
  // Submodules' configs are repository content too (git runs them for `git -C sub ...`).
  if (gitDir) for (const sub of submoduleGitDirs(gitDir)) entries.push(...gitDirEntries(sub).filter((e) => !ownCheckout(e, sub, workTree)));
  // Only where git-lfs runs (a `filter.lfs` is set) does a `.lfsconfig` matter: read then alone.
  const lfsDeclared = entries.some((e) => e.key.toLowerCase().startsWith('filter.lfs.')) ? lfsConfigExtensions(dir, env) : [];
  return [...ALWAYS_SAFE, ...repositoryOverrides(entries, workTree, lfsDeclared)];
}

/**
 * A submodule's core.worktree that names a directory inside the repository's work tree: where git
 * itself put its checkout (`git submodule add` writes `../../../sub`), not a setting to override.
 * The override is one GIT_WORK_TREE for every git a tool runs, so holding the submodule's to the
 * superproject's pointed `git -C sub checkout` at the superproject's files (and `git status` there
 * listed them all). One that points elsewhere is held as before.
 */
function ownCheckout(entry: ConfigEntry, subGitDir: string, workTree: string): boolean {
  if (entry.key.toLowerCase() !== 'core.worktree') return false;
  return isStrictlyInside(path.resolve(workTree), path.resolve(subGitDir, entry.value));
}

/**
 * Git reads core.worktree while it sets the repository up, before `-c` and GIT_CONFIG_* apply;
 * only --work-tree and GIT_WORK_TREE outrank it. The override is used that way, when there is one.
 */
function workTreeOverride(pairs: readonly ConfigPair[]): string | null {
  return pairs.find(([key]) => key.toLowerCase() === 'core.worktree')?.[1] ?? null;
}

/** As `-c key=value` arguments, for the runner's own git commands; `env`: the one the command runs with. */
export function safeGitArgs(dir: string, env?: NodeJS.ProcessEnv): string[] {
  const pairs = [...safeGitConfig(dir, env), ...RUNNER_ONLY];
  const workTree = workTreeOverride(pairs);
  return [...(workTree ? [`--work-tree=${workTree}`] : []), ...pairs.flatMap(([key, value]) => ['-c', `${key}=${value}`])];
}

/** As GIT_CONFIG_COUNT/KEY/VALUE variables, for tool processes (they outrank every config file). */
export function safeGitEnv(dir: string): Record<string, string> {
  const pairs = safeGitConfig(dir);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  const workTree = workTreeOverride(pairs);
  if (workTree) env.GIT_WORK_TREE = workTree;
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * Directories sandboxed tools may write (the workspace, `sandbox.writable`), while a sandbox that
 * lets them is open, counted per opening. A setting read from a file there is the tools' to write,
 * whatever its scope: `sandbox.writable: [~/.config]` let a command plant a clean filter in
 * ~/.config/git/config (scope global) that the runner's own `git add` then ran on the host.
 */
const toolWritable = new Map<string, number>();

/** While the sandbox is open: settings from files under `roots` are the repository's (overridden). Returns the undo. */
export function distrustConfigUnder(roots: readonly string[]): () => void {
  const added = [...new Set(roots)];
  for (const root of added) toolWritable.set(root, (toolWritable.get(root) ?? 0) + 1);
  return () => {
    for (const root of added) {
      const n = (toolWritable.get(root) ?? 1) - 1;
      if (n > 0) toolWritable.set(root, n);
      else toolWritable.delete(root);
    }
  };
}

function inToolWritable(file: string | undefined): boolean {
  if (file === undefined || toolWritable.size === 0) return false;
  // The file as git named it and as it really is (a link, or a home directory reached through one).
  const names = [file, realPathOrNull(file) ?? realPathOrNull(path.dirname(file))?.concat(path.sep, path.basename(file))];
  return names.some((name) => name !== undefined && name !== null && [...toolWritable.keys()].some((root) => isWithin(name, root)));
}

function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `lfsDeclared`: the git-lfs extensions the repository's `.lfsconfig` names (git-lfs-extensions.ts). */
function repositoryOverrides(entries: readonly ConfigEntry[], workTree: string, lfsDeclared: readonly string[] = []): ConfigPair[] {
  const overrides = new Map<string, string>();
  let helpersReset = false;
  const keptHelpers: string[] = [];
  const extensions = new Set(lfsDeclared);
  const usersOwn = new Set<string>();
  let lastOwnPriority = -1;
  for (const { scope, file, key, value } of entries) {
    const fromRepository = scope === 'local' || scope === 'worktree' || scope === 'file' || inToolWritable(file);
    const extension = lfsExtensionKey(key);
    if (extension && fromRepository) extensions.add(extension.name);
    else if (extension) usersOwn.add(`${extension.name}\0${extension.last}`);
    if (extension?.last === 'priority' && !fromRepository) lastOwnPriority = Math.max(lastOwnPriority, Number.parseInt(value, 10) || 0);
    if (key.toLowerCase() === 'credential.helper') {
      if (fromRepository) helpersReset = true;
      else keptHelpers.push(value);
      continue;
    }
    if (!fromRepository) continue;
    const neutral = neutralValue(key, value);
    if (neutral === FILE_TRANSPORT_OFF) overrides.set('protocol.file.allow', 'never');
    else if (neutral === WORKTREE_HERE) overrides.set(key, workTree);
    else if (neutral !== null) overrides.set(key, neutral);
  }
  // An extension the repository declares runs no program of its choosing (neutralValue), nor none
  // at all: git-lfs fails every LFS file's clean for an extension without one. `cat` passes the
  // content on, unless the user's own config gives the program.
  // Nor two at one priority ("duplicate priority": the same failure): each gets its own, after the user's.
  for (const name of extensions) {
    for (const last of ['clean', 'smudge']) {
      const key = `lfs.extension.${name}.${last}`;
      if (!usersOwn.has(`${name}\0${last}`) && !overrides.has(key)) overrides.set(key, 'cat');
    }
    overrides.set(`lfs.extension.${name}.priority`, String(++lastOwnPriority));
  }
  const pairs: ConfigPair[] = [...overrides];
  // An empty value empties the helper list; the user's own helpers are added back after it.
  if (helpersReset) pairs.push(['credential.helper', ''], ...keptHelpers.map((h): ConfigPair => ['credential.helper', h]));
  return pairs;
}
