// How many tokens the next request will hold, estimated cheaply and on purpose roughly: no
// tokenizer runs (each model has its own, and loading one costs more than a turn).
//
// - Anchor: the input tokens the provider reported for the last request (usage.input, which
//   counts the system instruction, the tool declarations and every cached token too), plus the
//   UTF-8 bytes the history gained or lost since that request divided by 4 (BYTES_PER_TOKEN, the
//   usual figure for English and code).
// - Without a reported count (no request answered yet, a provider that reports none): the bytes of
//   the system instruction, the declarations and the whole history, divided by 4.
// Each history entry's size is measured once (entry-bytes.ts EntrySizes): the loop replaces an
// entry when it changes it, so an entry is known by its object.
import { BYTES_PER_TOKEN, type Content, type FunctionDeclaration } from '../types/content.js';
import { EntrySizes, jsonBytes } from './entry-bytes.js';

export { BYTES_PER_TOKEN };

export class ContextEstimate {
  private readonly sizes = new EntrySizes();
  private anchor: { tokens: number; bytes: number } | null = null;

  /** The bytes of what a request sends: system instruction, tool declarations, history. */
  bytes(systemInstruction: string, tools: FunctionDeclaration[], contents: readonly Content[]): number {
    return Buffer.byteLength(systemInstruction) + jsonBytes(tools) + this.sizes.sum(contents);
  }

  /** The bytes of one history entry. */
  entryBytes(content: Content): number {
    return jsonBytes(content);
  }

  /** The tokens a request of `bytes` would hold, anchored on the last reported count. */
  tokens(bytes: number): number {
    if (this.anchor === null) return Math.ceil(bytes / BYTES_PER_TOKEN);
    return Math.max(0, Math.ceil(this.anchor.tokens + (bytes - this.anchor.bytes) / BYTES_PER_TOKEN));
  }

  /** A request of `bytes` was answered with `inputTokens` reported (0: the provider reported none). */
  reported(bytes: number, inputTokens: number): void {
    if (inputTokens > 0) this.anchor = { tokens: inputTokens, bytes };
  }
}
