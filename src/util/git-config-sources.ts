// Where a repository's git configuration comes from, for util/git-safe-config.ts. Git decides which
// files it reads from more than `.git/config`: a `commondir` file moves the whole configuration
// elsewhere, `extensions.worktreeConfig` adds config.worktree, includes add files anywhere, and an
// `includeIf "onbranch:…"` follows HEAD. Rather than guess which files those are, the repository's
// own configuration is asked of git itself, for every command, in the environment the command gets.
// Submodules' configurations (which git reads when a command recurses into them) are read file by
// file, every include followed whatever its condition: more than git reads, never less.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostProgramOutside } from './host-program.js';
import { direntsOf } from './paths.js';
import { isRegularFile, readRegularText } from './read-regular-file.js';

/** More than any pointer file git writes holds. */
const GIT_POINTER_BYTES = 1024 * 1024;

export interface ConfigEntry {
  /** git's scope (`local`, `worktree`, `global`, `command`, ...), or `file` for a submodule's. */
  scope: string;
  /** The file the setting was read from (absolute), when git says it: an include's is the included file. */
  file?: string;
  key: string;
  value: string;
}

/**
 * Every setting git reads for a command run in `cwd` with `env`, with its scope, or null when git
 * cannot list them. `git config` runs no program while it lists (no hooks, no fsmonitor, no
 * aliases, no pager on a pipe), and follows commondir, the worktree config and includes as any
 * other command does.
 */
export function listConfig(cwd: string, env?: NodeJS.ProcessEnv): ConfigEntry[] | null {
  // git would wait on a FIFO a command left as commondir until its time limit, at every call:
  // the files are read instead (gitDirEntries), and the runner puts commondir back before its own git.
  const gitDir = findGitDir(cwd);
  const commondir = gitDir === null ? null : path.join(gitDir, 'commondir');
  if (commondir !== null && fs.existsSync(commondir) && !isRegularFile(commondir)) return null;
  const out = gitConfig(cwd, ['config', '--list', '--show-scope', '--show-origin', '--includes', '-z'], env);
  if (out === null) return null;
  const entries: ConfigEntry[] = [];
  const fields = out.split('\0');
  // scope, origin (`file:PATH`, relative to cwd for the repository's own; `command line:`...), key\nvalue.
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const origin = fields[i + 1]!;
    const file = origin.startsWith('file:') ? path.resolve(cwd, origin.slice('file:'.length)) : undefined;
    entries.push({ scope: fields[i]!, ...(file ? { file } : {}), ...keyValue(fields[i + 2]!) });
  }
  return entries;
}

/**
 * The settings of the git directory `gitDir` as files say them, without git's help: its config,
 * config.worktree, the config of the directory its `commondir` names, and every file any of them
 * includes (conditions ignored), as scope `file`. For submodules, and for a repository git could
 * not list.
 */
export function gitDirEntries(gitDir: string): ConfigEntry[] {
  return cachedRead(gitDir).entries;
}

/**
 * The git directories of the submodules of the repository whose git directory is `gitDir`, nested
 * ones too. A submodule's lies at modules/<name>, and a name may hold slashes (`git submodule add
 * URL libs/core` names it by its path: modules/libs/core), so a directory that is no git directory
 * is looked into as well; in a git directory, only its own modules/.
 */
export function submoduleGitDirs(gitDir: string): string[] {
  const roots = unique([gitDir, commonDirOf(gitDir)].map((dir) => path.join(dir, 'modules')));
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 12) return;
    for (const entry of direntsOf(dir)) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      if (fs.existsSync(path.join(sub, 'config')) || fs.existsSync(path.join(sub, 'commondir'))) {
        found.push(sub);
        walk(path.join(sub, 'modules'), depth + 1);
      } else {
        walk(sub, depth + 1);
      }
    }
  };
  for (const root of roots) walk(root, 0);
  return found;
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
      const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '');
      if (pointer) return path.resolve(current, pointer[1]!.trim());
    }
    if (path.dirname(current) === current) return null;
  }
}

/** Where git keeps what worktrees share (config, objects, modules): what `commondir` names, else `gitDir`. */
export function commonDirOf(gitDir: string): string {
  const named = readText(path.join(gitDir, 'commondir'))?.trim();
  return named ? path.resolve(gitDir, named) : gitDir;
}

/**
 * The files the configuration of the git directory `gitDir` is read from, as gitDirEntries reads
 * them: its config, config.worktree, commondir and its config, every file an include names
 * (conditions ignored); those that exist.
 */
export function gitDirConfigFiles(gitDir: string): string[] {
  return [...cachedRead(gitDir).stamps.keys()].filter((file) => fs.existsSync(file));
}

/** As gitDirConfigFiles, and the files an include names that do not exist yet (a write would make them count). */
export function gitDirConfigSources(gitDir: string): string[] {
  return [...cachedRead(gitDir).stamps.keys()];
}

interface Read {
  /** Every file the entries depend on, existing or not, with its stat when read. */
  stamps: Map<string, string>;
  entries: ConfigEntry[];
}

const reads = new Map<string, Read>();

/** Read again only when one of the files it depends on changed (a stat each). */
function cachedRead(gitDir: string): Read {
  const hit = reads.get(gitDir);
  if (hit && [...hit.stamps].every(([file, stamp]) => statStamp(file) === stamp)) return hit;
  const read = readGitDir(gitDir);
  reads.set(gitDir, read);
  return read;
}

function readGitDir(gitDir: string): Read {
  const stamps = new Map<string, string>();
  const entries: ConfigEntry[] = [];
  const commondir = path.join(gitDir, 'commondir');
  stamps.set(commondir, statStamp(commondir));
  const files = unique([path.join(commonDirOf(gitDir), 'config'), path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')]);
  const queue = files.map((file) => ({ file, depth: 0 }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { file, depth } = next;
    if (stamps.has(file)) continue;
    stamps.set(file, statStamp(file));
    if (!fs.existsSync(file)) continue;
    for (const entry of fileEntries(file, [gitDir, linkedWorkTree(gitDir)])) {
      entries.push(entry);
      const included = depth < 10 ? includedFile(entry, file) : null;
      if (included) queue.push({ file: included, depth: depth + 1 });
    }
  }
  return { stamps, entries };
}

/**
 * The work tree a linked work tree's git directory (`.git/worktrees/<name>`) serves, which its
 * `gitdir` file names (`<work tree>/.git`), or null. It lies outside the main repository.
 */
function linkedWorkTree(gitDir: string): string | null {
  const dotGit = readText(path.join(gitDir, 'gitdir'))?.trim();
  return dotGit ? path.dirname(path.resolve(gitDir, dotGit)) : null;
}

/** The file an include.path / includeIf.*.path entry names, relative to the config that names it. */
function includedFile(entry: ConfigEntry, from: string): string | null {
  const key = entry.key.toLowerCase();
  if (key !== 'include.path' && !(key.startsWith('includeif.') && key.endsWith('.path'))) return null;
  if (entry.value.startsWith('~/')) {
    const home = process.env.HOME;
    return home ? path.join(home, entry.value.slice(2)) : null;
  }
  return path.resolve(path.dirname(from), entry.value);
}

/** `places`: where the git that reads it must not come from (the repository the file configures). */
function fileEntries(file: string, places: readonly (string | null)[]): ConfigEntry[] {
  // From the root, where git finds no repository to set up: in the git directory it would read its
  // commondir first, and wait on one a command made a FIFO.
  const out = gitConfig('/', ['config', '--file', file, '--no-includes', '--list', '-z'], undefined, [path.dirname(file), ...places]);
  if (out === null) return [];
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => ({ scope: 'file', ...keyValue(entry) }));
}

function keyValue(entry: string): { key: string; value: string } {
  const newline = entry.indexOf('\n');
  // A key without a value (`[core] bare`) is listed without the newline.
  return newline < 0 ? { key: entry, value: '' } : { key: entry.slice(0, newline), value: entry.slice(newline + 1) };
}

/**
 * git itself, only listing. `env`: the environment the command the listing is for gets (so that
 * git finds the same repository and files); by default one with nothing from the caller that could
 * redirect it and no system config. git runs on the host, so it is never one from `places` or the
 * repository around `cwd` (a `node_modules/.bin/git` the repository holds, first on PATH under npx).
 */
function gitConfig(cwd: string, args: string[], env?: NodeJS.ProcessEnv, places: readonly (string | null)[] = []): string | null {
  const searchPath = (env ?? process.env).PATH ?? '/usr/bin:/bin';
  const found = hostProgramOutside('git', searchPath, [cwd, ...places]);
  if (found === null) return null;
  try {
    return execFileSync(found.program, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
      env: env ?? { PATH: found.pathVariable, HOME: process.env.HOME ?? '/', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
      maxBuffer: 8 * 1024 * 1024,
    });
  } catch {
    return null;
  }
}

/** A small file of git's (`.git` file, commondir, gitdir), never waiting on a FIFO a command left there. */
function readText(file: string): string | null {
  return readRegularText(file, GIT_POINTER_BYTES);
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function statStamp(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}`;
  } catch {
    return '-';
  }
}
