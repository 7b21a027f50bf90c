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

export { DEFAULT_OUTPUT_THRESHOLD } from '../tools/tools.js';

export interface CappedContent {
  content: string | Part[];
  savedPath: string | null;
  /** The content was over the threshold: the model gets its head and tail. */
  cut: boolean;
}

/**
 * `cutAtSource`: the tool itself kept only part of its output (ToolResult.cutAtSource). `whole`:
 * what the tool produced when the content describes part of it (ToolResult.fullOutput): that is
 * what is saved, whatever the content's length.
 */
export function capOutput(content: string | Part[], callId: string, opts: OutputCapOptions, cutAtSource = false, whole?: string): CappedContent {
  if (typeof content !== 'string') return capParts(content, callId, opts);
  if (content.length <= opts.threshold) {
    if (whole === undefined) return { content, savedPath: null, cut: false };
    const savedPath = opts.save(whole, callId);
    return { content: `${content}\n[the whole output is saved at ${savedPath}]`, savedPath, cut: false };
  }
  const savedPath = opts.save(whole ?? content, callId);
  return { content: headAndTail(content, opts.threshold, savedPath, cutAtSource), savedPath, cut: true };
}

/**
 * The cap holds for all the text of a result together (an MCP tool may answer with many text
 * parts, each under it): past it, the text parts become one head-and-tail of their text joined as
 * the model would read it, saved whole in one file; media parts are kept as they are.
 */
function capParts(parts: Part[], callId: string, opts: OutputCapOptions): CappedContent {
  const text = partsText(parts);
  if (text.length <= opts.threshold) return { content: parts, savedPath: null, cut: false };
  const savedPath = opts.save(text, callId);
  const media = parts.filter((p) => p.text === undefined);
  return { content: [{ text: headAndTail(text, opts.threshold, savedPath) }, ...media], savedPath, cut: true };
}

/** The text of a result's parts as the model gets it: one part per line (mcp/content.ts joins them so too). */
export function partsText(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.text === undefined ? [] : [p.text])).join('\n');
}

function headAndTail(text: string, threshold: number, savedPath: string, cutAtSource = false): string {
  const keep = Math.floor(threshold / 2);
  const cut = text.length - 2 * keep;
  const saved = cutAtSource ? 'all the tool kept of its output (it says inside what it dropped) is saved at' : 'the full output is saved at';
  return (
    `${text.slice(0, keep)}\n\n[... ${cut} characters cut; ${saved} ${savedPath} ...]\n\n` +
    text.slice(text.length - keep)
  );
}
