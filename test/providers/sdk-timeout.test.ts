// The openai and anthropic SDKs cut every request at their own default of ten minutes unless told
// otherwise. The runner's limit is model_idle_timeout (ten of them for an answer that is not
// streamed), so a user who allows a slow self-hosted model 5 minutes of silence must not have its
// answer abandoned by the SDK at 10. The SDK says the timeout it applies in its
// `X-Stainless-Timeout` header (seconds), which lets these tests read it off the wire through the
// real SDKs instead of waiting ten minutes.
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createOpenAIProvider } from '../../src/providers/openai.js';
import type { ModelRequest } from '../../src/providers/provider.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

let openai: FakeOpenAI | undefined;
let anthropic: FakeAnthropic | undefined;
afterEach(async () => {
  await openai?.close();
  await anthropic?.close();
  openai = anthropic = undefined;
});

const ask: ModelRequest = { systemInstruction: 'Be brief.', contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [] };
const run = () => ({ signal: new AbortController().signal });
const FIVE_MINUTES = 5 * 60_000;
const FIFTEEN_MINUTES = 15 * 60_000;

/** The timeout (s) the SDK applied to the one request the fake saw. */
function sdkTimeout(headers: Record<string, unknown>): number {
  return Number(headers['x-stainless-timeout']);
}

describe('the SDK\'s own request timeout follows model_idle_timeout', () => {
  it('openai, streaming off, model_idle_timeout 5m: the SDK waits the whole answer\'s 50 minutes, not its own 10', async () => {
    openai = await startFakeOpenAI([{ text: 'ok' }]);
    const provider = await createOpenAIProvider({ model: 'm', baseUrl: openai.url, env: { OPENAI_API_KEY: 'k' }, idleTimeoutMs: FIVE_MINUTES, stream: false });
    expect((await provider.generate(ask, run())).text).toBe('ok');
    expect(sdkTimeout(openai.requests[0]!.headers)).toBeGreaterThanOrEqual(50 * 60);
  });

  it('openai, streaming, model_idle_timeout 15m: a server slow to send its headers is not cut at 10 minutes', async () => {
    openai = await startFakeOpenAI([{ text: 'ok' }]);
    const provider = await createOpenAIProvider({ model: 'm', baseUrl: openai.url, env: { OPENAI_API_KEY: 'k' }, idleTimeoutMs: FIFTEEN_MINUTES });
    expect((await provider.generate(ask, run())).text).toBe('ok');
    expect(sdkTimeout(openai.requests[0]!.headers)).toBeGreaterThanOrEqual(15 * 60);
  });

  it('anthropic, streaming, model_idle_timeout 15m: likewise', async () => {
    anthropic = await startFakeAnthropic([{ text: 'ok' }]);
    const provider = await createAnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: anthropic.url, env: { ANTHROPIC_API_KEY: 'sk-ant-test' }, idleTimeoutMs: FIFTEEN_MINUTES });
    expect((await provider.generate(ask, run())).text).toBe('ok');
    expect(sdkTimeout(anthropic.requests[0]!.headers)).toBeGreaterThanOrEqual(15 * 60);
  });

  it.each([true, false])('a model_idle_timeout at the longest a recipe takes (stream: %s) is answered, not cut by a timer that overflowed to 1 ms', async (stream) => {
    const longest = 2 ** 31 - 1000; // just under MAX_TIMER_MS: the slack must not push the SDK's timer past it
    openai = await startFakeOpenAI([{ text: 'ok', delayMs: 50 }]);
    const o = await createOpenAIProvider({ model: 'm', baseUrl: openai.url, env: { OPENAI_API_KEY: 'k' }, idleTimeoutMs: longest, stream });
    expect((await o.generate(ask, run())).text).toBe('ok');
    anthropic = await startFakeAnthropic([{ text: 'ok' }]);
    const a = await createAnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: anthropic.url, env: { ANTHROPIC_API_KEY: 'sk-ant-test' }, idleTimeoutMs: longest, options: { stream } });
    expect((await a.generate(ask, run())).text).toBe('ok');
  });
});
