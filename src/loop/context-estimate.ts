// How many tokens the next request will hold, estimated cheaply and on purpose roughly: no
// tokenizer runs (each model has its own, and loading one costs more than a turn).
//
// - Anchor: the input tokens the provider reported for the last request (usage.input, which
//   counts the system instruction, the tool declarations and every cached token too), plus the
//   UTF-8 bytes the history gained or lost since that request divided by 4 (BYTES_PER_TOKEN, the
//   usual figure for English and code).
// - Without a reported count (no request answered yet, a provider that reports none): the bytes of
//   the system instruction, the declarations and the whole history, divided by 4.
// - A count too small for the request's size is not taken: some OpenAI-compatible servers report
//   prompt_tokens 0 or 1 whatever was sent, or only the tokens their prompt cache did not hold.
//   Anchored on one, the estimate would stay far below the real size, no compaction would come
//   before the server refused, and a request past the window would be sent turn after turn. A
//   count counts when it is at least one token per MAX_BYTES_PER_TOKEN bytes of the request's text
//   (media is left out of that: an image's base64 is megabytes for a few thousand tokens).
// - An image counts for at most a few thousand tokens, whatever its base64 (types/content.ts
//   IMAGE_ESTIMATE_BYTES): providers count its pixels, and counted by its bytes a screenshot was
//   taken out by compaction before the model saw it.
// Each history entry's size is measured once (entry-bytes.ts EntrySizes): the loop replaces an
// entry when it changes it, so an entry is known by its object.
import { BYTES_PER_TOKEN, type Content, type FunctionDeclaration } from '../types/content.js';
import { countedMediaBytes, EntrySizes, estimateBytes, jsonBytes } from './entry-bytes.js';

export { BYTES_PER_TOKEN };

/** More bytes than this a token: no tokenizer packs text so tightly (about 4 is usual; repetitive filler 6 to 8). */
export const MAX_BYTES_PER_TOKEN = 16;

export class ContextEstimate {
  private readonly sizes = new EntrySizes(estimateBytes);
  private anchor: { tokens: number; bytes: number } | null = null;

  /** The bytes of what a request sends, as the estimate counts them: system instruction, tool declarations, history. */
  bytes(systemInstruction: string, tools: FunctionDeclaration[], contents: readonly Content[]): number {
    return Buffer.byteLength(systemInstruction) + jsonBytes(tools) + this.sizes.sum(contents);
  }

  /** The bytes one history entry counts for (each image at most IMAGE_ESTIMATE_BYTES). */
  entryBytes(content: Content): number {
    return estimateBytes(content);
  }

  /** The tokens a request of `bytes` would hold, anchored on the last reported count. */
  tokens(bytes: number): number {
    if (this.anchor === null) return Math.ceil(bytes / BYTES_PER_TOKEN);
    return Math.max(0, Math.ceil(this.anchor.tokens + (bytes - this.anchor.bytes) / BYTES_PER_TOKEN));
  }

  /**
   * A request of `bytes` (`contents` its history) was answered with `inputTokens` reported (0: the
   * provider reported none). False when the count is too small for the request to be believed:
   * it is not taken, and the last plausible one (or the bytes alone) still measures.
   */
  reported(bytes: number, inputTokens: number, contents: readonly Content[] = []): boolean {
    if (inputTokens <= 0) return true;
    // The media's bytes are counted only when the count would not be believed otherwise (rare).
    if (inputTokens * MAX_BYTES_PER_TOKEN < bytes && inputTokens * MAX_BYTES_PER_TOKEN < bytes - contents.reduce((sum, entry) => sum + countedMediaBytes(entry), 0)) return false;
    this.anchor = { tokens: inputTokens, bytes };
    return true;
  }
}
