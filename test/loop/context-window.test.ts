// The window compaction aims under: what the recipe or the price table says, until a refusal for
// length says less (loop/context-window.ts).
import { describe, expect, it } from 'vitest';
import { ContextWindow } from '../../src/loop/context-window.js';

const OPENAI = (window: number, tokens: number) => `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`;

describe('the context window', () => {
  it("a refusal naming a smaller window than the price table's replaces it, said once", async () => {
    const window = new ContextWindow(async () => 128_000, 0.7);
    expect(window.pendingLookup).toBe(true);
    await window.lookUp();
    expect(window.tokens).toBe(128_000);
    const first = window.refused(OPENAI(8192, 9000), 9000);
    expect(first).toEqual({
      named: 8192,
      warning: "the provider refused a request as too long: its context window is 8192 tokens, smaller than the price table's figure for the model (128000 tokens); for the rest of the run compaction aims under compact_at (0.7) of 8192 tokens; set limits.context_tokens to at most 8192 for this model",
    });
    expect(window.tokens).toBe(8192);
    // Smaller still: taken, not said again.
    expect(window.refused(OPENAI(4096, 5000), 5000)).toEqual({ named: 4096, warning: null });
    expect(window.tokens).toBe(4096);
  });

  it('a refusal at or above the configured window changes nothing, and a window learned before any lookup stands', async () => {
    const configured = new ContextWindow(8192, 0.7);
    expect(configured.refused(OPENAI(8192, 9000), 9000)).toEqual({ named: 8192, warning: null });
    expect(configured.tokens).toBe(8192);
    let looked = false;
    const early = new ContextWindow(async () => ((looked = true), 128_000), 0.7);
    // Refused before the history was worth a lookup: the server's word, and no warning (nothing was configured).
    expect(early.refused(OPENAI(2048, 2100), 2100)).toEqual({ named: 2048, warning: null });
    expect(early.pendingLookup).toBe(false);
    await early.lookUp();
    expect([early.tokens, looked]).toEqual([2048, false]);
  });
});
