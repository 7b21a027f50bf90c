// Each OpenAI-compatible family's wire shapes, replayed byte for byte from 127.0.0.1 into the real
// `openai` SDK, asserting on what the runner sends back on the next request. The source of every
// shape is named beside it.
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, dialectFor } from '../../src/providers/dialects.js';
import { TurnAssembler } from '../../src/providers/openai-stream.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../src/providers/openai.js';
import { ProviderError, type ModelProvider, type ModelRequest, type ModelTurn } from '../../src/providers/provider.js';
import { withRetries } from '../../src/providers/retry.js';
import type { Content, FunctionDeclaration } from '../../src/types/content.js';
import { sse, startReplayServer, type ReplayResponse, type ReplayServer } from '../helpers/replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOLS: FunctionDeclaration[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { absolute_path: { type: 'string' } } } },
  { name: 'ls', description: 'List', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];
const run = () => ({ signal: new AbortController().signal });
const request = (contents: Content[]): ModelRequest => ({ systemInstruction: 'Be careful.', contents, tools: TOOLS });
const PROMPT: Content = { role: 'user', parts: [{ text: 'Read the README' }] };

async function providerOn(responses: ReplayResponse[], extra: Partial<OpenAIProviderOptions> = {}): Promise<ModelProvider> {
  server = await startReplayServer(responses);
  return createOpenAIProvider({ model: 'm', baseUrl: `${server.url}/v1`, env: { OPENAI_API_KEY: 'k' }, ...extra });
}

/** Turn 1 from the replay, then turn 2 with the tool's answer: returns the assistant message sent back. */
async function secondRequestAssistant(provider: ModelProvider): Promise<{ turn: ModelTurn; assistant: any }> {
  const turn = await provider.generate(request([PROMPT]), run());
  const answers: Content = {
    role: 'user',
    parts: turn.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: 'ok' } } })),
  };
  await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, answers]), run());
  const messages = server!.requests[1]!.body.messages as any[];
  return { turn, assistant: messages.find((m) => m.role === 'assistant') };
}

const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_730_000_000,
  model: 'm',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  ...extra,
});
const DONE_TEXT = { body: sse([chunk({ role: 'assistant', content: 'Done.' }), chunk({}, 'stop')]) };

describe('DeepSeek thinking mode (api-docs.deepseek.com/guides/thinking_mode, "tool calls")', () => {
  // The stream shape of the docs' example: reasoning_content deltas, then a tool call, content null.
  const thinkingToolCall = sse([
    chunk({ role: 'assistant', content: null, reasoning_content: '' }),
    chunk({ content: null, reasoning_content: 'The user wants the README. ' }),
    chunk({ content: null, reasoning_content: 'I will read it.' }),
    chunk({ content: null, tool_calls: [{ index: 0, id: 'call_00_abc', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
    chunk({ content: null, tool_calls: [{ index: 0, function: { arguments: '{"absolute_path":' } }] }),
    chunk({ content: null, tool_calls: [{ index: 0, function: { arguments: '"/w/README.md"}' } }] }),
    chunk({ content: null }, 'tool_calls', { usage: { prompt_tokens: 90, completion_tokens: 40, total_tokens: 130, prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 25 } } }),
  ]);

  it('sends reasoning_content back on the tool-call assistant message (without it DeepSeek answers 400)', async () => {
    const provider = await providerOn([{ body: thinkingToolCall }, DONE_TEXT], { dialect: 'deepseek' });
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(turn.functionCalls).toEqual([{ id: 'call_00_abc', name: 'read_file', args: { absolute_path: '/w/README.md' } }]);
    expect(assistant.reasoning_content).toBe('The user wants the README. I will read it.');
    expect(assistant.tool_calls[0].id).toBe('call_00_abc');
    expect(turn.usage).toEqual({ input: 90, output: 40, total: 130, cached: 64, reasoning: 25 });
  });

  it('sends an empty reasoning_content when a tool-call turn had no thinking', async () => {
    const noThinking = sse([
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'ls', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: noThinking }, DONE_TEXT], { dialect: 'deepseek' });
    const { assistant } = await secondRequestAssistant(provider);
    expect(assistant).toHaveProperty('reasoning_content', '');
  });

  it('sends reasoning_content on a final answer after tool results once a user message follows it (V4 with tools refuses it missing: kimi-cli#2141), empty for a turn that lost it', async () => {
    const answer = sse([
      chunk({ role: 'assistant', content: null, reasoning_content: 'The README is read. ' }),
      chunk({ reasoning_content: 'Summarise.' }),
      chunk({ content: 'It describes the CLI.' }),
      chunk({}, 'stop'),
    ]);
    const provider = await providerOn([{ body: thinkingToolCall }, { body: answer }, DONE_TEXT], { dialect: 'deepseek' });
    const contents: Content[] = [PROMPT];
    const first = await provider.generate(request(contents), run());
    contents.push({ role: 'model', parts: first.parts });
    contents.push({ role: 'user', parts: first.functionCalls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output: '# unattended' } } })) });
    const second = await provider.generate(request(contents), run());
    expect(second.text).toBe('It describes the CLI.');
    // A follow-up (a failed success check, a schema retry), after a turn continued from a transcript (no echo kept).
    contents.push({ role: 'model', parts: second.parts }, { role: 'user', parts: [{ text: 'The tests fail: fix them.' }] });
    contents.unshift({ role: 'user', parts: [{ text: 'Earlier task' }] }, { role: 'model', parts: [{ text: 'Earlier answer.' }] });
    await provider.generate(request(contents), run());
    const assistants = (server!.requests[2]!.body.messages as any[]).filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => m.reasoning_content)).toEqual(['', 'The user wants the README. I will read it.', 'The README is read. Summarise.']);
  });

  it("sends back only the fields a server sent: Groq's and Cerebras' `reasoning` does not come back as a reasoning_content they refuse", async () => {
    const groq = sse([
      chunk({ role: 'assistant', content: null, reasoning: 'I should list the files.' }),
      chunk({ tool_calls: [{ index: 0, id: 'fc_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: groq }, DONE_TEXT]); // 127.0.0.1: generic
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(turn.parts.find((p) => p.thought)?.text).toBe('I should list the files.');
    expect(assistant).not.toHaveProperty('reasoning_content');
  });

  it("sends LiteLLM's thinking_blocks back whole (Claude behind it refuses a tool_use turn without its signed thinking)", async () => {
    const block = { type: 'thinking', thinking: 'I should list.', signature: 'EqQBCgIYAhIM' };
    const litellm = sse([
      chunk({ role: 'assistant', content: null, reasoning_content: 'I should list.', thinking_blocks: [block] }),
      chunk({ tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: litellm }, DONE_TEXT]);
    const { assistant } = await secondRequestAssistant(provider);
    expect(assistant.thinking_blocks).toEqual([block]);
  });

  it('is recognised from its host, and a server we cannot name still gets reasoning_content back', async () => {
    expect(dialectFor('https://api.deepseek.com/v1', null).name).toBe('deepseek');
    const provider = await providerOn([{ body: thinkingToolCall }, DONE_TEXT]); // 127.0.0.1: generic
    const { assistant } = await secondRequestAssistant(provider);
    expect(assistant.reasoning_content).toBe('The user wants the README. I will read it.');
  });
});

describe('OpenRouter (openrouter.ai/docs: reasoning tokens, "preserving reasoning blocks"; errors)', () => {
  // Gemini 3 behind OpenRouter: `reasoning` text plus `reasoning_details` entries streamed by index,
  // an encrypted entry carrying the signature, then a tool call (fixture shape of
  // OpenRouterTeam/ai-sdk-provider's reasoning-details schema: reasoning.text / reasoning.encrypted).
  const stream = sse([
    ': OPENROUTER PROCESSING',
    chunk({ role: 'assistant', content: '', reasoning: 'Plan: ', reasoning_details: [{ type: 'reasoning.text', text: 'Plan: ', index: 0, format: 'google-gemini-v1' }] }),
    chunk({ content: '', reasoning: 'read it.', reasoning_details: [{ type: 'reasoning.text', text: 'read it.', index: 0, format: 'google-gemini-v1' }] }),
    chunk({ content: '', reasoning_details: [{ type: 'reasoning.encrypted', data: 'CiQBjz1rX...', index: 1, format: 'google-gemini-v1' }] }),
    chunk({ content: '', tool_calls: [{ index: 0, id: 'tool_read_file_x1', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/README.md"}' } }] }),
    chunk({}, 'tool_calls', { provider: 'Google', native_finish_reason: 'STOP' }),
  ]);

  it('sends reasoning_details back whole, each streamed entry joined by its index', async () => {
    const provider = await providerOn([{ body: stream }, DONE_TEXT]);
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(assistant.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Plan: read it.', index: 0, format: 'google-gemini-v1' },
      { type: 'reasoning.encrypted', data: 'CiQBjz1rX...', index: 1, format: 'google-gemini-v1' },
    ]);
    expect(turn.parts[0]).toMatchObject({ thought: true, text: 'Plan: read it.' });
    expect(dialectFor('https://openrouter.ai/api/v1', null).name).toBe('openrouter');
  });

  it("reports the upstream provider's own message from error.metadata.raw, and does not retry a 400", async () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'Provider returned error',
        metadata: { raw: JSON.stringify({ error: { code: 400, message: 'Function call is missing a thought_signature in functionCall parts.', status: 'INVALID_ARGUMENT' } }), provider_name: 'Google AI Studio' },
      },
      user_id: 'user_x',
    });
    const provider = withRetries(await providerOn([{ status: 400, body }, { status: 400, body }]), { baseDelayMs: 1 });
    const err = (await provider.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('Google AI Studio: Function call is missing a thought_signature');
    expect(server!.requests).toHaveLength(1);
  });

  it('counts SSE keep-alive comments as life: a long thinking phase does not trip the idle watch', async () => {
    const comments = Array<string>(6).fill(': OPENROUTER PROCESSING\n\n');
    const answer = sse([chunk({ role: 'assistant', content: 'Thought hard.' }), chunk({}, 'stop')]);
    // 6 comments 120 ms apart: 720 ms of no data, with a 300 ms idle timeout; then the answer in one piece.
    const pieces = [...comments, answer];
    const provider = await providerOn([{ body: pieces.join(''), pieces, gapMs: 120 }], { idleTimeoutMs: 300 });
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.text).toBe('Thought hard.');
  });

  it('skips data-less events (which the SDK would fail on) and retries an answer that ended with finish_reason "error"', async () => {
    const failed = sse([chunk({ role: 'assistant', content: 'Half' }), chunk({}, 'error')]);
    const withEmpty = 'event: keep-alive\n\ndata: \n\n' + sse([chunk({ role: 'assistant', content: 'Whole.' }), 'event: ping', chunk({}, 'stop')]);
    const provider = withRetries(await providerOn([{ body: failed }, { body: withEmpty, chunkBytes: 9 }]), { baseDelayMs: 1 });
    const retries: string[] = [];
    const turn = await provider.generate(request([PROMPT]), { ...run(), onRetry: (r) => retries.push(r.reason) });
    expect(turn.text).toBe('Whole.');
    expect(retries).toEqual([expect.stringContaining('finish_reason "error"')]);
  });

  it('an error inside a 200 stream with a 4xx code is not retried; a 5xx one is', async () => {
    const inStream = (code: number) => sse([chunk({ role: 'assistant', content: '' }), { id: 'gen-1', object: 'chat.completion.chunk', error: { code, message: `upstream said ${code}` }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] }], false);
    const bad = withRetries(await providerOn([{ body: inStream(400) }, { body: inStream(400) }]), { baseDelayMs: 1 });
    const err = (await bad.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['bad_request', 1]);
    expect(err.message).toContain('upstream said 400');
    await server!.close();

    const flaky = withRetries(await providerOn([{ body: inStream(502) }, DONE_TEXT]), { baseDelayMs: 1 });
    expect((await flaky.generate(request([PROMPT]), run())).text).toBe('Done.');
    expect(server!.requests).toHaveLength(2);
  });

  it("an answer that ended with finish_reason \"error\" is retried, the warning giving the upstream's words from its error object", async () => {
    // OpenRouter's StreamingChoice carries the error itself; a server that streams though asked not to, beside the choice.
    const onChoice = sse([chunk({ role: 'assistant', content: 'Half' }), { id: 'gen-3', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error', error: { code: 'server_error', message: 'Provider disconnected unexpectedly' } }] }]);
    const provider = withRetries(await providerOn([{ body: onChoice }, DONE_TEXT]), { baseDelayMs: 1 });
    const retries: string[] = [];
    expect((await provider.generate(request([PROMPT]), { ...run(), onRetry: (r) => retries.push(r.reason) })).text).toBe('Done.');
    expect(retries).toEqual([expect.stringMatching(/finish_reason "error" \(the model failed mid-answer\): Provider disconnected unexpectedly$/)]);
    await server!.close();

    const beside = sse([chunk({ role: 'assistant', content: 'Half' }), { id: 'gen-4', object: 'chat.completion.chunk', error: { code: 502, message: 'Upstream timed out' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] }]);
    const unasked = withRetries(await providerOn([{ body: beside }, { body: beside }], { stream: false }), { maxAttempts: 2, baseDelayMs: 1 });
    const err = (await unasked.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['server', 2]);
    expect(err.message).toContain('finish_reason "error" (the model failed mid-answer): Upstream timed out');
    await server!.close();

    // A whole JSON body (streaming off) whose choice carries the error.
    const whole = JSON.stringify({ id: 'gen-5', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'error', error: { code: 502, message: 'Upstream went away' } }] });
    const json = withRetries(await providerOn([{ body: whole }], { stream: false }), { maxAttempts: 1 });
    expect(((await json.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError).message).toContain('(the model failed mid-answer): Upstream went away');
  });

  it('the same error as a 200 JSON body (streaming off) is judged alike, in the upstream\'s words', async () => {
    const body = (code: number) => JSON.stringify({ id: 'gen-2', object: 'chat.completion', error: { code, message: `Provider returned error`, metadata: { raw: `upstream said ${code}`, provider_name: 'Fireworks' } } });
    const bad = withRetries(await providerOn([{ body: body(400) }, { body: body(400) }], { stream: false }), { baseDelayMs: 1 });
    const err = (await bad.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect([err.kind, server!.requests.length]).toEqual(['bad_request', 1]);
    expect(err.message).toContain('Fireworks: upstream said 400');
  });
});

describe("Google's OpenAI-compatible endpoint (ai.google.dev/gemini-api/docs/openai, thought signatures)", () => {
  const signed = sse([
    chunk({
      role: 'assistant',
      tool_calls: [
        { index: 0, id: 'function-call-1', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/README.md"}' }, extra_content: { google: { thought_signature: 'CtYBAdHtim9+sig==' } } },
      ],
    }),
    chunk({}, 'tool_calls'),
  ]);

  it('sends tool_calls[].extra_content.google.thought_signature back on its call (Gemini 3 answers 400 without it)', async () => {
    const provider = await providerOn([{ body: signed }, DONE_TEXT]);
    const { assistant } = await secondRequestAssistant(provider);
    expect(assistant.tool_calls[0]).toMatchObject({ id: 'function-call-1', extra_content: { google: { thought_signature: 'CtYBAdHtim9+sig==' } } });
    expect(dialectFor('https://generativelanguage.googleapis.com/v1beta/openai/', null).name).toBe('google');
  });

  it("names the function on each tool message (the endpoint refuses one without: 'function_response.name: Name cannot be empty'); other dialects do not", async () => {
    const provider = await providerOn([{ body: signed }, DONE_TEXT], { dialect: 'google' });
    await secondRequestAssistant(provider);
    const tool = (server!.requests[1]!.body.messages as any[]).find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'function-call-1', name: 'read_file' });
    await server!.close();
    const generic = await providerOn([{ body: signed }, DONE_TEXT]);
    await secondRequestAssistant(generic);
    expect((server!.requests[1]!.body.messages as any[]).find((m) => m.role === 'tool')).not.toHaveProperty('name');
  });

  it('reads the error out of the JSON array the endpoint answers with, instead of "(no body)"', async () => {
    const body = JSON.stringify([{ error: { code: 400, message: 'Please ensure that function call turn comes immediately after a user turn.', status: 'INVALID_ARGUMENT' } }]);
    const provider = await providerOn([{ status: 400, body }]);
    const err = (await provider.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('function call turn comes immediately after a user turn');
    expect(err.message).not.toContain('no body');
  });
});

describe('Ollama /v1/chat/completions (github.com/ollama/ollama openai/openai.go: whole calls per chunk)', () => {
  it('keeps parallel calls apart when they all arrive at index 0 with distinct ids', async () => {
    const stream = sse([
      chunk({ role: 'assistant', content: '', tool_calls: [{ id: 'call_a1', index: 0, type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/a.ts"}' } }] }),
      chunk({ role: 'assistant', content: '', tool_calls: [{ id: 'call_b2', index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":"/w"}' } }] }),
      chunk({ role: 'assistant', content: '' }, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }, DONE_TEXT]);
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(turn.functionCalls).toEqual([
      { id: 'call_a1', name: 'read_file', args: { absolute_path: '/w/a.ts' } },
      { id: 'call_b2', name: 'ls', args: { path: '/w' } },
    ]);
    expect(assistant.tool_calls.map((c: any) => c.id)).toEqual(['call_a1', 'call_b2']);
    const toolMessages = server!.requests[1]!.body.messages.filter((m: any) => m.role === 'tool');
    expect(toolMessages.map((m: any) => m.tool_call_id)).toEqual(['call_a1', 'call_b2']);
  });
});

describe('calls without ids (older Ollama builds, some gateways)', () => {
  it('opens a new call when a named fragment follows a call whose arguments are already whole', async () => {
    const stream = sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":"b"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls.map((c) => c.args)).toEqual([{ path: 'a' }, { path: 'b' }]);
  });

  it('opens a new call after one whose arguments came JSON-encoded twice (a string holding the object, as watsonx sends them)', async () => {
    const twice = (args: object) => JSON.stringify(JSON.stringify(args));
    const stream = sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: twice({ path: 'a' }) } }] }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'read_file', arguments: twice({ absolute_path: '/w/b' }) } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls.map((c) => [c.name, c.args, c.unparsedArguments])).toEqual([
      ['ls', { path: 'a' }, undefined],
      ['read_file', { absolute_path: '/w/b' }, undefined],
    ]);
  });

  it('takes arguments JSON-encoded twice, repeated whole at the end (LiteLLM), once', async () => {
    const twice = JSON.stringify(JSON.stringify({ path: 'a' }));
    const stream = sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'ls', arguments: twice } }] }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { arguments: twice } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls).toEqual([{ id: 'c1', name: 'ls', args: { path: 'a' } }]);
  });

  it('keeps a call whole when the server stamps a fresh id on every fragment', async () => {
    const stream = sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { arguments: '{"absolute_path":' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_3', type: 'function', function: { arguments: '"/w/x"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls).toEqual([{ id: 'call_1', name: 'read_file', args: { absolute_path: '/w/x' } }]);
  });

  it('opens a new call for a fragment naming another function once the call before it is whole, with neither id nor index', async () => {
    const stream = sse([
      chunk({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/a"}' } }] }),
      chunk({ tool_calls: [{ type: 'function', function: { name: 'ls', arguments: '' } }] }),
      chunk({ tool_calls: [{ type: 'function', function: { arguments: '{"path":"/w"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls.map((c) => [c.name, c.args])).toEqual([
      ['read_file', { absolute_path: '/w/a' }],
      ['ls', { path: '/w' }],
    ]);
  });

  it('keeps a server that repeats the name on every fragment to one call', async () => {
    const stream = sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"pa' } }] }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: 'th":"a"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls).toEqual([{ id: 'c1', name: 'ls', args: { path: 'a' } }]);
  });
});

describe('Mistral (docs.mistral.ai: no user message right after tool messages)', () => {
  it("names a tool's image in its tool message instead of sending a user message after it; other dialects send the image", async () => {
    const call = sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'abcDEF123', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/a.png"}' } }] }), chunk({}, 'tool_calls')]);
    const withImage = (turn: ModelTurn): Content => ({
      role: 'user',
      parts: [{ functionResponse: { id: turn.functionCalls[0]!.id, name: 'read_file', response: { output: 'Read image a.png (70 B)' } } }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
    });
    for (const dialect of ['mistral', 'generic'] as const) {
      const provider = await providerOn([{ body: call }, DONE_TEXT], { dialect });
      const turn = await provider.generate(request([PROMPT]), run());
      await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, withImage(turn)]), run());
      const messages = server!.requests[1]!.body.messages as any[];
      const roles = messages.map((m) => m.role);
      if (dialect === 'mistral') {
        expect(roles).toEqual(['system', 'user', 'assistant', 'tool']);
        expect(messages.at(-1).content).toMatch(/^Read image a\.png \(70 B\)\n\[1 attachment\(s\) returned by the tool calls are not shown/);
      } else {
        expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
      }
      await server!.close();
    }
    expect(dialectFor('https://api.mistral.ai/v1', null).name).toBe('mistral');
  });
});

describe("Mistral's tool-call ids: 9 letters and digits, or the request is refused", () => {
  const NINE = /^[A-Za-z0-9]{9}$/;
  it('sends ids it invented, or got from another provider, as 9 characters, the same on the call and its result; its own ids unchanged', async () => {
    // No id from the server (the runner makes one), a history continued from a Gemini run (none at
    // all), two calls sharing one id: each must reach Mistral as 9 letters and digits.
    const noIds = sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":"a"}' } }] }), chunk({}, 'tool_calls')]);
    const provider = await providerOn([{ body: noIds }, DONE_TEXT, DONE_TEXT], { dialect: 'mistral' });
    const turn = await provider.generate(request([PROMPT]), run());
    const fromGemini: Content[] = [
      { role: 'model', parts: [{ functionCall: { name: 'ls', args: { path: 'b' } } }, { functionCall: { id: 'abcDEF123', name: 'ls', args: { path: 'c' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'b1' } } }, { functionResponse: { id: 'abcDEF123', name: 'ls', response: { output: 'c1' } } }] },
    ];
    const history = [PROMPT, ...fromGemini, { role: 'model', parts: turn.parts } as Content, { role: 'user', parts: [{ functionResponse: { id: turn.functionCalls[0]!.id, name: 'ls', response: { output: 'a1' } } }] } as Content];
    await provider.generate(request(history), run());
    await provider.generate(request(history), run());
    const [second, third] = [server!.requests[1]!.body.messages as any[], server!.requests[2]!.body.messages as any[]];
    const calls = second.filter((m) => m.role === 'assistant').flatMap((m) => m.tool_calls.map((c: any) => c.id));
    const results = second.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(calls).toHaveLength(3);
    for (const id of calls) expect(id).toMatch(NINE);
    expect(results).toEqual(calls);
    expect(calls[1]).toBe('abcDEF123');
    expect(new Set(calls).size).toBe(3);
    // The same ids on every request: the prefix a provider caches stays the same.
    expect(third).toEqual(second);
    // Other dialects send the ids as they are.
    await server!.close();
    const generic = await providerOn([DONE_TEXT], { dialect: 'generic' });
    await generic.generate(request([PROMPT, ...fromGemini]), run());
    expect((server!.requests[0]!.body.messages as any[]).find((m) => m.role === 'assistant').tool_calls[0].id).toBe('call_1_0');
  });
});

describe('a model that takes no images (DeepSeek: "unknown variant `image_url`, expected `text`")', () => {
  const call = sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path":"/w/logo.png"}' } }] }), chunk({}, 'tool_calls')]);
  const withImage = (turn: ModelTurn): Content => ({
    role: 'user',
    parts: [{ functionResponse: { id: turn.functionCalls[0]!.id, name: 'read_file', response: { output: 'Read image logo.png (70 B)' } } }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
  });
  const imageParts = (messages: any[]) => messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p: any) => p.type === 'image_url');

  it("names a tool's image in its tool message for the deepseek dialect, and wherever provider_options.images is false", async () => {
    for (const extra of [{ dialect: 'deepseek' as const }, { dialect: 'vllm' as const, images: false }]) {
      const provider = await providerOn([{ body: call }, DONE_TEXT], extra);
      const turn = await provider.generate(request([PROMPT]), run());
      await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, withImage(turn)]), run());
      const messages = server!.requests[1]!.body.messages as any[];
      expect(imageParts(messages), JSON.stringify(extra)).toEqual([]);
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
      expect(messages.at(-1).content).toBe('Read image logo.png (70 B)\n[1 attachment(s) returned by the tool calls are not shown: this model takes text only]');
      await server!.close();
    }
  });

  it('sends the image where the model takes them: other dialects, and deepseek with images: true', async () => {
    for (const extra of [{ dialect: 'vllm' as const }, { dialect: 'deepseek' as const, images: true }]) {
      const provider = await providerOn([{ body: call }, DONE_TEXT], extra);
      const turn = await provider.generate(request([PROMPT]), run());
      await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, withImage(turn)]), run());
      expect(imageParts(server!.requests[1]!.body.messages), JSON.stringify(extra)).toHaveLength(1);
      await server!.close();
    }
  });
});

describe('a stream with no finish_reason (NVIDIA NIM serving GLM)', () => {
  const whole = [
    chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
  ];

  it('takes whole tool calls when the stream ended with [DONE]', async () => {
    const provider = await providerOn([{ body: sse(whole) }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.functionCalls).toEqual([{ id: 'c1', name: 'ls', args: { path: 'a' } }]);
    expect(turn.finish.reason).toBe('tool_calls');
  });

  it('is cut off without [DONE], or when a call is not whole', async () => {
    for (const body of [sse(whole, false), sse([whole[0]!])]) {
      const provider = await providerOn([{ body }, { body }]);
      const err = (await withRetries(provider, { maxAttempts: 1 }).generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
      expect(err.message).toContain('cut off before it finished (no finish_reason)');
      await server!.close();
    }
  });
});

describe('usage as each family reports it', () => {
  it("counts DeepSeek's prompt_cache_hit_tokens as cached and keeps OpenRouter's billed cost", async () => {
    const withUsage = (usage: object) => ({ body: sse([chunk({ role: 'assistant', content: 'hi' }), chunk({}, 'stop', { usage })]) });
    const provider = await providerOn([
      withUsage({ prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36 }),
      withUsage({ prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, cost: 0.00042, completion_tokens_details: { reasoning_tokens: 4 } }),
    ]);
    expect((await provider.generate(request([PROMPT]), run())).usage).toEqual({ input: 100, output: 10, total: 110, cached: 64 });
    expect((await provider.generate(request([PROMPT]), run())).usage).toEqual({ input: 100, output: 10, total: 110, reasoning: 4, cost_usd: 0.00042 });
  });

  it("reads Moonshot's usage inside the choice (else the run would cost $0 and no budget would stop it)", async () => {
    const usage = { prompt_tokens: 120, completion_tokens: 8, total_tokens: 128, cached_tokens: 100 };
    const body = sse([chunk({ role: 'assistant', content: 'hi' }), { ...chunk({}, 'stop'), choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage }] }]);
    const provider = await providerOn([{ body }]);
    expect((await provider.generate(request([PROMPT]), run())).usage).toEqual({ input: 120, output: 8, total: 128, cached: 100 });
  });
});

describe('vLLM and llama.cpp server (their OpenAI-compatible servers; openai-node streaming fixtures)', () => {
  it('reassembles arguments split inside a \\u escape across deltas and inside a UTF-8 character across TCP writes', async () => {
    // Python servers escape non-ASCII (json.dumps ensure_ascii): "café" arrives as caf\u00e9, here
    // cut between two deltas; the raw emoji in the path is cut mid-UTF-8 by 7-byte writes.
    const stream = sse([
      chunk({ role: 'assistant', content: null, reasoning_content: 'Naming café 🚀.' }),
      chunk({ tool_calls: [{ index: 0, id: 'chatcmpl-tool-9f', type: 'function', function: { name: 'read_file', arguments: '{"absolute_path": "/w/caf\\u00' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'e9/🚀.md"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream, chunkBytes: 7 }, DONE_TEXT], { dialect: 'vllm' });
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(turn.functionCalls[0]!.args).toEqual({ absolute_path: '/w/café/🚀.md' });
    expect(assistant.reasoning_content).toBe('Naming café 🚀.');
  });

  it("reports vLLM's error object and llama.cpp's error in their own words", async () => {
    const vllm = JSON.stringify({ object: 'error', message: "This model's maximum context length is 8192 tokens.", type: 'BadRequestError', param: null, code: 400 });
    const provider = await providerOn([{ status: 400, body: vllm }]);
    const err = (await provider.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.message).toContain('maximum context length is 8192 tokens');
    await server!.close();
    const llama = JSON.stringify({ error: { code: 500, message: 'Failed to parse tool call arguments as JSON', type: 'server_error' } });
    const again = await providerOn([{ status: 500, body: llama }]);
    const err2 = (await again.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect([err2.kind, err2.message.includes('Failed to parse tool call arguments')]).toEqual(['server', true]);
  });
});

describe('OpenAI (platform.openai.com/docs: refusals, usage details)', () => {
  it('ends with the refusal text and no retry', async () => {
    const stream = sse([chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal: "I'm sorry, I can't help " }), chunk({ refusal: 'with that.' }), chunk({}, 'stop')]);
    const provider = withRetries(await providerOn([{ body: stream }, { body: stream }], { dialect: 'openai' }), { baseDelayMs: 1 });
    const err = (await provider.generate(request([PROMPT]), run()).catch((e: unknown) => e)) as ProviderError;
    expect(err.kind).toBe('bad_request');
    expect(err.message).toBe("the model refused: I'm sorry, I can't help with that.");
    expect(server!.requests).toHaveLength(1);
  });

  it('sends no reasoning fields back to OpenAI itself, and keeps unknown answer fields for the transcript', async () => {
    const stream = sse([
      chunk({ role: 'assistant', content: null, reasoning_content: 'x', annotations: [{ type: 'url_citation' }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' }, extra_content: { vendor: 1 } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const provider = await providerOn([{ body: stream }, DONE_TEXT], { dialect: 'openai' });
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(Object.keys(assistant).sort()).toEqual(['content', 'role', 'tool_calls']);
    expect(Object.keys(assistant.tool_calls[0]).sort()).toEqual(['function', 'id', 'type']);
    expect(turn.providerFields).toEqual({ annotations: [{ type: 'url_citation' }], tool_calls: [{ id: 'call_1', extra_content: { vendor: 1 } }] });
  });

  it('caps answers with max_completion_tokens for OpenAI itself and max_tokens elsewhere', async () => {
    const openai = await providerOn([DONE_TEXT], { dialect: 'openai', maxOutputTokens: 500 });
    await openai.generate(request([PROMPT]), run());
    expect([server!.requests[0]!.body.max_completion_tokens, server!.requests[0]!.body.max_tokens]).toEqual([500, undefined]);
    await server!.close();
    const other = await providerOn([DONE_TEXT], { maxOutputTokens: 500 });
    await other.generate(request([PROMPT]), run());
    expect([server!.requests[0]!.body.max_completion_tokens, server!.requests[0]!.body.max_tokens]).toEqual([undefined, 500]);
  });

  it('uses the non-streaming endpoint end to end when streaming is off', async () => {
    const completion = {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'Think.',
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' }, extra_content: { google: { thought_signature: 'sig' } } }],
          },
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12, completion_tokens_details: { reasoning_tokens: 3 } },
    };
    const provider = await providerOn([{ body: JSON.stringify(completion) }, { body: JSON.stringify({ ...completion, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }] }) }], { stream: false });
    const { turn, assistant } = await secondRequestAssistant(provider);
    expect(server!.requests.map((r) => r.body.stream ?? false)).toEqual([false, false]);
    expect(turn.usage.reasoning).toBe(3);
    expect(assistant).toMatchObject({ reasoning_content: 'Think.', tool_calls: [{ id: 'call_9', extra_content: { google: { thought_signature: 'sig' } } }] });
  });
});

describe('tool-call keying is the dialect\'s', () => {
  const fragments = [
    chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'ls', arguments: '{"path":' } }] }),
    chunk({ tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'ls', arguments: '"x"}' } }] }),
    chunk({}, 'tool_calls'),
  ];
  const assemble = (toolCallKey: 'id' | 'index') => {
    const assembler = new TurnAssembler({ ...DIALECTS.generic, toolCallKey });
    for (const f of fragments) assembler.push(f as never);
    return assembler.finish().functionCalls.map((c) => c.id);
  };

  it('by id, a named fragment with a new id is a new call; by index, the index alone decides', () => {
    expect(assemble('id')).toEqual(['a', 'b']);
    expect(assemble('index')).toEqual(['a']);
  });
});
