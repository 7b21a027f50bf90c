// report.md is also the GitHub job summary, and GitHub refuses a step summary over 1 MiB (1,048,576
// bytes): the upload is aborted, so the summary shows nothing at all, not even the status line.
// Bytes, not characters: a diff of Chinese or Japanese text is 3 bytes a character. So report.md is
// kept under a budget in bytes; report.json keeps everything whole.

import { closeCutFence } from './markdown-safe.js';

/** Room for what a cut closes: a fence longer than any sane one, and `</details>`. */
const FENCE_ROOM = 80;

/** Whole report.md, with room under GitHub's 1 MiB for redaction and the line the summary adds. */
export const MAX_REPORT_MD_BYTES = 1_000_000;

/** Diffs shown in report.md, together. */
export const MAX_DIFF_BYTES = 400_000;

/** One text the model wrote (the final answer, the plan, the structured output) or an error. */
export const MAX_TEXT_BYTES = 100_000;

/** Files listed one by one under "Files changed"; the rest are counted. */
export const MAX_LISTED_FILES = 1_000;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest start of `text` within `maxBytes` of UTF-8, never splitting a character. */
export function headWithin(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  // A character is 1 to 4 bytes: start from maxBytes characters and shorten until it fits.
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && utf8Bytes(text.slice(0, end)) > maxBytes) end -= Math.max(1, Math.floor((utf8Bytes(text.slice(0, end)) - maxBytes) / 4));
  // Not half of a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` cut to `maxBytes`, with a line saying so, or as it is when it fits. */
export function cutText(text: string, maxBytes: number, what: string): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  return `${headWithin(text, maxBytes)}\n\n… (${what} cut here at ${Math.round(maxBytes / 1000)} KB of ${Math.round(utf8Bytes(text) / 1000)} KB; the whole of it is in report.json)`;
}

/**
 * The last resort: Markdown cut at a line break within the budget, ending with a line that says so.
 * `name` is the file as the note calls it; `whole` says where everything is.
 */
export function withinReportBudget(markdown: string, maxBytes = MAX_REPORT_MD_BYTES, name = 'report.md', whole = 'report.json has everything'): string {
  if (utf8Bytes(markdown) <= maxBytes) return markdown;
  const note = `\n\n_${name} is cut here: the whole of it would be ${Math.round(utf8Bytes(markdown) / 1000)} KB, more than a GitHub job summary takes (1 MiB); ${whole}._\n`;
  const head = headWithin(markdown, maxBytes - utf8Bytes(note) - FENCE_ROOM);
  const lineEnd = head.lastIndexOf('\n');
  // The fence (and the folded diff) it was cut inside closed first, with room kept for them: the
  // note would otherwise show as code, or be folded away with the diff.
  const closed = closeCutFence(lineEnd > 0 ? head.slice(0, lineEnd) : head);
  const inDetails = closed.lastIndexOf('\n<details>') > closed.lastIndexOf('\n</details>');
  return `${closed}${inDetails ? '\n\n</details>' : ''}${note}`;
}
