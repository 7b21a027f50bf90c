// How the OpenAI-compatible provider ends a turn on servers' finish reasons and 200 error bodies
// the whole-run replays (test/e2e/endpoint-replays*.test.ts) do not reach, and the SSE naming the
// Anthropic transport does, through the real `openai` SDK against 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createGeminiProvider } from '../../src/providers/gemini.js';
import { withoutEmptyEvents } from '../../src/providers/live-fetch.js';
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
const chunk = (delta: object, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const answer = (finish: string) => ({ body: sse([chunk({ role: 'assistant', content: 'Hi.' }), chunk({}, finish)]) });

async function providerOn(responses: ReplayResponse[], extra: Partial<OpenAIProviderOptions> = {}): Promise<ModelProvider> {
  server = await startReplayServer(responses);
  return withRetries(await createOpenAIProvider({ model: 'm', baseUrl: `${server.url}/v1`, env: { OPENAI_API_KEY: 'k' }, ...extra }), { baseDelayMs: 1 });
}

describe('finish reasons in other servers\' words', () => {
  it("SGLang's abort is a failed answer, asked again, not a final answer taken with a warning", async () => {
    const provider = await providerOn([answer('abort'), answer('stop')]);
    const retries: string[] = [];
    const turn = await provider.generate(request, { ...run(), onRetry: (r) => retries.push(r.reason) });
    expect(turn.finish).toEqual({ reason: 'stop', raw: 'stop' });
    expect(retries).toEqual([expect.stringContaining('finish_reason "abort"')]);
  });

  it("DeepSeek's insufficient_system_resource (its docs: the inference system ran short mid-answer) is asked again, not taken as the answer", async () => {
    const provider = await providerOn([answer('insufficient_system_resource'), answer('stop')]);
    const retries: string[] = [];
    const turn = await provider.generate(request, { ...run(), onRetry: (r) => retries.push(r.reason) });
    expect(turn.finish).toEqual({ reason: 'stop', raw: 'stop' });
    expect(retries).toEqual([expect.stringContaining('finish_reason "insufficient_system_resource"')]);
  });

  it("Zhipu GLM's network_error is asked again; its sensitive is the content filter, a refusal not retried", async () => {
    const provider = await providerOn([answer('network_error'), answer('stop'), { body: sse([chunk({ role: 'assistant', content: '' }), chunk({}, 'sensitive')]) }, answer('stop')]);
    expect((await provider.generate(request, run())).finish.raw).toBe('stop');
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, err.message, server!.requests.length]).toEqual(['bad_request', expect.stringContaining('withheld by the content filter (finish_reason: sensitive)'), 3]);
  });

  it("Zhipu GLM's model_context_window_exceeded (z.ai; opencode#18813) is an answer cut off by the window; with nothing written, a refusal for length, which compaction answers", async () => {
    const provider = await providerOn([answer('model_context_window_exceeded'), { body: sse([chunk({ role: 'assistant', content: '' }), chunk({}, 'model_context_window_exceeded')]) }, answer('stop')]);
    expect((await provider.generate(request, run())).finish).toEqual({ reason: 'max_tokens', raw: 'model_context_window_exceeded' });
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['context_length', 2]);
    expect(err.message).toContain('model_context_window_exceeded');
  });

  it("Mistral's model_length is an answer cut off by the window; TGI's eos_token and Together's eos are natural ends", async () => {
    const provider = await providerOn([answer('model_length'), answer('eos_token'), answer('eos')]);
    expect((await provider.generate(request, run())).finish).toEqual({ reason: 'max_tokens', raw: 'model_length' });
    expect((await provider.generate(request, run())).finish).toEqual({ reason: 'stop', raw: 'eos_token' });
    expect((await provider.generate(request, run())).finish).toEqual({ reason: 'stop', raw: 'eos' });
  });
});

describe("Zhipu GLM's business codes in a stream's error event (docs.z.ai api-code), where no HTTP status says what they are", () => {
  const failing = (code: string, message: string) => ({ body: sse([{ error: { code, message } }]) });
  const kindOf = async (code: string, message: string) => {
    const provider = await providerOn([failing(code, message), failing(code, message), answer('stop'), answer('stop'), answer('stop'), answer('stop')]);
    const outcome = await provider.generate(request, run()).then(
      () => 'answered',
      (e: ProviderError) => e.kind,
    );
    const asked = server!.requests.length;
    await server!.close();
    server = undefined;
    return [outcome, asked];
  };

  it('a content refusal, an overdrawn account, a bad parameter or a refused key is not asked again', async () => {
    expect(await kindOf('1301', '系统检测到输入或生成内容可能包含不安全或敏感内容')).toEqual(['bad_request', 1]);
    expect(await kindOf('1113', '您的账户已欠费,请充值后重试')).toEqual(['bad_request', 1]);
    expect(await kindOf('1214', 'messages 参数非法。请检查文档')).toEqual(['bad_request', 1]);
    expect(await kindOf('1002', 'Authentication Token 非法')).toEqual(['auth', 1]);
  });

  it('a prompt too long is a refusal for length; too many requests and a busy model are waited out and asked again', async () => {
    expect(await kindOf('1261', 'Prompt exceeds max length')).toEqual(['context_length', 1]);
    expect(await kindOf('1302', '您当前使用该 API 的并发数过高')).toEqual(['answered', 3]);
    expect(await kindOf('1312', '该模型当前访问量过大,请您稍后再试')).toEqual(['answered', 3]);
  });
});

describe('a 200 whose body is an error, streaming off', () => {
  it("vLLM's {object: error} is read by its code in its words, not taken as a cut-off answer", async () => {
    const body = JSON.stringify({ object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', param: null, code: 400 });
    const provider = await providerOn([{ body }, { body }], { stream: false });
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect([err.kind, server!.requests.length]).toEqual(['bad_request', 1]);
    expect(err.message).toContain('requires --enable-auto-tool-choice and --tool-call-parser to be set (start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>)');
  });
});

describe('events labelled as JSON', () => {
  it('are still read as events, by the OpenAI-compatible provider and by Gemini\'s', async () => {
    const json = { 'content-type': 'application/json' };
    const provider = await providerOn([{ ...answer('stop'), headers: json }]);
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    await server!.close();
    const gemini = sse([{ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi.' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 } }], false);
    server = await startReplayServer([{ body: gemini, headers: json }]);
    const google = await createGeminiProvider({ model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: server.url } });
    expect((await google.generate(request, run())).text).toBe('Hi.');
  });

  it('with streaming off too (a gateway that streams anyway): read as the stream it is, not asked five times and failed as a network error', async () => {
    const json = { 'content-type': 'application/json' };
    const provider = await providerOn([{ ...answer('stop'), headers: json }, { ...answer('stop'), headers: json }], { stream: false });
    expect((await provider.generate(request, run())).text).toBe('Hi.');
    expect(server!.requests.map((r) => r.body.stream)).toEqual([false]);
    await server!.close();
    const events = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 0 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ];
    server = await startReplayServer([{ body: sse(events, false), headers: json }, { body: sse(events, false), headers: json }]);
    const claude = withRetries(await createAnthropicProvider({ model: 'claude', baseUrl: server.url, env: { ANTHROPIC_API_KEY: 'k' }, options: { stream: false } }), { baseDelayMs: 1 });
    expect((await claude.generate(request, run())).text).toBe('Hi.');
    expect(server.requests.map((r) => r.body.stream)).toEqual([false]);
  });
});

describe('SSE events named by their data (the Anthropic transport)', () => {
  async function through(text: string, nameEvents: boolean): Promise<string> {
    const out = new Response(new Response(text).body!.pipeThrough(withoutEmptyEvents(nameEvents)));
    return out.text();
  }

  it('names an event that has only data by its type, leaves a named one and one without a type as they are', async () => {
    const unnamed = 'data: {"type":"message_stop"}\r\n\r\n';
    const named = 'event: ping\ndata: {"type":"ping"}\n\n';
    const untyped = 'data: {"x":1}\n\n';
    expect(await through(unnamed + named + untyped, true)).toBe(`event: message_stop\n${unnamed}${named}${untyped}`);
    expect(await through(unnamed, false)).toBe(unnamed);
  });
});

describe('content as a list of blocks (Mistral reasoning models: docs.mistral.ai "Reasoning"; vercel/ai mistral fixtures)', () => {
  // Magistral, and Mistral Small 4 / Medium 3.5 with reasoning_effort, stream `content` as a list
  // of `thinking` and `text` blocks, and answer so without streaming too.
  const thinking = (text: string) => ({ type: 'thinking', thinking: [{ type: 'text', text }] });
  const streamed = sse([
    chunk({ role: 'assistant', content: [thinking('The user is asking')] }),
    chunk({ content: [thinking(' for 2+2. This is basic arithmetic.')] }),
    chunk({ content: [{ type: 'text', text: '2 + 2 ' }] }),
    chunk({ content: [{ type: 'text', text: '= 4' }] }),
    { ...chunk({ content: '' }, 'stop'), usage: { prompt_tokens: 10, total_tokens: 56, completion_tokens: 46 } },
  ]);
  const whole = JSON.stringify({
    id: 'c3e8',
    object: 'chat.completion',
    created: 1,
    model: 'magistral-medium-2509',
    usage: { prompt_tokens: 31, total_tokens: 192, completion_tokens: 161 },
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', tool_calls: null, content: [{ ...thinking('17 * 23 = 391.'), closed: true }, { type: 'text', text: '391' }] } }],
  });

  it('reads the text blocks as the answer and the thinking blocks as thinking, streamed', async () => {
    const provider = await providerOn([{ body: streamed }], { dialect: 'mistral' });
    const shown: string[] = [];
    const turn = await provider.generate(request, { ...run(), onText: (t) => shown.push(t) });
    expect(turn.text).toBe('2 + 2 = 4');
    expect(shown.join('')).toBe('2 + 2 = 4');
    expect(turn.parts).toEqual([{ text: 'The user is asking for 2+2. This is basic arithmetic.', thought: true }, { text: '2 + 2 = 4' }]);
  });

  it('and without streaming', async () => {
    const provider = await providerOn([{ body: whole }], { dialect: 'mistral', stream: false });
    const turn = await provider.generate(request, run());
    expect(turn.text).toBe('391');
    expect(turn.parts).toEqual([{ text: '17 * 23 = 391.', thought: true }, { text: '391' }]);
  });

  it('sends the thinking back on the next request as a thinking block before the text (vercel/ai @ai-sdk/mistral 4.0.15)', async () => {
    const provider = await providerOn([{ body: streamed }, answer('stop')], { dialect: 'mistral' });
    const first = await provider.generate(request, run());
    await provider.generate({ ...request, contents: [...request.contents, { role: 'model', parts: first.parts }, { role: 'user', parts: [{ text: 'And 3+3?' }] }] }, run());
    const messages = (server!.requests[1]!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(messages.find((m) => m.role === 'assistant')?.content).toEqual([
      { type: 'thinking', thinking: [{ type: 'text', text: 'The user is asking for 2+2. This is basic arithmetic.' }], closed: true },
      { type: 'text', text: '2 + 2 = 4' },
    ]);
  });
});

describe("Groq's tool_use_failed (console.groq.com/docs/tool-use: a tool call the model wrote did not parse or validate)", () => {
  // Groq's own words, as users report them (groq/groq-typescript#28, huggingface/smolagents#1119).
  const failed = {
    message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
    type: 'invalid_request_error',
    code: 'tool_use_failed',
    failed_generation: '<function=read_file{"absolute_path": "/w/README.md"}</function>',
  };
  const tools = [{ name: 'read_file', description: 'Read', parameters: { type: 'object', properties: { absolute_path: { type: 'string' } } } }];
  const withTools: ModelRequest = { ...request, tools };

  it('is a glitch of the sampled answer, asked again (the next draw is usually whole), with what the model wrote in the reason', async () => {
    const provider = await providerOn([{ status: 400, body: JSON.stringify({ error: failed }) }, answer('stop')]);
    const retries: string[] = [];
    const turn = await provider.generate(withTools, { ...run(), onRetry: (r) => retries.push(r.reason) });
    expect(turn.text).toBe('Hi.');
    expect(retries).toEqual([expect.stringContaining('<function=read_file{"absolute_path": "/w/README.md"}</function>')]);
  });

  it('inside a stream too; a second failure in a row ends the run, not five', async () => {
    const inStream = { body: sse([{ error: failed }], false) };
    const provider = await providerOn([inStream, inStream, inStream]);
    const err = (await provider.generate(withTools, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['empty', 2]);
    expect(err.message).toContain('Failed to call a function');
  });
});

describe("MiniMax's errors: a 200 with `base_resp` and `choices: null` (platform.minimax.io/docs/api-reference/errorcode)", () => {
  const failure = (status_code: number, status_msg: string) => ({
    id: '06f9a053',
    choices: null,
    created: 1,
    model: 'MiniMax-M2.7',
    object: 'chat.completion',
    usage: { total_tokens: 0, total_characters: 0 },
    input_sensitive: false,
    output_sensitive: false,
    base_resp: { status_code, status_msg },
  });

  it('as the one event of a stream: in its own words, judged by its code (insufficient balance is not retried)', async () => {
    const provider = await providerOn([{ body: sse([failure(1008, 'insufficient balance')]) }, answer('stop')]);
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['bad_request', 1]);
    expect(err.message).toContain('insufficient balance');
  });

  it('as a JSON body, streaming off: a rate limit is waited out and asked again; a good answer carrying base_resp 0 is an answer', async () => {
    const ok = JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'MiniMax-M2.7', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hi.' } }], base_resp: { status_code: 0, status_msg: '' } });
    const provider = await providerOn([{ body: JSON.stringify(failure(1002, 'rate limit')) }, { body: ok }], { stream: false });
    const retries: string[] = [];
    const turn = await provider.generate(request, { ...run(), onRetry: (r) => retries.push(`${r.kind}: ${r.reason}`) });
    expect(turn.text).toBe('Hi.');
    expect(retries).toEqual([expect.stringMatching(/^rate_limit: .*rate limit/)]);
  });
});

describe('a tool call the server did not parse, left in the text (vllm#17161, #16214; hermes-agent#39099)', () => {
  const tools = [{ name: 'read_file', description: 'Read', parameters: { type: 'object', properties: { absolute_path: { type: 'string' } } } }];
  const withTools: ModelRequest = { ...request, tools };
  // vLLM serving Qwen with a parser that is not the model's: the markup streams as content, then "stop".
  const hermes = {
    body: sse([
      chunk({ role: 'assistant', content: 'I will read it.\n' }),
      chunk({ content: '<tool_call>\n{"name": "read_file", ' }),
      chunk({ content: '"arguments": {"absolute_path": "/w/README.md"}}\n</tool_call>' }),
      chunk({}, 'stop'),
    ]),
  };
  // Llama 4 on vLLM with llama3_json, as vllm#16214 shows it, not streamed.
  const llama4 = {
    body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '<|python_start|>{"name": "read_file", "parameters": {"absolute_path": "/w/a"}}<|python_end|>' } }] }),
  };

  it('is not taken as the final answer: asked again once, then the run fails naming the call and the server setting', async () => {
    const provider = await providerOn([hermes, hermes, answer('stop')]);
    const err = (await provider.generate(withTools, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['empty', 2]);
    expect(err.message).toContain('read_file');
    expect(err.message).toContain('--tool-call-parser');
  });

  it('in each family\'s markup, streamed or not; a retry that calls properly goes on', async () => {
    const message = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/a"}' } }] };
    const call = { body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'tool_calls', message }] }) };
    const provider = await providerOn([llama4, call], { stream: false });
    const turn = await provider.generate(withTools, run());
    expect(turn.functionCalls).toEqual([{ id: 'c1', name: 'read_file', args: { absolute_path: '/w/a' } }]);
  });

  it('text about a tool the run does not offer is an answer', async () => {
    const provider = await providerOn([hermes]);
    expect((await provider.generate(request, run())).text).toContain('<tool_call>');
  });
});

describe("DashScope's content inspection inside the stream (Model Studio error codes: 400 data_inspection_failed)", () => {
  it('is a safety block in its words, not retried, as its HTTP 400 is', async () => {
    const blocked = { error: { code: 'data_inspection_failed', param: null, message: 'Output data may contain inappropriate content.', type: 'data_inspection_failed' } };
    const provider = await providerOn([{ body: sse([chunk({ role: 'assistant', content: 'Sure' }), blocked], false) }, answer('stop')]);
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['bad_request', 1]);
    expect(err.message).toContain('Output data may contain inappropriate content.');
  });
});

describe("OpenRouter's cost with the user's own provider key (openrouter.ai/docs/use-cases/usage-accounting: BYOK)", () => {
  const billed = (usage: object) => ({ body: sse([chunk({ role: 'assistant', content: 'Hi.' }), { ...chunk({}, 'stop'), usage }]) });
  const counts = { prompt_tokens: 194, completion_tokens: 2, total_tokens: 196 };

  it('is the fee plus what the upstream provider charged the key, not the fee alone (a budget would never bind)', async () => {
    const provider = await providerOn([
      billed({ ...counts, cost: 0.00095, is_byok: true, cost_details: { upstream_inference_cost: 0.019 } }),
      billed({ ...counts, cost: 0.019, is_byok: false, cost_details: { upstream_inference_cost: 0.019 } }),
    ]);
    expect((await provider.generate(request, run())).usage.cost_usd).toBeCloseTo(0.01995, 8);
    expect((await provider.generate(request, run())).usage.cost_usd).toBe(0.019);
  });
});

describe('llama.cpp before September 2025: a failure mid-stream as an `error:` field (ggml-org/llama.cpp#16109, coddy-agent#106)', () => {
  // What those builds wrote at HTTP 200 (server_sent_event(sink, "error", ...)): a field SSE readers drop.
  const failed = (code: number, message: string, type: string) => ({
    headers: { 'content-type': 'text/event-stream' },
    body: `error: ${JSON.stringify({ code, message, type })}\n\ndata: [DONE]\n\n`,
  });

  it('a history too long for the window is a refusal for length, in its words, which compaction answers; not a cut-off answer asked again', async () => {
    const provider = await providerOn(
      [failed(400, 'the request exceeds the available context size. try increasing the context size or enable context shift', 'invalid_request_error'), answer('stop')],
      { dialect: 'llamacpp' },
    );
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['context_length', 1]);
    expect(err.message).toContain('exceeds the available context size');
  });

  it('a server fault is retried as one', async () => {
    const provider = await providerOn([failed(500, 'Failed to parse input at pos 12', 'server_error'), answer('stop')], { dialect: 'llamacpp' });
    const retries: string[] = [];
    const turn = await provider.generate(request, { ...run(), onRetry: (r) => retries.push(r.reason) });
    expect(turn.text).toBe('Hi.');
    expect(retries).toEqual([expect.stringContaining('Failed to parse input at pos 12')]);
  });
});

describe('thinking a server left in the text (no reasoning parser)', () => {
  const ls = [{ name: 'ls', description: 'List', parameters: { type: 'object', properties: {} } }];
  const text = (content: string, finish = 'stop') => ({ body: sse([chunk({ role: 'assistant', content }), chunk({}, finish)]) });

  it('is not part of the answer, and stays in the history as the server sent it', async () => {
    const raw = '<think>\nThe user wants a greeting. Maybe <tool_call>{"name": "ls"} first? No.\n</think>\n\nHi there.';
    const provider = await providerOn([text(raw), text('Planning the reply.</think>Hello.')]);
    const turn = await provider.generate({ ...request, tools: ls }, run());
    expect(turn.text.trim()).toBe('Hi there.');
    expect(turn.parts).toEqual([{ text: raw }]);
    // The template opened the block, so only its end is in the text.
    expect((await provider.generate(request, run())).text).toBe('Hello.');
  });

  it('leaves an answer that only mentions the tags as it is', async () => {
    const said = 'Wrap the reasoning in <think> and </think> tags.';
    const provider = await providerOn([text(said)]);
    expect((await provider.generate(request, run())).text).toBe(said);
  });

  it('is no answer on its own: asked again once, then the run is told the model gave only its thinking', async () => {
    const provider = await providerOn([text('<think>Hmm.</think>\n'), text('<think>Still thinking')]);
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['empty', 2]);
    expect(err.message).toContain('the model returned only its thinking and no tool calls (finish_reason: stop)');
  });

  it('that took the whole output budget (finish_reason length) is named, with the setting to raise', async () => {
    const spent = { body: sse([chunk({ role: 'assistant', reasoning_content: 'Let me consider each option...' }), chunk({}, 'length')]) };
    const provider = await providerOn([spent, spent], { maxOutputTokens: 4000 });
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.message).toContain(
      'the model\'s output-token limit ended its answer before any text or tool call (finish reason "length"), all of it spent thinking: raise provider_options.max_output_tokens',
    );
  });

  it('on a self-hosted server asked with no cap, a prompt that filled the window before a word is a refusal for length (compacted), not an output cap to raise', async () => {
    // llama.cpp with n_predict -1: 4,090 of a 4,096-token n_ctx were the prompt; nothing was written.
    const full = { body: sse([chunk({ role: 'assistant', content: '' }), chunk({}, 'length'), { ...chunk({}), choices: [], usage: { prompt_tokens: 4090, completion_tokens: 6, total_tokens: 4096 } }]) };
    const provider = await providerOn([full, full], { dialect: 'llamacpp' });
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.kind).toBe('context_length');
    expect(err.message).toContain('context window of 4096 tokens');
    expect(err.message).not.toContain('raise provider_options.max_output_tokens');
  });

  it("on the same server, a thinking model whose answer was its thinking is told the server's limits, not compacted, and not to raise a cap never set", async () => {
    const spent = { body: sse([chunk({ role: 'assistant', reasoning_content: 'Let me consider...' }), chunk({}, 'length'), { ...chunk({}), choices: [], usage: { prompt_tokens: 900, completion_tokens: 3196, total_tokens: 4096 } }]) };
    const provider = await providerOn([spent, spent], { dialect: 'llamacpp' });
    const err = (await provider.generate(request, run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.kind).toBe('empty');
    expect(err.message).toContain("all of it spent thinking: no provider_options.max_output_tokens was set, so the server's own limit ended it");
    expect(err.message).toMatch(/num_predict.*--ctx-size/);
    expect(err.message).not.toContain('raise provider_options.max_output_tokens');
  });
});

describe("gpt-oss's harmony markup cut into a tool call's name (vllm-project/vllm#22578)", () => {
  const tools = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { absolute_path: { type: 'string' } } } }] as ModelRequest['tools'];
  const withTools: ModelRequest = { ...request, tools };
  const calling = (name: string) => ({
    body: sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] }), chunk({ tool_calls: [{ index: 0, function: { arguments: '{"absolute_path":"/w/a"}' } }] }), chunk({}, 'tool_calls')]),
  });

  it('calls the offered tool the name stands for, streamed and not, and sends it back under that name', async () => {
    const whole = { body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'functions.read_file', arguments: '{"absolute_path":"/w/a"}' } }] } }] }), headers: { 'content-type': 'application/json' } };
    const provider = await providerOn([calling('read_file<|channel|>commentary'), calling('read_file<|constrain|>json'), whole, answer('stop')]);
    const names: string[] = [];
    const history: ModelRequest['contents'] = [...request.contents];
    for (let i = 0; i < 3; i++) {
      const turn = await provider.generate({ ...withTools, contents: history }, run());
      names.push(...turn.functionCalls.map((c) => c.name));
      history.push({ role: 'model', parts: turn.parts }, { role: 'user', parts: turn.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: 'hello' } } })) });
    }
    expect(names).toEqual(['read_file', 'read_file', 'read_file']);
    await provider.generate({ ...withTools, contents: history }, run());
    const sent = server!.requests.at(-1)!.body as { messages: Array<{ tool_calls?: Array<{ function: { name: string } }> }> };
    expect(sent.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)).toEqual(['read_file', 'read_file', 'read_file']);
  });

  it('leaves a name alone whose cut is no tool the request offers: the model is told the name it wrote', async () => {
    const provider = await providerOn([calling('write_file<|channel|>commentary')]);
    const turn = await provider.generate(withTools, run());
    expect(turn.functionCalls.map((c) => c.name)).toEqual(['write_file<|channel|>commentary']);
  });
});
