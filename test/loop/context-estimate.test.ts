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
    const bytes = estimate.bytes('', [], [image]);
    expect(estimate.reported(bytes, 2_000, [image])).toBe(true);
    expect(estimate.tokens(bytes)).toBe(2_000);
  });

  it('counts an image as the few thousand tokens providers count for it, not a quarter of its base64', () => {
    const estimate = new ContextEstimate();
    const shot = (data: string): Content => ({ role: 'user', parts: [{ text: 'see' }, { inlineData: { mimeType: 'image/png', data } }] });
    // A 750 KB screenshot (1 MiB of base64) and one ten times larger weigh the same: at most 2,500 tokens.
    for (const mib of [1, 10]) expect(estimate.tokens(estimate.bytes('', [], [shot('A'.repeat(mib * 1024 * 1024))]))).toBeLessThan(2_600);
    // A small image is counted by its bytes; other media (a PDF's pages) still are, whatever their size.
    expect(estimate.tokens(estimate.bytes('', [], [shot('A'.repeat(4_000))]))).toBeLessThan(1_100);
    const pdf: Content = { role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data: 'A'.repeat(400_000) } }] };
    expect(estimate.tokens(estimate.bytes('', [], [pdf]))).toBeGreaterThan(100_000);
  });
});
