// The retry layer around the real gemini provider and the fake endpoint: which faults are retried,
// how long it waits, when it gives up, and that a run's abort cuts a wait short.
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiProvider } from '../../src/providers/gemini.js';
import type { ModelProvider, ModelRequest } from '../../src/providers/provider.js';
import { ProviderError } from '../../src/providers/provider.js';
import { DEFAULT_RETRY_OPTIONS, delayFor, withRetries, type RetryInfo, type RetryOptions } from '../../src/providers/retry.js';
import { startFakeGemini, type FakeGemini, type FakeStep } from '../helpers/fake-gemini.js';

const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [] };
const FAST: Partial<RetryOptions> = { baseDelayMs: 10, maxDelayMs: 40, retryAfterFloorMs: 20, maxRetryAfterMs: 3000 };

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function retrying(steps: FakeStep[], options: Partial<RetryOptions> = {}, idleTimeoutMs = 2000) {
  fake = await startFakeGemini(steps);
  const retries: RetryInfo[] = [];
  const inner = await createGeminiProvider({ model: 'm', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url }, idleTimeoutMs });
  const retrying = withRetries(inner, { ...FAST, ...options });
  // The loop passes onRetry with each request, so it can record the retry with its own turn.
  const provider: ModelProvider = { ...retrying, generate: (req, opts) => retrying.generate(req, { ...opts, onRetry: (info) => retries.push(info) }) };
  return { provider, retries };
}

async function run(provider: ModelProvider, signal = new AbortController().signal) {
  const started = Date.now();
  try {
    const turn = await provider.generate(request, { signal });
    return { turn, error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { turn: undefined, error: error as Error, ms: Date.now() - started };
  }
}

describe('withRetries against the fake endpoint', () => {
  it('honours Retry-After on a 429, then succeeds', async () => {
    const { provider, retries } = await retrying([{ status: 429, retryAfter: 1 }, { text: 'ok' }]);
    const { turn, ms } = await run(provider);
    expect(turn?.text).toBe('ok');
    expect(retries).toEqual([{ attempt: 1, delayMs: 1000, kind: 'rate_limit', reason: expect.stringContaining('HTTP 429') }]);
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(2500);
  });

  it('raises a short Retry-After to the floor', async () => {
    const { provider, retries } = await retrying([{ status: 429, retryAfter: 0 }, { text: 'ok' }], { retryAfterFloorMs: 150 });
    const { turn, ms } = await run(provider);
    expect(turn?.text).toBe('ok');
    expect(retries[0]!.delayMs).toBe(150);
    expect(ms).toBeGreaterThanOrEqual(145);
  });

  it('fails at once when Retry-After is above the maximum', async () => {
    const { provider, retries } = await retrying([{ status: 429, retryAfter: 120 }, { text: 'never' }], { maxRetryAfterMs: 60_000 });
    const { error, ms } = await run(provider);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rate_limit' });
    expect(error!.message).toMatch(/asked to wait 120 s .*more than the 60 s maximum/);
    expect(retries).toEqual([]);
    expect(fake!.requests).toHaveLength(1);
    expect(ms).toBeLessThan(500);
  });

  it('retries a 500 and returns the answer that follows', async () => {
    const { provider, retries } = await retrying([{ status: 500 }, { text: 'recovered' }]);
    const { turn } = await run(provider);
    expect(turn?.text).toBe('recovered');
    expect(retries.map((r) => r.kind)).toEqual(['server']);
    expect(fake!.requests).toHaveLength(2);
  });

  it.each([
    { status: 401, kind: 'auth' },
    { status: 403, kind: 'auth' },
    { status: 400, kind: 'bad_request' },
    { status: 404, kind: 'bad_request' },
  ])('never retries HTTP $status ($kind)', async ({ status, kind }) => {
    const { provider, retries } = await retrying([{ status }, { text: 'never' }]);
    const { error } = await run(provider);
    expect(error).toMatchObject({ kind, status });
    expect(retries).toEqual([]);
    expect(fake!.requests).toHaveLength(1);
  });

  it.each([
    { name: 'a blocked prompt', step: { raw: 'data: {"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9}}\n\n' }, reason: /refused: Gemini blocked the prompt \(PROHIBITED_CONTENT\)/ },
    { name: 'an empty SAFETY finish', step: { finishReason: 'SAFETY' }, reason: /refused: .*finishReason SAFETY/ },
    { name: 'an empty RECITATION finish', step: { finishReason: 'RECITATION' }, reason: /refused: .*finishReason RECITATION/ },
  ] as { name: string; step: FakeStep; reason: RegExp }[])('never retries a refusal: $name (one paid call, a clear message)', async ({ step, reason }) => {
    const { provider, retries } = await retrying([step, { text: 'never' }]);
    const { error } = await run(provider);
    expect(error).toMatchObject({ kind: 'bad_request', message: expect.stringMatching(/^the model refused: /) });
    expect(error!.message).toMatch(reason);
    expect(retries).toEqual([]);
    expect(fake!.requests).toHaveLength(1);
  });

  it('aborts a hanging stream as stalled and retries it', async () => {
    const { provider, retries } = await retrying([{ hang: true, partialText: 'Work' }, { text: 'second try' }], {}, 150);
    const { turn } = await run(provider);
    expect(turn?.text).toBe('second try');
    expect(retries.map((r) => r.kind)).toEqual(['stalled']);
  });

  it('retries a cut-off stream once, then fails: a partial call is never returned', async () => {
    const { provider, retries } = await retrying([{ cut: true, partialText: 'Editing' }, { cut: true }, { text: 'too late' }]);
    const { turn, error } = await run(provider);
    expect(turn).toBeUndefined();
    expect(error).toMatchObject({ kind: 'cut_off', message: expect.stringMatching(/cut off.*no whole answer after a retry/) });
    expect(retries.map((r) => r.kind)).toEqual(['cut_off']);
    expect(fake!.requests).toHaveLength(2);
  });

  it('retries an empty answer once and returns the next real one', async () => {
    const { provider } = await retrying([{ empty: true }, { calls: [{ name: 'ls', args: {} }] }]);
    const { turn } = await run(provider);
    expect(turn?.functionCalls.map((c) => c.name)).toEqual(['ls']);
  });

  it('fails after two empty answers', async () => {
    const { provider } = await retrying([{ empty: true }, { empty: true }, { text: 'unused' }]);
    const { error } = await run(provider);
    expect(error).toMatchObject({ kind: 'empty', message: expect.stringMatching(/empty answer/) });
    expect(fake!.requests).toHaveLength(2);
  });

  it('gives up after maxAttempts and says so', async () => {
    const { provider, retries } = await retrying([{ status: 503 }, { status: 503 }, { status: 503 }, { text: 'unused' }], { maxAttempts: 3 });
    const { error } = await run(provider);
    expect(error).toMatchObject({ kind: 'server', status: 503, message: expect.stringMatching(/gave up after 3 attempts/) });
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it("an abort during a wait rejects promptly with the run's abort reason", async () => {
    const { provider, retries } = await retrying([{ status: 429, retryAfter: 2 }, { text: 'never' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error, ms } = await run(provider, controller.signal);
    expect(error!.name).toBe('AbortError');
    expect(retries).toHaveLength(1);
    expect(ms).toBeLessThan(600);
    expect(fake!.requests).toHaveLength(1);
  });
});

describe('delayFor', () => {
  const opts: RetryOptions = { ...DEFAULT_RETRY_OPTIONS, baseDelayMs: 100, maxDelayMs: 1000, retryAfterFloorMs: 50 };
  it.each([
    { attempt: 1, kind: 'server', min: 0, max: 100 },
    { attempt: 3, kind: 'network', min: 0, max: 400 },
    { attempt: 10, kind: 'stalled', min: 0, max: 1000 },
    { attempt: 1, kind: 'rate_limit', min: 50, max: 100 },
  ] as const)('attempt $attempt, $kind: full jitter within [$min, $max]', ({ attempt, kind, min, max }) => {
    const delays = Array.from({ length: 200 }, () => delayFor(new ProviderError(kind, 'x'), attempt, opts));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(min);
    expect(Math.max(...delays)).toBeLessThanOrEqual(max);
    // jitter: not one fixed value
    expect(new Set(delays).size).toBeGreaterThan(10);
  });
});
