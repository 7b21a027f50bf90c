// The FileDiff that write_file and edit show people (and the report collects).
import { jsdiff } from '../util/jsdiff.js';
import { unifiedDiff } from '../util/unified-diff.js';
import type { FileDiff } from './tools.js';

/** Diffing is quadratic at worst; above this size people get a note instead of a diff. */
export const MAX_DIFF_INPUT_CHARS = 1_000_000;

const HEADERS = { includeIndex: false, includeUnderline: false, includeFileHeaders: true };

/** `relative` is the workspace-relative name; `original` is null for a new file. */
export async function makeFileDiff(relative: string, original: string | null, next: string): Promise<FileDiff> {
  if ((original?.length ?? 0) > MAX_DIFF_INPUT_CHARS || next.length > MAX_DIFF_INPUT_CHARS) {
    const fileDiff = `(diff of ${relative} not computed: over ${MAX_DIFF_INPUT_CHARS} characters)\n`;
    return { fileName: relative, fileDiff, originalContent: original, newContent: next };
  }
  const fileDiff = unifiedDiff(jsdiff(), original === null ? '/dev/null' : `a/${relative}`, `b/${relative}`, original ?? '', next, { context: 3, headerOptions: HEADERS });
  return { fileName: relative, fileDiff, originalContent: original, newContent: next };
}
