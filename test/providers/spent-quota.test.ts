// A 429 for a quota that only a payment or the next day refills (spent-quota.ts) fails the call at
// once, saying why, instead of being asked five times over minutes; a per-minute 429 is still
// waited out. Each through the real provider and the retry layer, against 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiProvider } from '../../src/providers/gemini.js';
import { createOpenAIProvider } from '../../src/providers/openai.js';
import { ProviderError, type ModelProvider, type ModelRequest } from '../../src/providers/provider.js';
import { withRetries } from '../../src/providers/retry.js';
import { startFakeGemini, type FakeGemini, type FakeStep } from '../helpers/fake-gemini.js';
import { sse, startReplayServer, type ReplayResponse, type ReplayServer } from '../helpers/replay-server.js';

let replay: ReplayServer | undefined;
let gemini: FakeGemini | undefined;
afterEach(async () => {
  await replay?.close();
  await gemini?.close();
  replay = gemini = undefined;
});

const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }], tools: [] };
const FAST = { baseDelayMs: 1, maxDelayMs: 5, retryAfterFloorMs: 1 };

async function outcome(provider: ModelProvider): Promise<{ error: ProviderError | null; text: string | null }> {
  try {
    return { error: null, text: (await provider.generate(request, { signal: new AbortController().signal })).text };
  } catch (error) {
    return { error: error as ProviderError, text: null };
  }
}

const chunk = (delta: object, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const answer: ReplayResponse = { body: sse([chunk({ role: 'assistant', content: 'Hi.' }), chunk({}, 'stop')]) };

async function openaiOn(responses: ReplayResponse[]): Promise<ModelProvider> {
  replay = await startReplayServer(responses);
  return withRetries(await createOpenAIProvider({ model: 'm', baseUrl: `${replay.url}/v1`, env: { OPENAI_API_KEY: 'k' } }), FAST);
}

async function geminiOn(steps: FakeStep[]): Promise<ModelProvider> {
  gemini = await startFakeGemini(steps);
  return withRetries(await createGeminiProvider({ model: 'gemini-2.5-pro', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: gemini.url } }), FAST);
}

/** Google's RESOURCE_EXHAUSTED body: a QuotaFailure naming the quota, and a RetryInfo of some seconds even for a daily one. */
function googleQuota(quotaId: string, retryDelay = '0.01s'): object {
  return {
    error: {
      code: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId, quotaValue: '50' }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    },
  };
}

describe('OpenAI: insufficient_quota (the account has no credit left)', () => {
  const body = JSON.stringify({ error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } });

  it('fails at the first answer, a rate_limit (a batch --resume runs it again) that says why it was not retried', async () => {
    const provider = await openaiOn([{ status: 429, body }, answer]);
    const { error } = await outcome(provider);
    expect(replay!.requests).toHaveLength(1);
    expect(error?.kind).toBe('rate_limit');
    expect(error?.message).toMatch(/exceeded your current quota.*quota or credit is spent; check its plan and billing: not retried/);
  });

  it('and a plain rate limit (rate_limit_exceeded) is still waited out', async () => {
    const limited = JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } });
    const provider = await openaiOn([{ status: 429, body: limited }, answer]);
    expect(await outcome(provider)).toEqual({ error: null, text: 'Hi.' });
    expect(replay!.requests).toHaveLength(2);
  });
});

describe("Gemini's daily quota (QuotaFailure quotaId …PerDay…), whose 429 carries a RetryInfo of seconds", () => {
  it('fails at once through the Gemini API, naming the quota', async () => {
    const provider = await geminiOn([{ raw: JSON.stringify(googleQuota('GenerateRequestsPerDayPerProjectPerModel-FreeTier')), status: 429, contentType: 'application/json' }, { text: 'never' }]);
    const { error } = await outcome(provider);
    expect(gemini!.requests).toHaveLength(1);
    expect(error?.kind).toBe('rate_limit');
    expect(error?.message).toContain('a daily quota is spent (GenerateRequestsPerDayPerProjectPerModel-FreeTier); it resets the next day: not retried');
  });

  it('and through its OpenAI-compatible endpoint (the body in an array)', async () => {
    const provider = await openaiOn([{ status: 429, body: JSON.stringify([googleQuota('GenerateRequestsPerDayPerProjectPerModel-FreeTier')]) }, answer]);
    const { error } = await outcome(provider);
    expect(replay!.requests).toHaveLength(1);
    expect(error?.message).toContain('a daily quota is spent');
  });

  it('while the per-minute quota, in the same words, is waited out as its RetryInfo says', async () => {
    const provider = await geminiOn([{ raw: JSON.stringify(googleQuota('GenerateRequestsPerMinutePerProjectPerModel-FreeTier')), status: 429, contentType: 'application/json' }, { text: 'Hi.' }]);
    expect(await outcome(provider)).toEqual({ error: null, text: 'Hi.' });
    expect(gemini!.requests).toHaveLength(2);
  });
});

describe("Zhipu's usage caps (1304 the day's calls, 1308 the plan's hours, 1310 the week's or month's)", () => {
  const cap = (code: string) => ({ error: { code, message: 'Usage limit reached for 5 hour. Your limit will reset at 2026-11-29 03:10:00' } });

  it.each(['1304', '1308', '1310'])('%s over HTTP 429 fails at once', async (code) => {
    const provider = await openaiOn([{ status: 429, body: JSON.stringify(cap(code)) }, answer]);
    const { error } = await outcome(provider);
    expect(replay!.requests).toHaveLength(1);
    expect(error?.message).toContain(`a usage cap is reached (code ${code}); it resets at the time its message gives: not retried`);
  });

  it('1308 as an error event inside a 200 stream fails at once too', async () => {
    const provider = await openaiOn([{ body: sse([cap('1308')], false) }, answer]);
    const { error } = await outcome(provider);
    expect(replay!.requests).toHaveLength(1);
    expect([error?.kind, error?.message]).toEqual(['rate_limit', expect.stringContaining('usage cap is reached (code 1308)')]);
  });

  it('while 1302 (too many requests at once) is still asked again', async () => {
    const provider = await openaiOn([{ status: 429, body: JSON.stringify({ error: { code: '1302', message: 'High concurrency usage of this API' } }) }, answer]);
    expect(await outcome(provider)).toEqual({ error: null, text: 'Hi.' });
  });
});
