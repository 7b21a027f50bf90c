// Large tool output goes to the model as head and tail with a note; the whole of it is kept (the
// runner saves it beside the transcript: runner/tool-outputs.ts) so nothing is lost and a person
// (or a later call) can read it. The loop itself writes nothing.
import type { Part } from '../types/content.js';

export interface OutputCapOptions {
  /** Characters above which text is cut. */
  threshold: number;
  /**
   * Keeps the whole text under `name` (a call id; `/` nests a sub-agent's under its task call) and
   * returns where it is, for the note the model reads.
   */
  save: (text: string, name: string) => string;
}

export const DEFAULT_OUTPUT_THRESHOLD = 40_000;

export interface CappedContent {
  content: string | Part[];
  savedPath: string | null;
}

export function capOutput(content: string | Part[], callId: string, opts: OutputCapOptions): CappedContent {
  if (typeof content !== 'string') return capParts(content, callId, opts);
  if (content.length <= opts.threshold) return { content, savedPath: null };
  const savedPath = opts.save(content, callId);
  return { content: headAndTail(content, opts.threshold, savedPath), savedPath };
}

function capParts(parts: Part[], callId: string, opts: OutputCapOptions): CappedContent {
  let savedPath: string | null = null;
  const capped = parts.map((part, i) => {
    if (part.text === undefined || part.text.length <= opts.threshold) return part;
    savedPath = opts.save(part.text, `${callId}-${i}`);
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
