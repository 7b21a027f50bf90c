// The files a run changed, with their diffs, for the files_changed event the runner emits once
// before run_end. File tools report their changes (FileDiff, with the content before the run's
// first change); the diff is taken against what is on disk at the end, so a later change to the
// same file (by a shell command, say) is included. Changes no tool reported (shell, MCP) come
// from git (untracked-changes.ts) and are merged in; a file a file tool changed keeps that tool's
// view (which also covers ignored files), unless the tool first changed it after git's snapshot:
// then a command may have changed it before the tool did, and git's view starts where the run did.
import fs from 'node:fs';
import path from 'node:path';
import { jsdiff } from '../util/jsdiff.js';
import { capDiff, unifiedDiff } from '../util/unified-diff.js';
import type { ChangedFile, GitSeen } from '../types/changes.js';
import type { RunEvent } from '../types/events.js';
import { readRegularText } from '../util/read-regular-file.js';

/** Past what a JavaScript string holds: such a file could not be compared before either. */
const CHANGED_FILE_BYTES = 512 * 1024 * 1024;

export class FileChanges {
  /** Workspace-relative path -> content before the run first changed it (null: the run created it). */
  private readonly originals = new Map<string, string | null>();

  /** Sees every event before it is written (the transcript keeps only the diff, not the contents). */
  observe(event: RunEvent): void {
    if (event.type !== 'tool_result' || typeof event.return_display === 'string') return;
    const { fileName, originalContent } = event.return_display;
    if (!this.originals.has(fileName)) this.originals.set(fileName, originalContent);
  }

  /**
   * What the runs a continued run goes on from changed (earlier-changes.ts): counted like a file
   * tool's change made before anything else of this run, from the content when the chain began.
   */
  seed(rel: string, original: string | null): void {
    if (!this.originals.has(rel)) this.originals.set(rel, original);
  }

  /** The paths `collect` would list, without computing a diff for each. */
  paths(workspace: string, git: GitSeen): string[] {
    const changed: string[] = [];
    const root = workspace ? realWorkspace(workspace) : null;
    for (const [rel, original] of this.originals) {
      if (git.replaces.has(rel)) continue;
      if ((workspace ? readInside(workspace, root, rel) : original) !== original) changed.push(rel);
    }
    for (const f of this.gitOnly(git)) changed.push(f.path);
    return changed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Reads the workspace now: every file whose content differs from before the run, sorted by path. */
  collect(workspace: string, git: GitSeen): ChangedFile[] {
    const changed: ChangedFile[] = [];
    const root = workspace ? realWorkspace(workspace) : null;
    for (const [rel, original] of this.originals) {
      if (git.replaces.has(rel)) continue;
      const current = workspace ? readInside(workspace, root, rel) : original;
      if (current === original) continue;
      const status = original === null ? 'added' : current === null ? 'deleted' : 'modified';
      const diff = unifiedDiff(jsdiff(), original === null ? '/dev/null' : `a/${rel}`, current === null ? '/dev/null' : `b/${rel}`, original ?? '', current ?? '', {
        context: 3,
        headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true },
      });
      changed.push({ path: rel, status, diff: capDiff(diff) });
    }
    return [...changed, ...this.gitOnly(git)].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** git's changes that are not a file tool's to report. */
  private gitOnly(git: GitSeen): ChangedFile[] {
    return git.files.filter((f) => !this.originals.has(f.path) || git.replaces.has(f.path));
  }
}

/** The workspace's real path, once per listing (not once per file); null when it cannot be resolved. */
export function realWorkspace(workspace: string): string | null {
  try {
    return fs.realpathSync.native(workspace);
  } catch {
    return null;
  }
}

/**
 * The file's content now, read only where it really lies inside the workspace: a command may have
 * replaced it (or a directory above it) with a link to a file outside, whose content must not end
 * up in the report (the runner would read, on the command's behalf, what the sandbox hid from it).
 * `root` is the workspace's real path (null: it is gone, so no file in it can be read).
 */
export function readInside(workspace: string, root: string | null, rel: string): string | null {
  const file = path.join(workspace, rel);
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return `(now a symbolic link to ${fs.readlinkSync(file)})\n`;
    if (root === null) return null;
    // One realpath(3) call: the JavaScript realpathSync lstat's every component of the path.
    const real = fs.realpathSync.native(file);
    const inside = path.relative(root, real);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return `(now outside the workspace: ${real})\n`;
    // A command may have left a FIFO where the file was, which a plain read would wait on forever:
    // only a regular file is read (read-regular-file.ts).
    if (!fs.statSync(real).isFile()) return '(now no regular file: a FIFO, a socket or a device)\n';
    return readRegularText(real, CHANGED_FILE_BYTES);
  } catch {
    return null;
  }
}
