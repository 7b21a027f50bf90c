// The one directory walker behind ls, glob, grep and read_many_files. It honours .gitignore files
// (root and nested, with git's precedence: the deepest file that decides wins), always skips .git
// and node_modules, and never follows a symbolic link: a linked directory could lead out of the
// workspace, and a linked file's target, when it is inside, is reached under its real path anyway.
// So every path it yields is canonical. Entries come in a stable order (names sorted at each
// level, depth first), and consumers stop early by simply not asking for more. A name that is not
// UTF-8 is yielded as shown (path-bytes.ts), with its bytes as the absolute path to open.
import { isUtf8 } from 'node:buffer';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Ignore } from 'ignore';
import { ignoreRules, picomatchLib } from '../util/globs.js';
import type { Workspace } from '../util/workspace.js';
import type { UnreadablePaths } from './unreadable-paths.js';
import { gitignoreText } from './gitignore-text.js';
import { gitBytes, hasToEscape, joinPath, shownName, shownText } from './path-bytes.js';

/** Never walked into, ignored or not: huge, and not what a model searching a project means. */
// `.unattended` holds this runner's own outputs (transcripts, reports, earlier runs' copies): not
// the project's content, and not for a search to wade through.
export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set(['.git', 'node_modules', '.unattended']);

/**
 * A walk visits at most this many entries, so a runaway tree cannot stall the run. Far above any
 * real project (a 200,000-file tree is walked whole in about a second); the tools say so when a
 * walk stops here, so a partial search never reads as "nothing found".
 */
export const MAX_WALK_ENTRIES = 1_000_000;

const MAX_GITIGNORE_BYTES = 1 << 20;

export interface WalkEntry {
  /** Workspace-relative, `/`-separated, as shown (path-bytes.ts). */
  relative: string;
  /** What to open: bytes where a name on the way is not UTF-8. */
  absolute: string | Buffer;
  isDirectory: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Yield directories as well as files. */
  directories?: boolean;
  maxEntries?: number;
  /** Filled in as the walk goes: tells a consumer whether the walk itself was cut short. */
  stats?: WalkStats;
}

export interface WalkStats {
  visited: number;
  limitHit: boolean;
  /** The entry limit the walk stopped at, set with limitHit (a test may lower it). */
  limit?: number;
  /** Given, it collects the directories the walk could not list (nothing under them was seen). */
  unreadable?: UnreadablePaths;
}

interface IgnoreLevel {
  /** Workspace-relative directory holding the .gitignore ('' for the root). */
  dir: string;
  rules: Ignore;
}

/** The .gitignore files in force at one directory. */
export class IgnoreRules {
  private constructor(private readonly levels: readonly IgnoreLevel[]) {}

  /** No .gitignore is in force: nothing is ignored but what is always skipped. */
  get empty(): boolean {
    return this.levels.length === 0;
  }

  /** Rules in force for the entries of `dir` (canonical, inside the workspace), its own .gitignore included. */
  static async forDirectory(workspace: Workspace, dir: string): Promise<IgnoreRules> {
    return (await IgnoreRules.above(workspace, dir)).enter(dir, toRelative(workspace, dir));
  }

  /**
   * The .gitignore files of the root and of every directory above `dir`. If `dir` is itself
   * ignored or skipped, the caller asked for it by name: none of them apply then.
   */
  static async above(workspace: Workspace, dir: string): Promise<IgnoreRules> {
    return (await IgnoreRules.downTo(workspace, dir)) ?? new IgnoreRules([]);
  }

  /**
   * Whether a walk from the root leaves out the canonical directory `dir` (inside the workspace):
   * it, or a directory above it, is gitignored or always skipped. A walk that starts there, its
   * name asked for, does not.
   */
  static async leftOut(workspace: Workspace, dir: string): Promise<boolean> {
    return (await IgnoreRules.downTo(workspace, dir)) === null;
  }

  /** The rules above `dir`, or null when `dir` or a directory above it is ignored or skipped. */
  private static async downTo(workspace: Workspace, dir: string): Promise<IgnoreRules | null> {
    const relative = toRelative(workspace, dir);
    const segments = relative ? relative.split('/') : [];
    let rules = new IgnoreRules([]);
    for (let i = 0; i < segments.length; i++) {
      rules = await rules.enter(path.join(workspace.root, ...segments.slice(0, i)), segments.slice(0, i).join('/'));
      // `dir` or a directory above it is ignored: asked for by name.
      if (ALWAYS_SKIPPED.has(segments[i]!) || rules.ignores(segments.slice(0, i + 1).join('/'), true)) return null;
    }
    return rules;
  }

  /** These rules plus the .gitignore of `absolute` (workspace-relative `relative`), if it has one. */
  async enter(absolute: string | Buffer, relative: string, hasGitignore?: boolean): Promise<IgnoreRules> {
    if (hasGitignore === false) return this;
    const content = await readGitignore(joinPath(absolute, '.gitignore'));
    if (content === null) return this;
    return new IgnoreRules([...this.levels, { dir: relative, rules: compiledRules(gitignoreText(content)) }]);
  }

  /**
   * Whether the .gitignore files in force ignore `relative` itself, the deepest that decides
   * winning. Its directories are the caller's to decide (each with the rules in force above it).
   */
  ignores(relative: string, isDirectory: boolean): boolean {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i]!;
      const sub = gitBytes(level.dir ? relative.slice(level.dir.length + 1) : relative);
      const verdict = ownVerdict(level.rules, isDirectory ? `${sub}/` : sub);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

/**
 * The rules of one .gitignore, each compiled now: a line JavaScript cannot compile (a regular
 * expression too large, too deeply nested) is left out, as matching nothing, rather than failing
 * every walk of the tree at its first test.
 */
function compiledRules(text: string): Ignore {
  const rules = ignoreRules().add(text);
  if (compiles(rules)) return rules;
  return ignoreRules().add(text.split('\n').filter((line) => compiles(ignoreRules().add(line))).join('\n'));
}

/** Whether every rule's regular expression compiles (the library compiles each on its first test). */
function compiles(rules: Ignore): boolean {
  try {
    for (const rule of (rules as unknown as { _rules: { _rules: Array<{ regex: RegExp }> } })._rules._rules) void rule.regex;
    return true;
  } catch {
    return false;
  }
}

/**
 * One level's verdict on a path alone. The library's test() also counts a parent directory its own
 * rules exclude, though a deeper .gitignore may have re-included it (`[a-c]` at the root, `!/*`
 * in x/: x/b/f is not ignored, as git says, but the root's test() said so by x/b); and it keeps
 * every path it was asked about in a cache. Its rule set's own test() answers for the path alone.
 */
function ownVerdict(rules: Ignore, relative: string): { ignored: boolean; unignored: boolean } {
  return (rules as unknown as { _rules: { test(path: string, mode: 'regex'): { ignored: boolean; unignored: boolean } } })._rules.test(relative, 'regex');
}

/** A .gitignore's bytes: only a regular file, as git (2.32 on) reads none through a link. */
async function readGitignore(file: string | Buffer): Promise<Buffer | null> {
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile() || stat.size > MAX_GITIGNORE_BYTES) return null;
    return await fs.readFile(file);
  } catch {
    return null;
  }
}

export function toRelative(workspace: Workspace, absolute: string): string {
  return path.relative(workspace.root, absolute).split(path.sep).join('/');
}

/** Walks the canonical directory `start` (inside the workspace); see the file comment. */
export async function* walk(workspace: Workspace, start: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const stats = options.stats ?? { visited: 0, limitHit: false };
  const maxEntries = options.maxEntries ?? MAX_WALK_ENTRIES;
  // Depth first with a stack of open directories, not a generator per directory: an entry yielded
  // through nested generators is handed up once per level (measured: half the time of walking
  // 200,000 files went to that).
  const stack: OpenDirectory[] = [];
  const root = await openDirectory(start, toRelative(workspace, start), await IgnoreRules.above(workspace, start), options.signal, stats);
  if (root) stack.push(root);
  while (stack.length > 0) {
    const dir = stack[stack.length - 1]!;
    const index = dir.next++;
    const entry = dir.entries[index];
    if (!entry) {
      stack.pop();
      continue;
    }
    if (stats.limitHit) return;
    if (++stats.visited > maxEntries) {
      stats.limitHit = true;
      stats.limit = maxEntries;
      return;
    }
    if (entry.isSymbolicLink()) continue;
    const name = dir.shown ? dir.shown[index]! : entry.name;
    const relative = dir.relative ? `${dir.relative}/${name}` : name;
    const absolute = dir.raw || typeof dir.absolute !== 'string' ? joinPath(dir.absolute, dir.raw ? dir.raw[index]! : entry.name) : childPath(dir.absolute, entry.name);
    if (entry.isDirectory()) {
      if (ALWAYS_SKIPPED.has(name) || dir.rules.ignores(relative, true)) continue;
      if (options.directories) yield { relative, absolute, isDirectory: true };
      const child = await openDirectory(absolute, relative, dir.rules, options.signal, stats);
      if (child) stack.push(child);
    } else if (entry.isFile() && !dir.rules.ignores(relative, false)) {
      yield { relative, absolute, isDirectory: false };
    }
  }
}

interface OpenDirectory {
  absolute: string | Buffer;
  relative: string;
  /** The rules for its entries: its parent's, plus its own .gitignore. */
  rules: IgnoreRules;
  /** Sorted by name as shown. */
  entries: Dirent[];
  /** Each entry's name as shown, where one differs from its Dirent's name (else null). */
  shown: string[] | null;
  /** Each entry's name as bytes where one is not UTF-8 (else null). */
  raw: Array<string | Buffer> | null;
  next: number;
}

/** A directory's entries and rules; null when it cannot be read (unreadable, said in `stats`, or vanished). */
async function openDirectory(absolute: string | Buffer, relative: string, parentRules: IgnoreRules, signal: AbortSignal | undefined, stats: WalkStats): Promise<OpenDirectory | null> {
  signal?.throwIfAborted();
  let listed: ListedNames;
  try {
    listed = await listDirectory(absolute);
  } catch (error) {
    stats.unreadable?.add(relative, true, (error as NodeJS.ErrnoException).code);
    return null;
  }
  const hasGitignore = listed.entries.some((e, i) => (listed.shown ? listed.shown[i] : e.name) === '.gitignore' && e.isFile());
  return { absolute, relative, rules: await parentRules.enter(absolute, relative, hasGitignore), ...listed, next: 0 };
}

export interface ListedNames {
  /** Sorted by name as shown; read as bytes (`name` a Buffer) where `raw` is given. */
  entries: Dirent[];
  /** See OpenDirectory. */
  shown: string[] | null;
  raw: Array<string | Buffer> | null;
}

/**
 * A directory's entries, sorted by name as shown (path-bytes.ts): names that shownText changes (a
 * control character, a backslash before xHH) are shown escaped. Node reads a name that is not
 * UTF-8 with U+FFFD in it: then the directory is read again as bytes, for those names' bytes.
 */
export async function listDirectory(absolute: string | Buffer): Promise<ListedNames> {
  const entries = await fs.readdir(absolute, { withFileTypes: true });
  if (!entries.some((e) => e.name.includes('\ufffd') || hasToEscape(e.name))) {
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { entries, shown: null, raw: null };
  }
  const bytes = entries.some((e) => e.name.includes('\ufffd'));
  const named = bytes
    ? (await fs.readdir(absolute, { withFileTypes: true, encoding: 'buffer' })).map((entry) => {
        const shown = shownName(entry.name);
        return { entry: entry as unknown as Dirent, shown, raw: isUtf8(entry.name) ? entry.name.toString('utf8') : entry.name };
      })
    : entries.map((entry) => ({ entry, shown: shownText(entry.name), raw: entry.name as string | Buffer }));
  named.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return { entries: named.map((n) => n.entry), shown: named.map((n) => n.shown), raw: bytes ? named.map((n) => n.raw) : null };
}

/** `dir` is canonical (no `.`, `..` or doubled separators), so a name is appended without path.join's normalising pass. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/**
 * A matcher for glob patterns. With `basename`, a pattern without `/` matches the file name at
 * any depth (`*.ts`), as grep's --include and .gitignore do.
 */
export function globMatcher(patterns: readonly string[], basename = false): (relative: string) => boolean {
  const matchers = patterns.map((p) => {
    const matches = picomatchLib()(p, { dot: true });
    return basename && !p.includes('/') ? (rel: string) => matches(rel.slice(rel.lastIndexOf('/') + 1)) : matches;
  });
  return (relative) => matchers.some((m) => m(relative));
}

/** Why a glob pattern is refused, or null: patterns stay relative and inside the walk. */
export function globPatternProblem(pattern: string): string | null {
  if (pattern.trim() === '') return 'pattern is empty';
  if (path.isAbsolute(pattern) || pattern.startsWith('~')) return `pattern '${pattern}' must be relative (give the directory in 'path')`;
  if (pattern.split(/[\\/]/).includes('..')) return `pattern '${pattern}' must not contain '..'`;
  return null;
}
