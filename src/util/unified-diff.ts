// A unified diff (jsdiff's format) computed on the part of the files that differs. jsdiff diffs
// whole files: an edit of one line in a 2,000-line file tokenizes and compares all 2,000 lines,
// per edit and again for the run's files_changed. Lines both versions share at the start and at the
// end cannot be part of a change; only the rest, with `context` lines either side, goes to jsdiff,
// and its hunks are moved back to their place in the file. It is the same text a whole-file diff
// gives, except where repeated lines allow several alignments of one change: then it may pick
// another, equally valid one (checked on 20,000 random edits: every patch applies to give the new text).
import type { StructuredPatch } from 'diff';

type Diff = typeof import('diff');

export interface UnifiedDiffOptions {
  context: number;
  headerOptions?: { includeIndex: boolean; includeUnderline: boolean; includeFileHeaders: boolean };
}

/** A diff in files_changed is cut past this: the transcript and the report hold every one. */
export const MAX_REPORTED_DIFF_BYTES = 1024 * 1024;

/** A diff past MAX_REPORTED_DIFF_BYTES ends at a whole line with a note of its size. */
export function capDiff(diff: string): string {
  if (diff.length <= MAX_REPORTED_DIFF_BYTES / 4 || Buffer.byteLength(diff) <= MAX_REPORTED_DIFF_BYTES) return diff;
  const kept = Buffer.from(diff).subarray(0, MAX_REPORTED_DIFF_BYTES).toString('utf8');
  return `${kept.slice(0, kept.lastIndexOf('\n') + 1)}[diff cut: ${Buffer.byteLength(diff)} bytes in all; git diff shows the rest]\n`;
}

export function unifiedDiff(diff: Diff, oldName: string, newName: string, oldText: string, newText: string, options: UnifiedDiffOptions): string {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let prefix = 0;
  const most = Math.min(a.length, b.length);
  while (prefix < most && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < most - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const start = Math.max(0, prefix - options.context);
  const keep = Math.max(0, suffix - options.context);
  const patch: StructuredPatch =
    oneBlockPatch(oldName, newName, a, b, start, prefix, suffix, keep) ??
    diff.structuredPatch(oldName, newName, a.slice(start, a.length - keep).join(''), b.slice(start, b.length - keep).join(''), undefined, undefined, {
      context: options.context,
    });
  for (const hunk of patch.hunks) {
    hunk.oldStart += start;
    hunk.newStart += start;
  }
  return diff.formatPatch(patch, options.headerOptions);
}

/**
 * The patch jsdiff gives for the window, built directly when the change is one block: no line the
 * change removes is anywhere in the new window, and no line it adds is anywhere in the old one.
 * Then the context lines are the only lines the two windows share, the longest common subsequence
 * is exactly them, and jsdiff's answer is that one hunk: the context before, the removed lines,
 * the added lines, the context after (an edit's usual shape: tokenizing and comparing the window
 * cost more than the rest of the edit). Null when lines repeat across the change: jsdiff decides.
 */
function oneBlockPatch(
  oldName: string,
  newName: string,
  a: readonly string[],
  b: readonly string[],
  start: number,
  prefix: number,
  suffix: number,
  keep: number,
): StructuredPatch | null {
  const removed = a.slice(prefix, a.length - suffix);
  const added = b.slice(prefix, b.length - suffix);
  const hunks: StructuredPatch['hunks'] = [];
  if (removed.length > 0 || added.length > 0) {
    const oldWindow = new Set(a.slice(start, a.length - keep));
    const newWindow = new Set(b.slice(start, b.length - keep));
    for (const line of removed) if (newWindow.has(line)) return null;
    for (const line of added) if (oldWindow.has(line)) return null;
    const before = a.slice(start, prefix);
    const after = a.slice(a.length - suffix, a.length - keep);
    const lines: string[] = [];
    for (const line of before) lines.push(` ${line}`);
    for (const line of removed) lines.push(`-${line}`);
    for (const line of added) lines.push(`+${line}`);
    for (const line of after) lines.push(` ${line}`);
    hunks.push({
      oldStart: 1,
      oldLines: before.length + removed.length + after.length,
      newStart: 1,
      newLines: before.length + added.length + after.length,
      lines: withoutLineEnds(lines),
    });
  }
  return { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks };
}

/** jsdiff's hunk lines: the line end dropped, and a line that had none marked as such. */
function withoutLineEnds(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.endsWith('\n')) out.push(line.slice(0, -1));
    else out.push(line, '\\ No newline at end of file');
  }
  return out;
}

/** Lines with their line ends, as jsdiff splits them (the same as `text.split(/(?<=\n)/)` less a final empty piece, without a regular expression). */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}
