// A continued run (`run --continue`) goes on with the work of the runs it continues. A run that a
// provider outage stopped has often done its edits already; the run that continues it then changes
// nothing new, and counted alone it would fail `require_changes` and hand nothing off, though the
// work is there. So each file the earlier run's files_changed lists (what the chain changed since
// its first run started: a continued run lists the chain's changes in turn) counts as changed by
// this run too, from the content it had when the chain began: the diff the earlier run recorded,
// taken back from the file as it is now. Only where that is sound: the file is as the earlier run
// left it (its diff applies back and forth exactly), the diff is whole (not cut at 1 MB, not a
// binary file's one line), and the workspace is the earlier run's (a `workspace_mode: copy` run
// starts from a fresh copy, where none of that work is).
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import type { ChangedFile } from '../types/changes.js';
import { jsdiff } from '../util/jsdiff.js';
import { readInside, realWorkspace } from './changed-files.js';
import { bytesBefore } from './carried-bytes.js';
import { readRegularFile } from '../util/read-regular-file.js';

/** A file the chain changed: workspace-relative, and its content when the chain began (null: it did not exist). */
export interface CarriedChange {
  path: string;
  original: string | null;
  /** The content before as bytes, for a file that is not UTF-8 text (carried-bytes.ts); `original` is then as UTF-8 reads it. */
  originalBytes?: Buffer;
}

export interface Carried {
  changes: CarriedChange[];
  /** Files the earlier runs changed that cannot be carried, and why: said in a warning. */
  notCarried: string[];
}

export function carryEarlierChanges(workspace: string, earlierWorkspace: string, files: readonly ChangedFile[]): Carried {
  const carried: Carried = { changes: [], notCarried: [] };
  if (files.length === 0 || !sameDirectory(workspace, earlierWorkspace)) return carried;
  const root = realWorkspace(workspace);
  for (const file of files) {
    const now = readInside(workspace, root, file.path);
    if (now !== null && now.startsWith('(now ')) {
      carried.notCarried.push(`${file.path} (it is now a link, or lies outside the workspace)`);
      continue;
    }
    const original = contentBefore(file, now);
    if (typeof original === 'string' && now !== null && now.includes('\uFFFD')) {
      // Read as UTF-8 it may be another file than its bytes: its bytes before are rebuilt (carried-bytes.ts).
      const bytes = nonUtf8Before(workspace, file, original);
      if (bytes === undefined) carried.changes.push({ path: file.path, original });
      else if (bytes === null) carried.notCarried.push(`${file.path} (it is not UTF-8 text, and its recorded diff cannot say which bytes it held before)`);
      else carried.changes.push({ path: file.path, original, originalBytes: bytes });
    } else if (typeof original === 'string' || original === null) carried.changes.push({ path: file.path, original });
    else if (original.why) carried.notCarried.push(`${file.path} (${original.why})`);
  }
  return carried;
}

type Before = string | null | { why: string | null };

/** The file's content when the chain began, from its recorded diff and its content now. */
function contentBefore(file: ChangedFile, now: string | null): Before {
  // Made by the chain: there was nothing before. Gone since: no change left. One whose diff cannot
  // say what it held (binary, or over 1 MB: a build's output) is taken as it is.
  const whole = !/^\[diff cut: /m.test(file.diff) && !/^Binary files /m.test(file.diff) && !/^\(no diff: /.test(file.diff);
  if (file.status === 'added' && now === null) return { why: null };
  if (file.status === 'added' && !whole) return null;
  if (file.status === 'modified' && now === null) return { why: 'deleted since' };
  if (file.status === 'deleted' && now !== null) return { why: 'made again since' };
  if (!whole) return { why: 'its diff is not whole (binary, or cut at 1 MB)' };
  const diff = jsdiff();
  let patches;
  try {
    patches = diff.parsePatch(file.diff);
  } catch {
    return { why: 'its recorded diff cannot be read' };
  }
  if (patches.length === 0 || patches.some((p) => p.hunks.length === 0)) return { why: 'its diff is not whole (binary, or a mode change only)' };
  // A file tool's diffs of a run cut short come one per call, in order: taken back newest first.
  let content: string | false = now ?? '';
  for (const patch of [...patches].reverse()) {
    if (content === false) break;
    content = diff.applyPatch(content, diff.reversePatch(patch));
  }
  if (content === false) return { why: 'changed since the earlier run' };
  // And forth again: what the diff makes of it must be the file as it is now, exactly.
  let again: string | false = content;
  for (const patch of patches) {
    if (again === false) break;
    again = diff.applyPatch(again, patch);
  }
  if (again !== (now ?? '')) return { why: 'changed since the earlier run' };
  // A diff applies to any file that holds its hunks: an edit since, past a hunk's edge, would pass.
  // Its context says where the file began and ended when the diff was made.
  if (!edgesHold(patches.at(-1)!, now ?? '')) return { why: 'changed since the earlier run' };
  return file.status === 'added' ? null : content;
}

/**
 * The bytes of a file the chain changed as they were when it began, when they are not UTF-8 text
 * (undefined: they are, `original` is right as it is); null when they cannot be told.
 */
function nonUtf8Before(workspace: string, file: ChangedFile, original: string): Buffer | null | undefined {
  // Never waits on a FIFO a command left there (read-regular-file.ts); readInside read it just now.
  const now = readRegularFile(path.join(workspace, file.path), 512 * 1024 * 1024);
  if (now === null) return null;
  if (isUtf8(now)) return undefined;
  const patches = jsdiff().parsePatch(file.diff);
  // One diff (git's, for a change a command made): the file tools write UTF-8 text only.
  return patches.length === 1 ? bytesBefore(patches[0]!.hunks, now, original) : null;
}

/** Lines of context a recorded diff has around each change (the file tools' and git's default). */
const CONTEXT = 3;

/**
 * A hunk with fewer lines of context before its first change than CONTEXT began at the file's
 * start when it was made; one with fewer after its last change ended at the file's end. Both must
 * still hold for the file as it is now.
 */
function edgesHold(patch: { hunks: Array<{ newStart: number; newLines: number; lines: string[] }> }, now: string): boolean {
  const lineCount = now === '' ? 0 : now.split('\n').length - (now.endsWith('\n') ? 1 : 0);
  for (const hunk of patch.hunks) {
    const lines = hunk.lines.filter((line) => !line.startsWith('\\'));
    const before = lines.findIndex((line) => line[0] !== ' ');
    const after = [...lines].reverse().findIndex((line) => line[0] !== ' ');
    if (before === -1) continue;
    if (before < CONTEXT && hunk.newStart > 1) return false;
    if (after < CONTEXT && hunk.newStart + hunk.newLines - 1 !== lineCount && !(hunk.newLines === 0 && hunk.newStart === lineCount)) return false;
  }
  return true;
}

function sameDirectory(a: string, b: string): boolean {
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * The carried files as this run found them. The "every edit failed" rule asks what this run did:
 * a follow-up whose every edit failed did not do its work because the chain's earlier changes are
 * still there (they count for files_changed, checks and the hand-off, not as this run's work).
 */
export function carriedAsFound(workspace: string, changes: readonly CarriedChange[]): Map<string, string | null> {
  const root = realWorkspace(workspace);
  return new Map(changes.map((change) => [change.path, readInside(workspace, root, change.path)]));
}

/** The changed files without the carried ones this run left as it found them. */
export function ownChanges(workspace: string, changed: readonly string[], asFound: ReadonlyMap<string, string | null>): string[] {
  if (asFound.size === 0) return [...changed];
  const root = realWorkspace(workspace);
  return changed.filter((file) => !asFound.has(file) || readInside(workspace, root, file) !== asFound.get(file));
}
