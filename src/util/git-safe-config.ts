// A repository the runner works on is untrusted input, and git runs programs its config names:
// fsmonitor on `git status`, clean filters on `git add`, textconv and external diff on `git diff`,
// `!` aliases, ssh commands, credential helpers. Every git process the runner starts (snapshots,
// diffs, the hand-off) and every git command a tool runs gets those settings overridden from the
// outside: as `-c` arguments for the runner's own git, as GIT_CONFIG_COUNT/KEY/VALUE (which
// outrank the repository's own config) for the tools' environment. Only settings that come from
// the repository (scopes `local` and `worktree`, submodule configs) are overridden; the user's
// own global config is theirs (git-lfs installed globally keeps working).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostPathVariable, hostProgram } from './host-program.js';

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
      return value.trimStart().startsWith('!') ? '' : null;
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
    case 'instaweb':
      return last === 'httpd' ? '' : null;
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

interface Cached {
  stamp: string;
  /** Files whose change means the pairs must be computed again: the configs and what they include. */
  watched: string[];
  pairs: readonly ConfigPair[];
}

const cache = new Map<string, Cached>();

/**
 * ALWAYS_SAFE plus an override for every program-running setting the repository at `dir` (and its
 * submodules) sets. Cached per repository until one of its config files changes (a stat each).
 */
export function safeGitConfig(dir: string): readonly ConfigPair[] {
  const gitDir = findGitDir(dir);
  if (!gitDir) return ALWAYS_SAFE;
  const files = configFiles(gitDir);
  const hit = cache.get(gitDir);
  // Included files count too: an include.path naming a file in the work tree would otherwise let
  // anyone who can edit that file add a program to the config without the cache noticing.
  if (hit && hit.stamp === stampOf(unique([...files, ...hit.watched]))) return hit.pairs;
  const included: string[] = [];
  const pairs = [...ALWAYS_SAFE, ...repositoryOverrides(dir, files, gitDir, included)];
  const watched = unique([...files, ...included]);
  cache.set(gitDir, { stamp: stampOf(watched), watched: included, pairs });
  return pairs;
}

/**
 * Git reads core.worktree while it sets the repository up, before `-c` and GIT_CONFIG_* apply;
 * only --work-tree and GIT_WORK_TREE outrank it. The override is used that way, when there is one.
 */
function workTreeOverride(pairs: readonly ConfigPair[]): string | null {
  return pairs.find(([key]) => key.toLowerCase() === 'core.worktree')?.[1] ?? null;
}

/** As `-c key=value` arguments, for the runner's own git commands. */
export function safeGitArgs(dir: string): string[] {
  const pairs = safeGitConfig(dir);
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

function stampOf(files: string[]): string {
  return files.map(statStamp).join('|');
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/** The file an include.path / includeIf.*.path value names, relative to the config that names it. */
function includedFile(value: string, from: string): string | null {
  const home = process.env.HOME;
  if (value.startsWith('~/')) return home ? path.join(home, value.slice(2)) : null;
  return path.resolve(path.dirname(from), value);
}

function repositoryOverrides(dir: string, files: string[], gitDir: string, included: string[]): ConfigPair[] {
  const entries: Array<{ scope: string; key: string; value: string }> = [];
  const list = gitConfig(dir, ['config', '--list', '--show-scope', '-z']);
  if (list === null) {
    // Cannot list (a git without --show-scope, or a broken config): read the repository's files
    // directly, and treat every entry in them as the repository's.
    for (const file of files.slice(0, 2)) entries.push(...fileEntries(dir, file));
  } else {
    const fields = list.split('\0');
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [key, ...value] = fields[i + 1]!.split('\n');
      entries.push({ scope: fields[i]!, key: key!, value: value.join('\n') });
    }
  }
  // Submodules' configs are repository content too (git runs them for `git -C sub ...`).
  for (const file of files.slice(2)) entries.push(...fileEntries(dir, file));

  const overrides = new Map<string, string>();
  let helpersReset = false;
  const keptHelpers: string[] = [];
  for (const { scope, key, value } of entries) {
    const fromRepository = scope === 'local' || scope === 'worktree' || scope === 'file';
    const lower = key.toLowerCase();
    if (fromRepository && (lower === 'include.path' || (lower.startsWith('includeif.') && lower.endsWith('.path')))) {
      const file = includedFile(value, files[0]!);
      if (file) included.push(file);
    }
    if (key.toLowerCase() === 'credential.helper') {
      if (fromRepository) helpersReset = true;
      else keptHelpers.push(value);
      continue;
    }
    if (!fromRepository) continue;
    const neutral = neutralValue(key, value);
    if (neutral === FILE_TRANSPORT_OFF) overrides.set('protocol.file.allow', 'never');
    else if (neutral === WORKTREE_HERE) overrides.set(key, path.basename(gitDir) === '.git' ? path.dirname(gitDir) : dir);
    else if (neutral !== null) overrides.set(key, neutral);
  }
  const pairs: ConfigPair[] = [...overrides];
  // An empty value empties the helper list; the user's own helpers are added back after it.
  if (helpersReset) pairs.push(['credential.helper', ''], ...keptHelpers.map((h): ConfigPair => ['credential.helper', h]));
  return pairs;
}

function fileEntries(dir: string, file: string): Array<{ scope: string; key: string; value: string }> {
  const out = gitConfig(dir, ['config', '--file', file, '--list', '--includes', '-z']);
  if (out === null) return [];
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [key, ...value] = entry.split('\n');
      return { scope: 'file', key: key!, value: value.join('\n') };
    });
}

/** git itself, with nothing from the caller that could redirect it, no system config, and only a listing. */
function gitConfig(cwd: string, args: string[]): string | null {
  const program = hostProgram('git', process.env.PATH ?? '/usr/bin:/bin', cwd);
  if (program === null) return null;
  try {
    return execFileSync(program, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
      env: { PATH: hostPathVariable(process.env.PATH ?? '/usr/bin:/bin', cwd), HOME: process.env.HOME ?? '/', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
      maxBuffer: 8 * 1024 * 1024,
    });
  } catch {
    return null;
  }
}

/** The repository's git directory for `dir` (following a `.git` file's `gitdir:`), or null. */
export function findGitDir(dir: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (pointer) return path.resolve(current, pointer[1]!.trim());
    }
    if (path.dirname(current) === current) return null;
  }
}

/** config, config.worktree, then every submodule's config under modules/. */
function configFiles(gitDir: string): string[] {
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')];
  const walk = (dir: string, depth: number) => {
    if (depth > 4) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      if (fs.existsSync(path.join(sub, 'config'))) files.push(path.join(sub, 'config'));
      walk(path.join(sub, 'modules'), depth + 1);
    }
  };
  walk(path.join(gitDir, 'modules'), 0);
  return files;
}

function statStamp(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return '-';
  }
}
