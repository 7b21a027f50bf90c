// Servers that validate requests strictly and refuse a field the runner sends, replayed through the
// real `openai` SDK against 127.0.0.1: the run goes on without the field, and a refusal is told in
// the server's own words.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../src/providers/openai.js';
import type { ModelProvider, ModelRequest } from '../../src/providers/provider.js';
import { withRetries } from '../../src/providers/retry.js';
import { sse, startReplayServer, type ReplayResponse, type ReplayServer } from '../helpers/replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request: ModelRequest = { systemInstruction: '', contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }], tools: [] };
const run = () => ({ signal: new AbortController().signal });
const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'mistral-large-latest', choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
// Mistral sends usage on its last chunk unasked.
const answer = { body: sse([chunk({ role: 'assistant', content: 'Hi.' }), chunk({ content: '' }, 'stop', { usage: { prompt_tokens: 7, total_tokens: 9, completion_tokens: 2 } })]) };

async function providerOn(responses: ReplayResponse[], extra: Partial<OpenAIProviderOptions> = {}): Promise<ModelProvider> {
  server = await startReplayServer(responses);
  return withRetries(await createOpenAIProvider({ model: 'mistral-large-latest', baseUrl: `${server.url}/v1`, env: { OPENAI_API_KEY: 'k' }, ...extra }), { baseDelayMs: 1 });
}

describe('a server that refuses stream_options (Mistral: avante.nvim#2347, anon-kode#53; older Azure api-versions)', () => {
  // Mistral's 422, byte for byte as users report it: a pydantic `detail` list inside `message`.
  const refusal = {
    status: 422,
    body: JSON.stringify({
      object: 'error',
      message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options', 'include_usage'], msg: 'Extra inputs are not permitted', input: true }] },
      type: 'invalid_request_error',
      param: null,
      code: null,
    }),
  };

  it('is asked again without it, and the rest of the run leaves it out; the usage it sends unasked is counted', async () => {
    const provider = await providerOn([refusal, answer, answer], { dialect: 'mistral' });
    const first = await provider.generate(request, run());
    expect(first.text).toBe('Hi.');
    expect(first.usage).toMatchObject({ input: 7, output: 2 });
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    expect(server!.requests.map((r) => 'stream_options' in r.body)).toEqual([true, false, false]);
    expect(server!.requests.map((r) => r.body.stream)).toEqual([true, true, true]);
  });

  it("reads a refusal in that shape in its own words, the field it names included, not as '(no body)'", async () => {
    const other = { ...refusal, body: refusal.body.replace(/stream_options","include_usage/, 'messages",0,"user","name') };
    const provider = await providerOn([other]);
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain('body.messages.0.user.name: Extra inputs are not permitted');
    expect(server!.requests).toHaveLength(1);
  });
});
