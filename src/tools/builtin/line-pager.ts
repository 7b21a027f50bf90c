// Reads one page of lines from a text file by streaming it: the page is kept, earlier lines are
// only counted, and reading stops once the page is full (a 2 GB log costs what its page costs).
// Small files, the usual case, are read in one synchronous call: a stream costs several event-loop
// round trips, and on a run of hundreds of reads those add up to most of the runner's own time.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { DEFAULT_OUTPUT_THRESHOLD } from '../tools.js';

export const MAX_LINE_CHARS = 2000;
/**
 * A page also stops at this many characters, whatever its line count, after the line that reaches
 * it. Below the loop's cap on a result (which would cut a longer page's middle out), with room for
 * that last line and the notes: the model gets whole lines and the offset to go on from.
 */
export const MAX_PAGE_CHARS = DEFAULT_OUTPUT_THRESHOLD - 4_000;
/** Files up to this size are read to the end after a partial page, to say "of N lines". */
const COUNT_ALL_MAX_BYTES = 8 * 1024 * 1024;
/** Files up to this size are read whole, synchronously. */
export const SMALL_FILE_BYTES = 1024 * 1024;

export interface LinePage {
  lines: string[];
  /** Lines in the whole file, or null when the file is too large to count. */
  totalLines: number | null;
  /** True when lines exist after the page. */
  more: boolean;
  /** The lines of the page cut at MAX_LINE_CHARS, by their number in the file (from 1). */
  cutLines: number[];
  /** False when what was read of the file holds bytes that are not UTF-8 (shown as U+FFFD). */
  validUtf8: boolean;
}

/** A page of a UTF-8 file (bytes that are not UTF-8 become U+FFFD, and the page says so). */
export async function readLinePage(
  file: string | Buffer,
  size: number,
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<LinePage> {
  if (size <= SMALL_FILE_BYTES) {
    const bytes = fs.readFileSync(file);
    return pageOf([bytes.toString('utf8')], size, offset, limit, null, () => isUtf8(bytes));
  }
  const stream = fs.createReadStream(file, { highWaterMark: 64 * 1024, signal });
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // A second, strict decoder only to notice bytes that are not UTF-8, until it has.
  const check = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let valid = true;
  async function* decoded(): AsyncIterable<string> {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (valid) {
        try {
          check.decode(chunk, { stream: true });
        } catch {
          valid = false;
        }
      }
      yield decoder.decode(chunk, { stream: true });
    }
    yield decoder.decode();
  }
  return pageOf(decoded(), size, offset, limit, stream, () => valid);
}

/** A page of text already decoded (a UTF-16 file, say). */
export async function readTextPage(text: string, offset: number, limit: number): Promise<LinePage> {
  return pageOf([text], text.length, offset, limit, null, () => true);
}

async function pageOf(
  chunks: AsyncIterable<string> | Iterable<string>,
  size: number,
  offset: number,
  limit: number,
  stream: fs.ReadStream | null,
  validUtf8: () => boolean,
): Promise<LinePage> {
  const lines: string[] = [];
  let newlines = 0; // also the index of the line being read
  let current = '';
  let currentLength = 0;
  // The line read so far ends in \r: the \r of CRLF is no character of the line, cut or not (a
  // line of 2,000 characters was said to be cut at 2,000, its length counted with the \r).
  let endsInCr = false;
  let pageChars = 0;
  const cutLines: number[] = [];
  let pageFull = false;
  let charsAfterPage = 0;
  let lastChar = '';

  const finishLine = () => {
    const length = endsInCr ? currentLength - 1 : currentLength;
    if (length > MAX_LINE_CHARS) {
      current = `${current.slice(0, MAX_LINE_CHARS)} … [line cut: ${length} chars]`;
      cutLines.push(newlines + 1);
    } else if (endsInCr) {
      current = current.slice(0, -1);
    }
    lines.push(current);
    pageChars += current.length + 1;
    if (lines.length >= limit || pageChars >= MAX_PAGE_CHARS) pageFull = true;
  };

  try {
    for await (const chunk of chunks) {
      if (chunk.length === 0) continue;
      lastChar = chunk[chunk.length - 1]!;
      if (pageFull) {
        // Only counting now, how many lines the page did not show: streamed files up to
        // COUNT_ALL_MAX_BYTES (small files arrive whole, in one chunk; larger ones returned already).
        charsAfterPage += chunk.length;
        newlines += countNewlines(chunk, 0);
        continue;
      }
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf('\n', start);
        const end = newline === -1 ? chunk.length : newline;
        if (newlines >= offset) {
          const room = MAX_LINE_CHARS + 1 - current.length;
          if (room > 0) current += chunk.slice(start, Math.min(end, start + room));
          currentLength += end - start;
          if (end > start) endsInCr = chunk.charCodeAt(end - 1) === 13;
        }
        if (newline === -1) break;
        if (newlines >= offset) finishLine();
        current = '';
        currentLength = 0;
        endsInCr = false;
        newlines++;
        start = newline + 1;
        if (pageFull) {
          charsAfterPage = chunk.length - start;
          if (size > COUNT_ALL_MAX_BYTES) {
            return { lines, totalLines: null, more: charsAfterPage > 0 || (stream !== null && stream.bytesRead < size), cutLines, validUtf8: validUtf8() };
          }
          newlines += countNewlines(chunk, start);
          break;
        }
      }
    }
  } finally {
    stream?.destroy();
  }
  // A last line without a trailing newline is still a line.
  if (!pageFull && currentLength > 0 && newlines >= offset) finishLine();
  const totalLines = newlines + (lastChar !== '' && lastChar !== '\n' ? 1 : 0);
  return { lines, totalLines, more: charsAfterPage > 0, cutLines, validUtf8: validUtf8() };
}

function countNewlines(text: string, from: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
