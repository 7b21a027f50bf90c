// Servers that validate requests strictly and refuse a field the runner sends, replayed through the
// real `openai` SDK against 127.0.0.1: the run goes on without the field, and a refusal is told in
// the server's own words.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../src/providers/openai.js';
import { ProviderError, type ModelProvider, type ModelRequest } from '../../src/providers/provider.js';
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

const tools = [{ name: 'ls', description: 'List', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

/** A run of two turns offering `ls`: the model calls it, gets its answer, then answers; returns that answer. */
async function twoTurns(provider: ModelProvider): Promise<string> {
  const contents: ModelRequest['contents'] = [...request.contents];
  const first = await provider.generate({ ...request, contents, tools }, run());
  expect(first.functionCalls.map((c) => c.name)).toEqual(['ls']);
  contents.push({ role: 'model', parts: first.parts });
  contents.push({ role: 'user', parts: first.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: 'a b' } } })) });
  return (await provider.generate({ ...request, contents, tools }, run())).text;
}

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

describe('a server that wants reasoning_content on every tool-call turn once it thinks (Kimi K2.5: "thinking is enabled but reasoning_content is missing in assistant tool call message at index N"; opencode#23824)', () => {
  const call = (id: string, reasoning?: string) => ({
    body: sse([
      chunk({ role: 'assistant', content: '', ...(reasoning ? { reasoning_content: reasoning } : {}) }),
      chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] }),
      chunk({}, 'tool_calls', { usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } }),
    ]),
  });

  it('sends an empty reasoning_content on a tool-call turn that had none, once the server has sent one in the run', async () => {
    const provider = await providerOn([call('functions.ls:0', 'I should list.'), call('functions.ls:1'), answer], { model: 'kimi-k2.5' });
    const contents: ModelRequest['contents'] = [...request.contents];
    for (let turn = 0; turn < 3; turn++) {
      const answered = await provider.generate({ ...request, contents, tools }, run());
      contents.push({ role: 'model', parts: answered.parts });
      contents.push({ role: 'user', parts: answered.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: 'a b' } } })) });
    }
    const assistants = (server!.requests[2]!.body.messages as any[]).filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => m.reasoning_content)).toEqual(['I should list.', '']);
  });

  it('and never to a server that has not sent one (Groq and Cerebras refuse the field)', async () => {
    const provider = await providerOn([call('c0'), call('c1'), answer]);
    const contents: ModelRequest['contents'] = [...request.contents];
    for (let turn = 0; turn < 3; turn++) {
      const answered = await provider.generate({ ...request, contents, tools }, run());
      contents.push({ role: 'model', parts: answered.parts });
      contents.push({ role: 'user', parts: answered.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: 'a b' } } })) });
    }
    const assistants = (server!.requests[2]!.body.messages as any[]).filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => 'reasoning_content' in m)).toEqual([false, false]);
  });
});

describe("Google's OpenAI-compatible endpoint: a 429 says how long to wait in its body (google.rpc.RetryInfo)", () => {
  // The endpoint's JSON array, as its per-minute quota answers (googleapis/python-genai#1875): no Retry-After header.
  const quota = (delay: string) => ({
    status: 429,
    body: JSON.stringify([
      {
        error: {
          code: 429,
          message: 'You exceeded your current quota, please check your plan and billing details.',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests' }] },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay },
          ],
        },
      },
    ]),
  });

  it('waits as long as it says before asking again, instead of giving up within its backoff', async () => {
    server = await startReplayServer([quota('0.25s'), answer]);
    const inner = await createOpenAIProvider({ model: 'gemini-2.5-flash', baseUrl: `${server.url}/v1beta/openai`, env: { OPENAI_API_KEY: 'k' } });
    const provider = withRetries(inner, { baseDelayMs: 1, retryAfterFloorMs: 1 });
    const waits: number[] = [];
    const turn = await provider.generate(request, { ...run(), onRetry: (r) => waits.push(r.delayMs) });
    expect(turn.text).toBe('Hi.');
    expect(waits).toEqual([250]);
  });

  it('and a wait longer than the retry maximum (a daily quota) fails at once, saying so', async () => {
    server = await startReplayServer([quota('3600s'), answer]);
    const provider = withRetries(await createOpenAIProvider({ model: 'gemini-2.5-flash', baseUrl: `${server.url}/v1beta/openai`, env: { OPENAI_API_KEY: 'k' } }), { baseDelayMs: 1 });
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain('asked to wait 3600 s');
    expect(server!.requests).toHaveLength(1);
  });
});

describe('an HTML error page from a proxy or load balancer (nginx 503, Cloudflare 502)', () => {
  it.each([
    ['<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>', '503 Service Temporarily Unavailable (an HTML page)'],
    ['<!DOCTYPE html><html><body><h1>Bad gateway</h1><p>Error code 502</p><script>var x = 1;</script></body></html>', 'Bad gateway Error code 502 (an HTML page)'],
  ])('is told by its words, not its markup, and still retried', async (page, words) => {
    const provider = await providerOn(Array.from({ length: 5 }, () => ({ status: 503, headers: { 'content-type': 'text/html' }, body: page })));
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.message).toContain(`HTTP 503 from ${server!.url}/v1: ${words}`);
    expect(err.message).not.toMatch(/<[a-z!]/i);
    expect(server!.requests).toHaveLength(5);
  });
});

describe("an HTML error page in front of Gemini's own API", () => {
  it('is told by its title too', async () => {
    const { createGeminiProvider } = await import('../../src/providers/gemini.js');
    const { startFakeGemini } = await import('../helpers/fake-gemini.js');
    const page = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';
    const fake = await startFakeGemini(Array.from({ length: 5 }, () => ({ raw: page, status: 502, contentType: 'text/html' })));
    try {
      const provider = withRetries(await createGeminiProvider({ model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: fake.url } }), { baseDelayMs: 1 });
      const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
      expect(err.message).toMatch(/^Gemini API HTTP 502: 502 Bad Gateway \(an HTML page\)/);
    } finally {
      await fake.close();
    }
  });
});

describe("OpenRouter's moderation refusal (openrouter.ai/docs/api/reference/errors: 403, metadata.reasons and flagged_input)", () => {
  it('is a refusal in its words (exit 1), not a key to check (exit 41), and not retried', async () => {
    const body = JSON.stringify({
      error: {
        code: 403,
        message: 'meta-llama/llama-guard flagged your input',
        metadata: { reasons: ['violence'], flagged_input: 'how to make a…', provider_name: 'Anthropic', model_slug: 'anthropic/claude-3.5-sonnet' },
      },
    });
    const provider = await providerOn([{ status: 403, body }, answer]);
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, err.exitCode, server!.requests.length]).toEqual(['bad_request', 1, 1]);
    expect(err.message).toContain('flagged your input (flagged: violence)');
    expect(err.message).not.toContain('check OPENAI_API_KEY');
  });
});

describe('DashScope (Qwen) with streaming off: refusals of a non-streamed request', () => {
  // DashScope's 400, as users report it (ragflow#8972, ragflow#5912).
  const refusal = (message: string, id: string) => ({
    status: 400,
    body: JSON.stringify({ error: { code: 'invalid_parameter_error', param: null, message, type: 'invalid_request_error' }, id: `chatcmpl-${id}`, request_id: id }),
  });
  const completion = (message: object, finish: string) => ({
    body: JSON.stringify({
      choices: [{ message: { role: 'assistant', ...message }, finish_reason: finish, index: 0, logprobs: null }],
      object: 'chat.completion',
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
      created: 1,
      system_fingerprint: null,
      model: 'qwen3-32b',
      id: 'chatcmpl-1',
    }),
  });
  const callLs = { content: '', tool_calls: [{ index: 0, id: 'call_9a0b', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } }] };
  const dashscope = (responses: ReplayResponse[], model: string) => providerOn(responses, { model, stream: false, dialect: 'dashscope' });

  it("open Qwen3 models (thinking by default) are asked again with enable_thinking: false, still unstreamed, for the rest of the run", async () => {
    const provider = await dashscope(
      [refusal('parameter.enable_thinking must be set to false for non-streaming calls', 'f5a1f1ee'), completion(callLs, 'tool_calls'), completion({ content: 'Two files.' }, 'stop')],
      'qwen3-32b',
    );
    expect(await twoTurns(provider)).toBe('Two files.');
    expect(server!.requests.map((r) => [r.body.stream, r.body.enable_thinking])).toEqual([[false, undefined], [false, false], [false, false]]);
  });

  it('the same refusal in Chinese (the mainland endpoint) is understood too', async () => {
    const provider = await dashscope([refusal('parameter.enable_thinking必须设置为false才能进行非流式调用', 'a1'), completion({ content: 'Hi.' }, 'stop')], 'qwen3-32b');
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    expect(server!.requests.map((r) => r.body.enable_thinking)).toEqual([undefined, false]);
  });

  it('models that answer only streamed (QwQ, QVQ) are asked again streamed, for the rest of the run', async () => {
    const qwq = (delta: object, finish: string | null = null) => ({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'qwq-plus', choices: [{ index: 0, delta, finish_reason: finish }] });
    const usage = { id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'qwq-plus', choices: [], usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } };
    const streamedCall = {
      body: sse([
        qwq({ role: 'assistant', content: null, reasoning_content: 'List it.' }),
        qwq({ content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } }] }),
        qwq({ content: null }, 'tool_calls'),
        usage,
      ]),
    };
    const streamedAnswer = { body: sse([qwq({ role: 'assistant', content: 'Two files.' }), qwq({ content: '' }, 'stop'), usage]) };
    const provider = await dashscope(
      [refusal('This model only support stream mode, please enable the stream parameter to access the model. ', '7ed765de'), streamedCall, streamedAnswer],
      'qwq-plus',
    );
    expect(await twoTurns(provider)).toBe('Two files.');
    expect(server!.requests.map((r) => r.body.stream)).toEqual([false, true, true]);
    // The turn-2 history carries the tool call's thinking back, as the dashscope dialect does.
    const assistant = (server!.requests[2]!.body.messages as any[]).find((m) => m.role === 'assistant');
    expect(assistant.reasoning_content).toBe('List it.');
  });

  it('a refusal that no change answers still ends the run at once, in its words', async () => {
    const provider = await dashscope([refusal('The tool call is not supported.', 'b2'), completion({ content: 'Hi.' }, 'stop')], 'qwen3-32b');
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('The tool call is not supported.');
    expect(server!.requests).toHaveLength(1);
  });
});

describe('OpenAI streams some models only to verified organizations (o3, gpt-5: continuedev/continue#8209, crush#422)', () => {
  const unverified = {
    error: {
      message:
        'Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.',
      type: 'invalid_request_error',
      param: 'stream',
      code: 'unsupported_value',
    },
  };
  const completion = (message: object, finish: string) => ({
    body: JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'o3-2025-04-16',
      choices: [{ index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, finish_reason: finish }],
      usage: { prompt_tokens: 30, completion_tokens: 80, total_tokens: 110, completion_tokens_details: { reasoning_tokens: 64 } },
    }),
  });
  const callLs = { content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] };

  it('is asked again unstreamed, and the rest of the run is unstreamed', async () => {
    const provider = await providerOn([{ status: 400, body: JSON.stringify(unverified) }, completion(callLs, 'tool_calls'), completion({ content: 'Two files.' }, 'stop')], { model: 'o3', dialect: 'openai' });
    expect(await twoTurns(provider)).toBe('Two files.');
    expect(server!.requests.map((r) => [r.body.stream, 'stream_options' in r.body])).toEqual([[true, true], [false, false], [false, false]]);
  });

  it('also when OpenRouter relays the refusal (metadata.raw)', async () => {
    const relayed = { error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify(unverified, null, 2), provider_name: 'OpenAI' } } };
    const provider = await providerOn([{ status: 400, body: JSON.stringify(relayed) }, completion({ content: 'Hi.' }, 'stop')], { model: 'openai/o3', dialect: 'openrouter' });
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    expect(server!.requests.map((r) => r.body.stream)).toEqual([true, false]);
  });
});

describe("OpenAI's reasoning models behind a host that does not name them (an Azure deployment of o3-mini, a gateway) refuse max_tokens", () => {
  it('are asked again with max_completion_tokens, kept for the run', async () => {
    const refusal = {
      status: 400,
      body: JSON.stringify({
        error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' },
      }),
    };
    server = await startReplayServer([refusal, answer, answer]);
    const inner = await createOpenAIProvider({ model: 'o3-mini', baseUrl: `${server.url}/openai/deployments/o3-mini?api-version=2024-12-01-preview`, env: { AZURE_OPENAI_API_KEY: 'k' }, maxOutputTokens: 4000 });
    const provider = withRetries(inner, { baseDelayMs: 1 });
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    expect(server.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([[4000, undefined], [undefined, 4000], [undefined, 4000]]);
  });
});

describe('Gemini behind an OpenAI-compatible front not known as Google (Vertex AI openapi, Ollama cloud, a proxy) wants the name on tool messages', () => {
  it('its refusal of a nameless tool result is answered by naming them, for the rest of the run', async () => {
    // As Vertex passes Gemini's refusal through (ollama#14214 shows the same words from Ollama's cloud).
    const refusal = {
      status: 400,
      body: JSON.stringify([{ error: { code: 400, message: '* GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be empty.\n', status: 'INVALID_ARGUMENT' } }]),
    };
    const call = { body: sse([chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } }] }), chunk({}, 'tool_calls')]) };
    const final = { body: sse([chunk({ role: 'assistant', content: 'Two files.' }), chunk({}, 'stop')]) };
    const provider = await providerOn([call, refusal, final, final], { model: 'google/gemini-3-flash-preview' });
    expect(await twoTurns(provider)).toBe('Two files.');
    const toolMessages = server!.requests.slice(1).map((r) => r.body.messages.find((m: { role: string }) => m.role === 'tool'));
    expect(toolMessages.map((m: { name?: string }) => m.name)).toEqual([undefined, 'ls']);
    // Kept for the run: the next request names it at once.
    await provider.generate({ ...request, contents: [...request.contents, { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'ls', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'ls', response: { output: 'a' } } }] }], tools }, run());
    expect(server!.requests.at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool').name).toBe('ls');
  });
});

describe("a server that refuses an assistant message's content: null (LM Studio, lmstudio-bug-tracker#261; llama.cpp b5331, llama.cpp#13471)", () => {
  const call = { body: sse([chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } }] }), chunk({}, 'tool_calls')]) };
  const final = { body: sse([chunk({ role: 'assistant', content: 'Two files.' }), chunk({}, 'stop')]) };
  const refusals = {
    // LM Studio's 400, as its log shows it.
    'LM Studio': { status: 400, body: JSON.stringify({ error: "Invalid 'content': 'content' field must be a string or an array of objects." }) },
    // llama.cpp's 500 server_error: before, asked five times over, then the run failed.
    'llama.cpp': { status: 500, body: JSON.stringify({ error: { code: 500, message: "Expected 'content' to be a string or an array", type: 'server_error' } }) },
  };

  for (const [server_, refusal] of Object.entries(refusals)) {
    it(`${server_}: the message is sent again with content "", and so for the rest of the run`, async () => {
      const provider = await providerOn([call, refusal, final, final], { model: 'qwen2.5-7b-instruct' });
      expect(await twoTurns(provider)).toBe('Two files.');
      const assistant = (r: { body: { messages: Array<{ role: string; content: unknown }> } }) => r.body.messages.find((m) => m.role === 'assistant')!.content;
      expect(server!.requests.slice(1).map(assistant)).toEqual([null, '']);
      await provider.generate({ ...request, contents: [...request.contents, { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'ls', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'ls', response: { output: 'a' } } }] }], tools }, run());
      expect(assistant(server!.requests.at(-1)!)).toBe('');
      expect(server!.requests).toHaveLength(4);
    });
  }
});

describe('a server that refuses a message with empty content (z.ai GLM, code 1213; MiniMax, 2013)', () => {
  it('is never sent one: a tool that answered nothing (an MCP tool with empty content) goes as "(empty)", and the run goes on', async () => {
    // GLM's refusal, as it answers any message whose content is empty: every later request of the
    // run holds that tool message, so each would be refused alike.
    const strict = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const messages = (JSON.parse(text) as { messages: Array<{ role: string; content: unknown }> }).messages;
        bodies.push(messages);
        if (messages.some((m) => m.role !== 'assistant' && typeof m.content === 'string' && m.content.trim() === '')) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ error: { code: '1213', message: 'prompt parameter was not received normally' } }));
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const first = bodies.length === 1;
        const delta = first ? { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] } : { role: 'assistant', content: 'Done.' };
        res.end(sse([chunk(delta), chunk({}, first ? 'tool_calls' : 'stop')]));
      });
    });
    const bodies: Array<Array<{ role: string; content: unknown }>> = [];
    await new Promise<void>((resolve) => strict.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(strict.address() as AddressInfo).port}/v1`;
      const provider = withRetries(await createOpenAIProvider({ model: 'glm-4.6', baseUrl: url, env: { OPENAI_API_KEY: 'k' } }), { baseDelayMs: 1 });
      const contents: ModelRequest['contents'] = [...request.contents];
      const first = await provider.generate({ ...request, contents, tools }, run());
      contents.push({ role: 'model', parts: first.parts });
      // What the loop makes of an MCP tool's result whose content is empty.
      contents.push({ role: 'user', parts: first.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: '' } } })) });
      expect((await provider.generate({ ...request, contents, tools }, run())).text).toBe('Done.');
      expect(bodies[1]!.find((m) => m.role === 'tool')?.content).toBe('(empty)');
    } finally {
      await new Promise((resolve) => strict.close(resolve));
    }
  });
});
