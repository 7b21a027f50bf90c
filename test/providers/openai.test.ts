// The openai provider driving the real `openai` SDK against the fake endpoint on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../src/providers/openai.js';
import { ProviderError, type ModelRequest } from '../../src/providers/provider.js';
import { InputError } from '../../src/types/errors.js';
import type { Content } from '../../src/types/content.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../helpers/fake-openai.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function providerFor(steps: FakeStep[], extra: Partial<OpenAIProviderOptions> = {}) {
  fake = await startFakeOpenAI(steps);
  return createOpenAIProvider({ model: 'qwen-test', baseUrl: fake.url, env: { OPENAI_API_KEY: 'test-key' }, ...extra });
}

const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  systemInstruction: 'You are careful.',
  contents: [{ role: 'user', parts: [{ text }] }],
  tools: [],
  ...extra,
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => (server.close(resolve), server.closeAllConnections()));
  return port;
}

const run = () => ({ signal: new AbortController().signal });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('openai provider: streaming answers', () => {
  it('streams text across chunks to onText and returns it whole', async () => {
    const provider = await providerFor([{ text: 'Hello from the fake model', pieces: 4 }]);
    const deltas: string[] = [];
    const turn = await provider.generate(ask('hi'), { ...run(), onText: (d) => deltas.push(d) });
    expect(deltas.length).toBe(4);
    expect(deltas.join('')).toBe('Hello from the fake model');
    expect(turn).toMatchObject({ text: 'Hello from the fake model', functionCalls: [], finish: { reason: 'stop', raw: 'stop' } });
    expect(turn.parts).toEqual([{ text: 'Hello from the fake model' }]);
    const sent = fake!.requests[0]!;
    expect(sent.body).toMatchObject({ model: 'qwen-test', stream: true, stream_options: { include_usage: true } });
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'You are careful.' });
    expect(sent.body.messages[1]).toEqual({ role: 'user', content: 'hi' });
    expect(sent.body).not.toHaveProperty('tools'); // some servers reject an empty list
  });

  it('assembles one tool call whose arguments arrive split over several deltas', async () => {
    const args = { absolute_path: '/repo/src/main.ts', offset: 10, limit: 50 };
    const provider = await providerFor([{ toolCalls: [{ id: 'call_abc', name: 'read_file', arguments: args }], pieces: 5 }]);
    const turn = await provider.generate(ask('read it'), run());
    expect(turn.functionCalls).toEqual([{ id: 'call_abc', name: 'read_file', args }]);
    expect(turn.parts).toEqual([{ functionCall: { id: 'call_abc', name: 'read_file', args } }]);
    expect(turn.finish).toEqual({ reason: 'tool_calls', raw: 'tool_calls' });
  });

  it('keeps parallel tool calls apart by index even when their fragments interleave', async () => {
    const provider = await providerFor([
      {
        text: 'Looking.',
        interleave: true,
        toolCalls: [
          { id: 'call_1', name: 'glob', arguments: { pattern: '**/*.ts' } },
          { id: 'call_2', name: 'grep', arguments: { pattern: 'TODO', include: '*.md' } },
          { id: 'call_3', name: 'ls', arguments: {} },
        ],
      },
    ]);
    const turn = await provider.generate(ask('look around'), run());
    expect(turn.functionCalls).toEqual([
      { id: 'call_1', name: 'glob', args: { pattern: '**/*.ts' } },
      { id: 'call_2', name: 'grep', args: { pattern: 'TODO', include: '*.md' } },
      { id: 'call_3', name: 'ls', args: {} },
    ]);
    expect(turn.parts[0]).toEqual({ text: 'Looking.' });
  });

  it('records usage from the final usage chunk, cached tokens included', async () => {
    const usage = { prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234, prompt_tokens_details: { cached_tokens: 1024 } };
    const provider = await providerFor([{ text: 'ok', usage }]);
    const turn = await provider.generate(ask('hi'), run());
    expect(turn.usage).toEqual({ input: 1200, output: 34, total: 1234, cached: 1024 });
  });

  it('keeps streamed reasoning as a thought part and never sends it back', async () => {
    const provider = await providerFor([{ reasoning: 'Let me think.', text: 'Answer.' }, { text: 'again' }]);
    const turn = await provider.generate(ask('q'), run());
    expect(turn.parts).toEqual([{ text: 'Let me think.', thought: true }, { text: 'Answer.' }]);
    await provider.generate({ ...ask('q'), contents: [...ask('q').contents, { role: 'model', parts: turn.parts }] }, run());
    expect(fake!.requests[1]!.body.messages[2]).toEqual({ role: 'assistant', content: 'Answer.' });
  });

  it('says when its request is written, before any of the answer, streaming or not', async () => {
    for (const stream of [true, false]) {
      const provider = await providerFor([{ text: 'Hello there', pieces: 2 }], { stream });
      const order: string[] = [];
      await provider.generate(ask('hi'), { ...run(), onSent: () => order.push('sent'), onText: () => order.push('text') });
      expect(order[0], `stream: ${stream}`).toBe('sent');
      expect(order.filter((step) => step === 'sent'), `stream: ${stream}`).toHaveLength(1);
      await fake!.close();
    }
  });

  it('works without streaming when asked, through the same mapping', async () => {
    const provider = await providerFor([{ text: 'plain', toolCalls: [{ id: 'c9', name: 'ls', arguments: { path: 'src' } }] }], {
      stream: false,
    });
    const turn = await provider.generate(ask('q'), run());
    expect(fake!.requests[0]!.body.stream).toBeFalsy();
    expect(turn).toMatchObject({ text: 'plain', functionCalls: [{ id: 'c9', name: 'ls', args: { path: 'src' } }] });
    expect(turn.usage.total).toBe(15);
  });
});

describe('openai provider: the conversation it sends', () => {
  it('sends a tool result back as a tool message answering the call id, with tools offered', async () => {
    const provider = await providerFor([
      { toolCalls: [{ id: 'call_77', name: 'read_file', arguments: { absolute_path: '/w/a.txt' } }] },
      { text: 'The file says hello.' },
    ]);
    const tools = [
      {
        name: 'read_file',
        description: 'Reads a file',
        parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { absolute_path: { type: 'string' } }, required: ['absolute_path'] },
      },
    ];
    const history: Content[] = [{ role: 'user', parts: [{ text: 'What is in a.txt?' }] }];
    const first = await provider.generate({ systemInstruction: 'Be brief.', contents: history, tools }, run());
    history.push({ role: 'model', parts: first.parts });
    history.push({ role: 'user', parts: [{ functionResponse: { id: 'call_77', name: 'read_file', response: { output: 'hello' } } }] });
    const second = await provider.generate({ systemInstruction: 'Be brief.', contents: history, tools }, run());

    expect(second.text).toBe('The file says hello.');
    const body = fake!.requests[1]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in a.txt?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_77', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/a.txt"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_77', content: 'hello' },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'Reads a file',
          parameters: { type: 'object', properties: { absolute_path: { type: 'string' } }, required: ['absolute_path'] },
        },
      },
    ]);
  });

  it('returns unparseable arguments as a malformed call carrying the raw text instead of failing', async () => {
    const provider = await providerFor([
      { toolCalls: [{ id: 'bad', name: 'edit', arguments: '{"file_path": "/w/a.ts", "old_string": "x' }, { id: 'ok', name: 'ls', arguments: '' }] },
    ]);
    const turn = await provider.generate(ask('edit'), run());
    expect(turn.functionCalls).toEqual([
      { id: 'bad', name: 'edit', args: {}, unparsedArguments: '{"file_path": "/w/a.ts", "old_string": "x' },
      { id: 'ok', name: 'ls', args: {} },
    ]);
  });
});

describe('openai provider: configuration', () => {
  it('refuses to start without a key for api.openai.com, with the fix in one line', async () => {
    const err = await failure(createOpenAIProvider({ model: 'gpt-4o', baseUrl: null, env: {} }));
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(/OPENAI_API_KEY is not set/);
    expect(err.message).not.toContain('\n');
  });

  it('takes the base URL from OPENAI_BASE_URL and needs no key for a custom server', async () => {
    fake = await startFakeOpenAI([{ text: 'local' }]);
    const provider = await createOpenAIProvider({ model: 'llama', baseUrl: null, env: { OPENAI_BASE_URL: fake.url } });
    expect((await provider.generate(ask('hi'), run())).text).toBe('local');
    expect(fake.requests[0]!.headers.authorization).toMatch(/^Bearer \S+/);
  });

  it('sends the key as Azure wants it: an api-key header on a deployment URL, from AZURE_OPENAI_API_KEY when set', async () => {
    for (const env of [{ OPENAI_API_KEY: 'openai-key' }, { AZURE_OPENAI_API_KEY: 'azure-key', OPENAI_API_KEY: 'other' }]) {
      fake = await startFakeOpenAI([{ text: 'azure' }]);
      const base = `${fake.url.replace(/\/v1$/, '')}/openai/deployments/gpt4o?api-version=2024-06-01`;
      const provider = await createOpenAIProvider({ model: 'gpt-4o', baseUrl: base, env });
      expect((await provider.generate(ask('hi'), run())).text).toBe('azure');
      const sent = fake.requests[0]!;
      expect(sent).toMatchObject({ path: '/openai/deployments/gpt4o/chat/completions', query: 'api-version=2024-06-01' });
      expect(sent.headers['api-key']).toBe('AZURE_OPENAI_API_KEY' in env ? 'azure-key' : 'openai-key');
      expect(sent.headers.authorization).toBeUndefined();
      await fake.close();
      fake = undefined;
    }
  });

  it("keeps a base URL's query on every request, after the path (Azure's ?api-version=…)", async () => {
    fake = await startFakeOpenAI([{ text: 'azure' }]);
    const provider = await createOpenAIProvider({ model: 'gpt-4o', baseUrl: `${fake.url}?api-version=2024-10-21`, env: { OPENAI_API_KEY: 'k' } });
    expect((await provider.generate(ask('hi'), run())).text).toBe('azure');
    expect(fake.requests[0]).toMatchObject({ path: '/v1/chat/completions', query: 'api-version=2024-10-21' });
  });

  // Before: every request went to …/chat/completions/chat/completions, which a real server answers 404.
  it('takes the endpoint URL itself as the base URL it ends in (…/v1/chat/completions, an Azure deployment\'s with its query)', async () => {
    fake = await startFakeOpenAI([{ text: 'one' }, { text: 'two' }]);
    const root = fake.url.replace(/\/v1$/, '');
    for (const baseUrl of [`${fake.url}/chat/completions`, `${root}/openai/deployments/gpt4o/chat/completions/?api-version=2024-10-21`]) {
      const provider = await createOpenAIProvider({ model: 'gpt-4o', baseUrl, env: { OPENAI_API_KEY: 'k' } });
      await provider.generate(ask('hi'), run());
    }
    expect(fake.requests.map((r) => [r.path, r.query])).toEqual([
      ['/v1/chat/completions', ''],
      ['/openai/deployments/gpt4o/chat/completions', 'api-version=2024-10-21'],
    ]);
  });

  it('prefers the recipe base_url over OPENAI_BASE_URL', async () => {
    const provider = await providerFor([{ text: 'from recipe url' }], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' },
    });
    expect((await provider.generate(ask('hi'), run())).text).toBe('from recipe url');
  });

  it.each([
    { baseUrl: 'localhost:11434', env: {}, names: 'recipe base_url' },
    { baseUrl: null, env: { OPENAI_BASE_URL: 'localhost:11434/v1' }, names: 'OPENAI_BASE_URL' },
  ])('rejects a base URL that is not http(s), naming $names', async ({ baseUrl, env, names }) => {
    // The user's setting: bad input (exit 42), never a model call that failed.
    const err = await Promise.resolve()
      .then(() => createOpenAIProvider({ model: 'm', baseUrl, env }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ exitCode: 42, message: expect.stringContaining(names) });
  });
});

describe('openai provider: failures become ProviderError kinds, never retried by the SDK', () => {
  it.each([
    { step: { status: 401, message: 'Incorrect API key' }, kind: 'auth', retryAfterMs: undefined },
    { step: { status: 403 }, kind: 'auth', retryAfterMs: undefined },
    { step: { status: 400, message: 'tools[0] is invalid' }, kind: 'bad_request', retryAfterMs: undefined },
    { step: { status: 404 }, kind: 'bad_request', retryAfterMs: undefined },
    { step: { status: 429, retryAfter: '2' }, kind: 'rate_limit', retryAfterMs: 2000 },
    { step: { status: 429, retryAfterMs: '1500', retryAfter: '9' }, kind: 'rate_limit', retryAfterMs: 1500 },
    { step: { status: 500 }, kind: 'server', retryAfterMs: undefined },
    { step: { status: 503, retryAfter: '1' }, kind: 'server', retryAfterMs: 1000 },
    { step: { status: 409, retryAfter: '1' }, kind: 'server', retryAfterMs: 1000 }, // as gemini: a conflict is retried
  ])('$step.status → $kind', async ({ step, kind, retryAfterMs }) => {
    const provider = await providerFor([step, { text: 'a retry would get this' }]);
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err).toMatchObject({ kind, status: step.status, retryAfterMs });
    expect(fake!.requests).toHaveLength(1);
  });

  it.each([true, false])('a web page answered with 200 where the API should be is not a chat completion (stream: %s)', async (stream) => {
    const page = '<!DOCTYPE html>\n<html><head><title>Open WebUI</title></head><body>' + 'x'.repeat(5000) + '</body></html>';
    const provider = await providerFor([{ raw: page, contentType: 'text/html; charset=utf-8' }, { text: 'a retry would get this' }], { stream });
    const err = await failure(provider.generate(ask('hi'), run()));
    // Asking the same URL again gets the same page: not retried, and not 'cut off'.
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(
      new RegExp(`^${fake!.url.replace(/[.]/g, '\\.')} did not return a chat completion: HTTP 200 with content-type text/html; charset=utf-8, starting '<!DOCTYPE html> <html><head><title>Open WebUI</title>`),
    );
    expect(err.message).toContain('is the base URL the API\'s, usually ending in /v1?');
    expect(err.message.length).toBeLessThan(500);
  });

  it.each([
    ["Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", /set provider_options\.dialect: openai\)/],
    ['Unrecognized request argument supplied: max_completion_tokens', /set provider_options\.dialect to one other than openai/],
  ])('names the setting that leaves out a request field the server refuses: %s', async (refusal, hint) => {
    const provider = await providerFor([{ status: 400, message: refusal }]);
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain(refusal);
    expect(err.message).toMatch(hint);
  });

  it('keeps a huge error body to one capped line, as gemini does', async () => {
    const provider = await providerFor([{ status: 400, message: `bad\n${'x'.repeat(5000)}` }]);
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err.message).not.toContain('\n');
    expect(err.message.length).toBeLessThan(400);
  });

  it('reports a refused connection as network, naming the address', async () => {
    const port = await closedPort();
    const provider = await createOpenAIProvider({ model: 'm', baseUrl: `http://127.0.0.1:${port}/v1`, env: {} });
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err.kind).toBe('network');
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).toContain(`127.0.0.1:${port}`);
  });

  it.each([
    { name: 'a stream that ends mid tool call', step: { cut: { toolCalls: [{ name: 'write_file', arguments: { file_path: '/w/x', content: 'abcdef' } }] }, keep: 3 }, kind: 'cut_off' },
    { name: 'a socket destroyed mid tool call', step: { cut: { toolCalls: [{ name: 'write_file', arguments: { file_path: '/w/x', content: 'abcdef' } }] }, keep: 3, destroy: true }, kind: 'cut_off' },
    { name: 'text without a finish_reason', step: { cut: { text: 'half an answer' }, keep: 3 }, kind: 'cut_off' },
    { name: 'a finished answer with nothing in it', step: { empty: true }, kind: 'empty' },
    { name: 'a finished answer of only whitespace', step: { text: ' \n ' }, kind: 'empty' },
  ] as { name: string; step: FakeStep; kind: string }[])('$name → $kind, no partial call', async ({ step, kind }) => {
    const provider = await providerFor([step]);
    const err = await failure(provider.generate(ask('write'), run()));
    expect(err.kind).toBe(kind);
  });

  it('an empty answer stopped by the content filter is a refusal (bad_request, never retried), not empty', async () => {
    const provider = await providerFor([{ finishReason: 'content_filter' }, { text: 'a retry would get this' }]);
    const err = await failure(provider.generate(ask('write'), run()));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/^the model refused: .*content_filter/);
  });

  it.each([
    { name: 'no response at all', step: { hang: true } },
    { name: 'a stream that goes silent', step: { hang: true, before: { text: 'I will now' } } },
  ] as { name: string; step: FakeStep }[])('$name → stalled after the idle timeout', async ({ step }) => {
    const provider = await providerFor([step], { idleTimeoutMs: 150 });
    const started = Date.now();
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err.kind).toBe('stalled');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('with streaming off, a server that never answers is abandoned after ten idle timeouts (the whole answer\'s time), not waited on', async () => {
    const provider = await providerFor([{ hang: true }], { idleTimeoutMs: 100, stream: false });
    const started = Date.now();
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err.kind).toBe('stalled');
    expect(err.message).toMatch(/no answer from .* within 1s \(streaming is off/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  // Before: "the server's answer is neither an event stream nor JSON: data: {…}", retried, then the run failed.
  it('with streaming off, a server that streams anyway is read as the stream it is, and one cut short is cut off', async () => {
    const provider = await providerFor(
      [
        { text: 'Reading it.', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } }], alwaysStreams: true },
        { cut: { text: 'Half of an answer', alwaysStreams: true }, keep: 2 },
      ],
      { stream: false },
    );
    const turn = await provider.generate(ask('hi'), run());
    expect([turn.text, turn.functionCalls, turn.finish.reason]).toEqual(['Reading it.', [{ id: 'call_1', name: 'read_file', args: { path: 'a.ts' } }], 'tool_calls']);
    expect(fake!.requests[0]!.body.stream).toBe(false);
    const err = await failure(provider.generate(ask('hi'), run()));
    expect(err.kind).toBe('cut_off');
  });

  it('with streaming off, an answer slower than one idle timeout is still taken', async () => {
    const provider = await providerFor([{ text: 'slow but whole', delayMs: 300 }], { idleTimeoutMs: 100, stream: false });
    const turn = await provider.generate(ask('hi'), run());
    expect(turn.text).toBe('slow but whole');
  });

  it('stops at once when the run is aborted mid-stream, with the abort reason', async () => {
    const provider = await providerFor([{ text: 'a long answer that takes its time', pieces: 20, delayMs: 50 }]);
    const controller = new AbortController();
    const seen: string[] = [];
    const pending = provider.generate(ask('hi'), {
      signal: controller.signal,
      onText: (d) => {
        seen.push(d);
        if (seen.length === 2) controller.abort(new Error('SIGTERM'));
      },
    });
    await expect(pending).rejects.toThrow('SIGTERM');
    expect(seen.length).toBeLessThan(5);
  });
});
