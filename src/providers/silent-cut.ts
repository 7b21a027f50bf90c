// A local server that cuts a conversation longer than its context window instead of refusing it:
// Ollama drops the oldest messages past its num_ctx (4096 tokens by default), the task's prompt
// first, and its runner cuts a single message that is still too long; LM Studio's context overflow
// policies do the same. The answer comes back as if nothing happened and the model works on
// without its task. What gives it away is the server's own count: a request that grew by
// thousands of characters was counted as no more tokens than the one before it. No tokenizer
// packs text at more than MAX_CHARS_PER_TOKEN characters a token, so a count that grew by less
// than that over a larger request is a cut. Compared within one conversation only (a sub-agent's
// requests go through the same provider), never across a new image, whose base64 is megabytes
// for a few hundred tokens, nor with a count too small for its own request. Checked for servers
// whose dialect is not a known cloud API's: those refuse a request too long (context-errors.ts).
import type { Content } from '../types/content.js';

/** More characters than this a token: no tokenizer packs text so tightly (context-estimate.ts MAX_BYTES_PER_TOKEN). */
const MAX_CHARS_PER_TOKEN = 16;
/** Growth below this says nothing: a count may move by a few tokens either way (a template's own tokens). */
const MIN_GROWTH_CHARS = 2000;

export class SilentCutWatch {
  private last: { first: Content | undefined; chars: number; input: number } | null = null;
  private said = false;

  constructor(private readonly endpoint: string) {}

  /**
   * A request of `chars` characters (its JSON body) holding `contents` was counted `input` tokens:
   * the warning, once, when the count shows the server cut it; null otherwise.
   */
  check(contents: readonly Content[], chars: number, input: number): string | null {
    if (this.said) return null;
    const last = input > 0 ? this.last : null;
    if (input <= 0) {
      // No count to compare with: the next request is compared with none.
      this.last = null;
      return null;
    }
    this.last = { first: contents[0], chars, input };
    if (!last || last.first !== contents[0] || chars - last.chars < MIN_GROWTH_CHARS || newMedia(contents)) return null;
    // A count too small for its own request (a server that answers 0 or 1 whatever it was sent,
    // context-estimate.ts) is no count to compare with.
    if (last.input * MAX_CHARS_PER_TOKEN < last.chars) return null;
    const grown = chars - last.chars;
    if (input - last.input >= grown / MAX_CHARS_PER_TOKEN) return null;
    this.said = true;
    return (
      `${this.endpoint} counted ${input} input tokens for a request ${Math.round(grown / 1024)} KB larger than the previous one, which it counted ${last.input}: ` +
      'it cut the conversation to fit a context window smaller than it (Ollama does so past its num_ctx, 4096 tokens by default, and LM Studio past its context length, without an error), ' +
      'so the model no longer sees its start, the prompt included. Give the model a larger context on the server (Ollama: OLLAMA_CONTEXT_LENGTH, or num_ctx in a Modelfile) ' +
      'and set limits.context_tokens to it, so that the run compacts its history before the server cuts it'
    );
  }
}

/** Whether the entries added since the last request (the model's turn and what answers it) hold an image or other media. */
function newMedia(contents: readonly Content[]): boolean {
  return contents.slice(-2).some((entry) => entry.parts.some((part) => part.inlineData !== undefined));
}
