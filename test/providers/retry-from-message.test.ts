// A rate limit that names its wait only in words ("Please try again in 20s"), with no Retry-After
// header (a proxy that drops it, a server that never sends one): the wait it names is honoured,
// and one past the maximum fails at once, saying so. Through the real openai SDK and the retry
// layer against 127.0.0.1, and the parser on the wordings servers use.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../../src/providers/openai.js';
import type { ModelRequest, RetryInfo } from '../../src/providers/provider.js';
import { retryDelayFromMessage } from '../../src/providers/http-errors.js';
import { withRetries } from '../../src/providers/retry.js';
import { sse, startReplayServer, type ReplayResponse, type ReplayServer } from '../helpers/replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }], tools: [] };
const chunk = (delta: object, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const answer: ReplayResponse = { body: sse([chunk({ role: 'assistant', content: 'Hi.' }), chunk({}, 'stop')]) };
const limited = (message: string): ReplayResponse => ({ status: 429, body: JSON.stringify({ error: { message, type: 'tokens', code: 'rate_limit_exceeded' } }) });

async function ask(responses: ReplayResponse[]) {
  server = await startReplayServer(responses);
  const provider = withRetries(await createOpenAIProvider({ model: 'm', baseUrl: `${server.url}/v1`, env: { OPENAI_API_KEY: 'k' } }), { baseDelayMs: 1, maxDelayMs: 5, retryAfterFloorMs: 1 });
  const retries: RetryInfo[] = [];
  try {
    const turn = await provider.generate(request, { signal: new AbortController().signal, onRetry: (r) => retries.push(r) });
    return { text: turn.text, error: null, retries };
  } catch (error) {
    return { text: null, error: error as Error, retries };
  }
}

describe('a 429 that names its wait only in its message', () => {
  it('is waited out as it says (OpenAI and Groq: "Please try again in 0.3s"), not by a backoff that gives up first', async () => {
    const { text, retries } = await ask([limited('Rate limit reached for m on tokens per min (TPM): Limit 30000, Used 29500, Requested 900. Please try again in 0.3s. Visit https://platform.openai.com/account/rate-limits to learn more.'), answer]);
    expect(text).toBe('Hi.');
    expect(retries.map((r) => r.delayMs)).toEqual([300]);
  });

  it('and a wait past the maximum (a daily limit: "Please try again in 7m12s") fails at once, saying how long it asked', async () => {
    const { error } = await ask([limited('Rate limit reached for m on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s.'), answer]);
    expect(error?.message).toContain('the server asked to wait 432 s before retrying, more than the 60 s maximum; not retrying');
    expect(server!.requests).toHaveLength(1);
  });
});

describe('retryDelayFromMessage', () => {
  it.each<[string, number | undefined]>([
    ['Please try again in 20s.', 20_000],
    ['Please try again in 1.898s.', 1898],
    ['Please try again in 6ms.', 6],
    ['Please try again in 1m30.5s.', 90_500],
    ['Please try again in 2h10m.', 7_800_000],
    ['Requests have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.', 6000],
    ['Resource has been exhausted. Please retry in 43.5s.', 43_500],
    ['Please try again in 5 minutes', 300_000],
    ['Rate limit reached. Please try again later.', undefined],
    ['Too many requests', undefined],
  ])('%s', (message, ms) => {
    expect(retryDelayFromMessage(message)).toBe(ms);
  });
});
