// Large tool output goes to the model as head and tail with a note; the whole of it is saved beside
// the transcript so nothing is lost and a person (or a later call) can read it.
import fs from 'node:fs';
import path from 'node:path';
import type { Part } from '../types/content.js';

export interface OutputCapOptions {
  /** Characters above which text is cut. */
  threshold: number;
  /** Directory for the full outputs; created on first use. */
  dir: string;
  /** Applied to the saved copy: it is written to disk beside the transcript, and redacted like it. */
  redact?: (text: string) => string;
}

export const DEFAULT_OUTPUT_THRESHOLD = 40_000;

export interface CappedContent {
  content: string | Part[];
  savedPath: string | null;
}

export function capOutput(content: string | Part[], callId: string, opts: OutputCapOptions): CappedContent {
  if (typeof content !== 'string') return capParts(content, callId, opts);
  if (content.length <= opts.threshold) return { content, savedPath: null };
  const savedPath = save(content, callId, opts);
  return { content: headAndTail(content, opts.threshold, savedPath), savedPath };
}

function capParts(parts: Part[], callId: string, opts: OutputCapOptions): CappedContent {
  let savedPath: string | null = null;
  const capped = parts.map((part, i) => {
    if (part.text === undefined || part.text.length <= opts.threshold) return part;
    savedPath = save(part.text, `${callId}-${i}`, opts);
    return { ...part, text: headAndTail(part.text, opts.threshold, savedPath) };
  });
  return { content: capped, savedPath };
}

function headAndTail(text: string, threshold: number, savedPath: string): string {
  const keep = Math.floor(threshold / 2);
  const cut = text.length - 2 * keep;
  return (
    `${text.slice(0, keep)}\n\n[... ${cut} characters cut; the full output is saved at ${savedPath} ...]\n\n` +
    text.slice(text.length - keep)
  );
}

function save(text: string, name: string, opts: OutputCapOptions): string {
  fs.mkdirSync(opts.dir, { recursive: true });
  const file = path.join(opts.dir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.txt`);
  fs.writeFileSync(file, opts.redact ? opts.redact(text) : text);
  return file;
}
