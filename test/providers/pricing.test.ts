// Cost in dollars per turn: the recipe's pricing, the maintained price table, and the refusal to
// run a dollar budget without a price.
import { describe, expect, it } from 'vitest';
import { calcPrice } from '@pydantic/genai-prices';
import { lookupPrice } from '../../src/providers/price-table.js';
import { priceFromOverride, priceFromRecord, resolvePrice, withPricing } from '../../src/providers/pricing.js';
import type { ModelProvider, ModelTurn } from '../../src/providers/provider.js';
import { addUsage, type TokenUsage } from '../../src/types/content.js';
import { ConfigError } from '../../src/types/errors.js';

const usage = (u: Partial<TokenUsage>): TokenUsage => ({ input: 0, output: 0, total: 0, ...u });
const answering = (u: TokenUsage, model = 'm'): ModelProvider => ({
  name: 'test',
  model,
  generate: async (): Promise<ModelTurn> => ({ parts: [{ text: 'ok' }], text: 'ok', functionCalls: [], usage: u, finish: { reason: 'stop', raw: 'stop' } }),
});
const ask = { systemInstruction: '', contents: [], tools: [] };
const run = { signal: new AbortController().signal };

describe('pricing', () => {
  it.each([
    ['anthropic', null, 'claude-sonnet-4-5', { input: 4520, cached: 2000, cache_write: 2300, output: 70 }],
    ['google', null, 'gemini-2.5-pro', { input: 250_000, cached: 100_000, output: 3000 }], // above the 200k tier
    ['google', null, 'gemini-2.5-pro', { input: 150_000, cached: 100_000, output: 3000 }],
    [null, 'https://api.openai.com/v1', 'gpt-4o', { input: 12_000, cached: 8_000, output: 900 }],
    [null, 'https://api.deepseek.com', 'deepseek-chat', { input: 30_000, cached: 20_000, output: 500 }],
  ] as const)('agrees with genai-prices calcPrice (%s %s %s)', async (providerId, baseURL, model, u) => {
    const record = await lookupPrice({ model, providerId, baseURL });
    expect(record).not.toBeNull();
    const usageIn = { input: u.input, output: u.output, total: u.input + u.output, cached: u.cached, cache_write: 'cache_write' in u ? u.cache_write : undefined };
    const theirs = calcPrice(
      { input_tokens: u.input, cache_read_tokens: u.cached, cache_write_tokens: 'cache_write' in u ? u.cache_write : 0, output_tokens: u.output },
      model,
      providerId ? { providerId } : { providerApiUrl: baseURL! },
    );
    expect(priceFromRecord(record!)(usageIn)).toBeCloseTo(theirs!.total_price, 8);
  });

  it("prices cached input at the recipe's cached rate, the input price when it gives none", () => {
    const price = priceFromOverride({ inputPerMtok: 2, outputPerMtok: 8, cachedInputPerMtok: 0.5, cacheWritePerMtok: null });
    expect(price(usage({ input: 1_000_000, cached: 600_000, output: 100_000 }))).toBeCloseTo(0.8 + 0.3 + 0.8, 9);
    const flat = priceFromOverride({ inputPerMtok: 2, outputPerMtok: 8, cachedInputPerMtok: null, cacheWritePerMtok: null });
    expect(flat(usage({ input: 1_000_000, cached: 600_000 }))).toBeCloseTo(2, 9);
  });

  it("prices input written to the cache at the recipe's rate, else 1.25 x input for Anthropic (its cache writes cost that), else as input", () => {
    const spent = usage({ input: 1_000_000, cached: 200_000, cache_write: 400_000, output: 0 });
    const prices = { inputPerMtok: 3, outputPerMtok: 15, cachedInputPerMtok: 0.3 };
    // 400k fresh at 3, 200k read at 0.3, 400k written at the rate.
    expect(priceFromOverride({ ...prices, cacheWritePerMtok: 6 }, 'anthropic')(spent)).toBeCloseTo(1.2 + 0.06 + 2.4, 9);
    expect(priceFromOverride({ ...prices, cacheWritePerMtok: null }, 'anthropic')(spent)).toBeCloseTo(1.2 + 0.06 + 1.5, 9);
    expect(priceFromOverride({ ...prices, cacheWritePerMtok: null }, null)(spent)).toBeCloseTo(1.2 + 0.06 + 1.2, 9);
  });

  it('finds an OpenAI-compatible host in the table and prices nothing on a local endpoint', async () => {
    const deepseek = await resolvePrice({ providerId: null, baseURL: 'https://api.deepseek.com', model: 'deepseek-chat', override: null });
    expect(deepseek?.(usage({ input: 1_000_000, output: 0 }))).toBeGreaterThan(0);
    expect(await resolvePrice({ providerId: null, baseURL: 'http://127.0.0.1:11434/v1', model: 'deepseek-chat', override: null })).toBeNull();
    expect(await resolvePrice({ providerId: 'anthropic', baseURL: null, model: 'no-such-model-xyz', override: null })).toBeNull();
  });

  it('adds cost_usd to each turn, and leaves it out (unknown, not free) when no price is known', async () => {
    const priced = await withPricing(answering(usage({ input: 1000, output: 100, total: 1100 }), 'claude-sonnet-4-5'), { providerId: 'anthropic', baseURL: null, model: 'claude-sonnet-4-5', override: null }, false);
    expect((await priced.generate(ask, run)).usage.cost_usd).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 9);
    const unknown = await withPricing(answering(usage({ input: 5, output: 5, total: 10 })), { providerId: null, baseURL: 'http://localhost:8000/v1', model: 'mine', override: null }, false);
    expect((await unknown.generate(ask, run)).usage).not.toHaveProperty('cost_usd');
    expect(addUsage(usage({ input: 1 }), usage({ input: 2 }))).not.toHaveProperty('cost_usd');
    expect(addUsage(usage({ cost_usd: 0.1 }), usage({ cost_usd: 0.2 })).cost_usd).toBe(0.3);
  });

  it('refuses a dollar budget without a price, naming the fix', async () => {
    const err = await withPricing(answering(usage({})), { providerId: null, baseURL: 'https://llm.internal.example/v1', model: 'ours', override: null }, true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/max_cost_usd.*'ours'.*pricing:/);
  });
});
