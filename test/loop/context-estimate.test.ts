// The estimate compaction decides on (loop/context-estimate.ts): anchored on the provider's count,
// unless that count is too small for the request to be believed.
import { describe, expect, it } from 'vitest';
import { ContextEstimate } from '../../src/loop/context-estimate.js';
import type { Content } from '../../src/types/content.js';

describe('the context estimate', () => {
  it('takes no count too small for the request, and estimates from its bytes instead', () => {
    const estimate = new ContextEstimate();
    // prompt_tokens 1 for 50 KB, as some OpenAI-compatible servers send.
    expect(estimate.reported(50_000, 1)).toBe(false);
    expect(estimate.tokens(60_000)).toBe(15_000);
    // A plausible count anchors it; a later implausible one leaves that anchor.
    expect(estimate.reported(50_000, 13_000)).toBe(true);
    expect(estimate.reported(60_000, 200)).toBe(false);
    expect(estimate.tokens(60_000)).toBe(15_500);
  });

  it('leaves media out of the judgement: an image is megabytes of base64 for a few thousand tokens', () => {
    const estimate = new ContextEstimate();
    const image: Content = { role: 'user', parts: [{ text: 'see' }, { inlineData: { mimeType: 'image/png', data: 'A'.repeat(1_000_000) } }] };
    expect(estimate.reported(1_004_000, 2_000, [image])).toBe(true);
    expect(estimate.tokens(1_004_000)).toBe(2_000);
  });
});
