// The runner's own git keeps to the repository as it was before any tool ran. The sandbox holds
// `.git/config` and `.git/hooks` read-only, but git finds them through `.git/commondir` when there
// is one, and a command may write that file (git creates it nowhere a tool needs it): git would
// then take config, hooks and refs from the directory it names — another repository (the hand-off
// would commit there, a batch target into its neighbour), or one the command filled with an
// fsmonitor or hooks for the next person who runs git there. GIT_COMMON_DIR cannot pin it (git
// 2.39 still reads refs through the file), so the file itself is put back as it was at the start
// before each git command of the runner and when the run ends, and the run is told. (What runs
// beside the runner's git, an MCP server, cannot write the git directory at all: sandbox.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { commonDirOf, findGitDir } from '../util/git-config-sources.js';
import { linksIn, removePlantedLinks, type GitWrites } from './planted-links.js';
import { canonicalPath, isDirectory } from '../util/paths.js';
import { readRegularText } from '../util/read-regular-file.js';

/** A repository's `commondir` as the run found it. */
class PinnedCommondir {
  /** What was found changed and put back, each said once. */
  readonly notes: string[] = [];

  constructor(
    readonly file: string,
    /** The file's text at the start; null: there was none. */
    private readonly original: string | null,
    /** The git directory and its common one, and the links in them at the start (planted-links.ts). */
    private readonly gitDirs: readonly string[] = [],
    private readonly links: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** Puts the file back when it differs from the start, and removes links a tool left where git writes. */
  restore(writes: GitWrites = 'all'): void {
    for (const note of removePlantedLinks(this.gitDirs, this.links, writes)) if (!this.notes.includes(note)) this.notes.push(note);
    const now = stateOf(this.file);
    if (now === this.original) return;
    const what = now === null ? `removed ${this.file}` : `wrote ${this.file} (${JSON.stringify(now.trim().slice(0, 200))})`;
    let note: string;
    try {
      if (this.original === null) fs.rmSync(this.file, { force: true, recursive: true });
      else fs.writeFileSync(this.file, this.original);
      note = `a tool ${what}, which would point git at another repository's config, hooks and refs: it was put back as it was before the run`;
    } catch (error) {
      note = `a tool ${what}, which points git at another repository's config, hooks and refs, and it could not be put back (${(error as Error).message}): check it before running git there`;
    }
    if (!this.notes.includes(note)) this.notes.push(note);
  }
}

/** Pinned repositories by canonical git directory. */
const pinned = new Map<string, PinnedCommondir>();

export interface PinnedLayout {
  /** Puts `commondir` back if need be; returns what was found changed during the run (once each). */
  restore(): string[];
}

/** Notes the layout of the repository `workspace` lies in, before any tool runs; null outside a repository. */
export function pinRepositoryLayout(workspace: string): PinnedLayout | null {
  const found = findGitDir(workspace);
  if (!found || !isDirectory(found)) return null;
  const gitDir = canonicalPath(found);
  const file = path.join(gitDir, 'commondir');
  // Refs and objects live in the common directory of a linked work tree.
  const gitDirs = [...new Set([gitDir, canonicalPath(commonDirOf(gitDir))])];
  const entry = new PinnedCommondir(file, stateOf(file), gitDirs, linksIn(gitDirs));
  pinned.set(gitDir, entry);
  return {
    restore() {
      entry.restore();
      return [...entry.notes];
    },
  };
}

/** Before the runner's git runs in `cwd`, writing `writes`: its repository's layout is put back as it was pinned. */
export function keepPinnedLayout(cwd: string, writes: GitWrites = 'all'): void {
  if (pinned.size === 0) return;
  const found = findGitDir(cwd);
  if (found) pinned.get(canonicalPath(found))?.restore(writes);
}

/** The file's text; null when there is none; a directory or other file git cannot read is a change too. */
function stateOf(file: string): string | null {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isFile() && !stat.isSymbolicLink()) return `(a ${stat.isDirectory() ? 'directory' : 'special file'})`;
  // Through a link too, never waiting on a FIFO or reading a device without end (read-regular-file.ts).
  return readRegularText(file, 1024 * 1024) ?? '(unreadable, or no regular file)';
}

