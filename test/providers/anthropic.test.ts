// The anthropic provider driving the real @anthropic-ai/sdk against a fake Messages API on
// 127.0.0.1 that speaks the documented event sequence (test/helpers/fake-anthropic.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider, type AnthropicProviderOptions } from '../../src/providers/anthropic.js';
import { ProviderError, type ModelProvider, type ModelRequest } from '../../src/providers/provider.js';
import { withRetries } from '../../src/providers/retry.js';
import type { Content, FunctionDeclaration } from '../../src/types/content.js';
import { startFakeAnthropic, type AnthropicStep, type FakeAnthropic } from '../helpers/fake-anthropic.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const TOOLS: FunctionDeclaration[] = [
  { name: 'read_file', description: 'Read a file', parameters: { $schema: 'x', type: 'object', properties: { absolute_path: { type: 'string' } } } },
  { name: 'ls', description: 'List', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];
const run = () => ({ signal: new AbortController().signal });
const PROMPT: Content = { role: 'user', parts: [{ text: 'Look at the repo' }] };
const request = (contents: Content[]): ModelRequest => ({ systemInstruction: 'You are careful.', contents, tools: TOOLS });

async function providerFor(steps: AnthropicStep[], extra: Partial<AnthropicProviderOptions> = {}): Promise<ModelProvider> {
  fake = await startFakeAnthropic(steps);
  return createAnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: fake.url, env: { ANTHROPIC_API_KEY: 'sk-ant-test' }, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('anthropic provider: streaming', () => {
  it('says when its request is written, before any of the answer, streaming or not', async () => {
    for (const stream of [true, false]) {
      const provider = await providerFor([{ text: 'Done.' }], { options: { stream } });
      const order: string[] = [];
      await provider.generate(request([PROMPT]), { ...run(), onSent: () => order.push('sent'), onText: () => order.push('text') });
      expect(order[0], `stream: ${stream}`).toBe('sent');
      expect(order.filter((step) => step === 'sent'), `stream: ${stream}`).toHaveLength(1);
      await fake!.close();
    }
  });

  it('assembles parallel tool calls from input_json_delta and answers them in one user message', async () => {
    const provider = await providerFor([
      { text: 'Reading both.', toolCalls: [{ id: 'toolu_01', name: 'read_file', input: { absolute_path: '/w/a.ts' } }, { id: 'toolu_02', name: 'ls', input: { path: '/w' } }] },
      { text: 'Done.' },
    ]);
    const streamed: string[] = [];
    const turn = await provider.generate(request([PROMPT]), { ...run(), onText: (t) => streamed.push(t) });
    expect(streamed.join('')).toBe('Reading both.');
    expect(turn.functionCalls).toEqual([
      { id: 'toolu_01', name: 'read_file', args: { absolute_path: '/w/a.ts' } },
      { id: 'toolu_02', name: 'ls', args: { path: '/w' } },
    ]);
    expect(turn.finish).toEqual({ reason: 'tool_calls', raw: 'tool_use' });
    const answers: Content = {
      role: 'user',
      parts: [
        { functionResponse: { id: 'toolu_01', name: 'read_file', response: { output: 'export {}' } } },
        { functionResponse: { id: 'toolu_02', name: 'ls', response: { output: 'a.ts' } } },
      ],
    };
    await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, answers]), run());
    const sent = fake!.requests[1]!.body;
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { absolute_path: '/w/a.ts' } },
        { type: 'tool_use', id: 'toolu_02', name: 'ls', input: { path: '/w' } },
      ],
    });
    expect(sent.messages[2].content.map((b: any) => [b.type, b.tool_use_id])).toEqual([
      ['tool_result', 'toolu_01'],
      ['tool_result', 'toolu_02'],
    ]);
    // Text results go in the API's short form, a plain string.
    expect(sent.messages[2].content.map((b: any) => b.content)).toEqual(['export {}', 'a.ts']);
    expect(sent.max_tokens).toBe(8192);
    expect(sent.tools[0].input_schema).not.toHaveProperty('$schema');
  });

  it('leaves out a blank text block the model wrote before its call, which the API refuses on the next turn', async () => {
    // Claude models do answer "\n\n" then a tool_use; sent back as it came, the API says "text
    // content blocks must contain non-whitespace text" and the run ends on turn 2.
    const provider = await providerFor([{ text: '\n\n', toolCalls: [{ id: 'toolu_01', name: 'ls', input: { path: '/w' } }] }, { text: 'Done.' }]);
    const turn = await provider.generate(request([PROMPT]), run());
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: 'toolu_01', name: 'ls', response: { output: 'a.ts' } } }] };
    const next = await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, answer]), run());
    expect(next.text).toBe('Done.');
    expect(fake!.requests[1]!.body.messages[1].content).toEqual([{ type: 'tool_use', id: 'toolu_01', name: 'ls', input: { path: '/w' } }]);
  });

  it('sends signed thinking blocks back unchanged and in place, with extended thinking requested', async () => {
    const provider = await providerFor(
      [
        { thinking: { text: 'I should list first.', signature: 'EqQBCkgIARABGAIiQL+sig' }, redactedThinking: 'EmwKAhgBEgy3va3pzix/LafPsn4a', toolCalls: [{ id: 'toolu_9', name: 'ls', input: { path: '.' } }] },
        { text: 'Listed.' },
      ],
      { options: { thinkingBudget: 2048 } },
    );
    const turn = await provider.generate(request([PROMPT]), run());
    const answers: Content = { role: 'user', parts: [{ functionResponse: { id: 'toolu_9', name: 'ls', response: { output: 'a' } } }] };
    await provider.generate(request([PROMPT, { role: 'model', parts: turn.parts }, answers]), run());
    const first = fake!.requests[0]!.body;
    expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(first.max_tokens).toBeGreaterThan(2048);
    expect(fake!.requests[1]!.body.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'I should list first.', signature: 'EqQBCkgIARABGAIiQL+sig' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'tool_use', id: 'toolu_9', name: 'ls', input: { path: '.' } },
    ]);
  });

  it('puts cache breakpoints on the last tool, the system prompt and the last two user messages, and counts cache tokens', async () => {
    const provider = await providerFor([{ text: 'ok', usage: { input_tokens: 50, output_tokens: 9, cache_creation_input_tokens: 1200, cache_read_input_tokens: 3000 } }]);
    const history: Content[] = [
      PROMPT,
      { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'ls', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_1', name: 'ls', response: { output: 'a' } } }] },
      { role: 'model', parts: [{ functionCall: { id: 'toolu_2', name: 'ls', args: { path: 'a' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_2', name: 'ls', response: { output: 'b' } } }] },
    ];
    const turn = await provider.generate(request(history), run());
    const body = fake!.requests[0]!.body;
    expect(body.system).toEqual([{ type: 'text', text: 'You are careful.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools.map((t: any) => t.cache_control ?? null)).toEqual([null, { type: 'ephemeral' }]);
    const marks = body.messages.map((m: any) => (Array.isArray(m.content) ? m.content.some((b: any) => b.cache_control) : false));
    expect(marks).toEqual([false, false, true, false, true]);
    expect(turn.usage).toEqual({ input: 4250, output: 9, total: 4259, cached: 3000, cache_write: 1200 });
  });

  it('puts the second message breakpoint before the entry the runner is about to rewrite', async () => {
    const provider = await providerFor([{ text: 'ok' }]);
    const call = (id: string) => ({ role: 'model' as const, parts: [{ functionCall: { id, name: 'ls', args: {} } }] });
    const answer = (id: string) => ({ role: 'user' as const, parts: [{ functionResponse: { id, name: 'ls', response: { output: id } } }] });
    const history: Content[] = [PROMPT, call('t1'), answer('t1'), call('t2'), answer('t2'), call('t3'), answer('t3'), call('t4'), answer('t4')];
    // Entry 4 (the answer to t2) will be replaced: the stable prefix ends before it, at t1's answer.
    await provider.generate({ ...request(history), stablePrefix: 4 }, run());
    const marks = fake!.requests[0]!.body.messages.map((m: any) => m.content.some((b: any) => b.cache_control));
    expect(marks).toEqual([false, false, true, false, false, false, false, false, true]);
  });

  it('keeps roles alternating when a history entry translates to nothing', async () => {
    const provider = await providerFor([{ text: 'ok' }]);
    const history: Content[] = [PROMPT, { role: 'model', parts: [{ text: 'unsigned thought', thought: true }] }, { role: 'user', parts: [{ text: 'Go on.' }] }];
    await provider.generate(request(history), run());
    const messages = fake!.requests[0]!.body.messages;
    expect(messages.map((m: any) => m.role)).toEqual(['user']);
    expect(messages[0].content.map((b: any) => b.text)).toEqual(['Look at the repo', 'Go on.']);
  });

  it('marks a failed tool call (a denial) with is_error and its message', async () => {
    const provider = await providerFor([{ text: 'ok' }]);
    const history: Content[] = [
      PROMPT,
      { role: 'model', parts: [{ functionCall: { id: 'toolu_7', name: 'ls', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_7', name: 'ls', response: { error: 'denied by policy: ls is not allowed' } } }] },
    ];
    await provider.generate(request(history), run());
    const result = fake!.requests[0]!.body.messages[2].content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_7', is_error: true, content: 'denied by policy: ls is not allowed' });
  });

  it('sends an image a tool returned inside that tool result', async () => {
    const provider = await providerFor([{ text: 'A cat.' }]);
    const history: Content[] = [
      PROMPT,
      { role: 'model', parts: [{ functionCall: { id: 'toolu_5', name: 'read_file', args: { absolute_path: '/w/cat.png' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_5', name: 'read_file', response: { output: 'Read image' } } }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    ];
    await provider.generate(request(history), run());
    const result = fake!.requests[0]!.body.messages[2].content[0];
    expect(result.type).toBe('tool_result');
    expect(result.content.map((b: any) => b.type)).toEqual(['text', 'image']);
    expect(result.content[1].source).toEqual({ type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' });
  });

  it('keeps each image inside its own tool result when an earlier one became a note (a stale read, a trim)', async () => {
    const provider = await providerFor([{ text: 'Two images.' }]);
    const history: Content[] = [
      PROMPT,
      { role: 'model', parts: [{ functionCall: { id: 'toolu_a', name: 'read_file', args: { absolute_path: '/w/a.png' } } }, { functionCall: { id: 'toolu_b', name: 'read_file', args: { absolute_path: '/w/b.png' } } }, { functionCall: { id: 'toolu_g', name: 'grep', args: { pattern: 'x' } } }] },
      {
        role: 'user',
        parts: [
          // a.png changed since: its response and its image are notes now (stale-reads.ts).
          { functionResponse: { id: 'toolu_a', name: 'read_file', response: { output: '[file changed since]' } } },
          { text: '[a.png omitted]' },
          { functionResponse: { id: 'toolu_b', name: 'read_file', response: { output: 'Read image b.png' } } },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { functionResponse: { id: 'toolu_g', name: 'grep', response: { output: 'No matches' } } },
        ],
      },
    ];
    await provider.generate(request(history), run());
    const content = fake!.requests[0]!.body.messages[2].content;
    expect(content.map((b: any) => [b.type, b.tool_use_id])).toEqual([['tool_result', 'toolu_a'], ['tool_result', 'toolu_b'], ['tool_result', 'toolu_g']]);
    expect(content[0].content).toEqual([{ type: 'text', text: '[file changed since]' }, { type: 'text', text: '[a.png omitted]' }]);
    expect(content[1].content.map((b: any) => b.type)).toEqual(['text', 'image']);
    expect(content[2].content).toBe('No matches');
  });

  it('maps stop reasons: max_tokens is a cut-off answer, refusal ends with its text and no retry', async () => {
    const cutOff = await providerFor([{ text: 'Half an ans', stopReason: 'max_tokens' }]);
    expect((await cutOff.generate(request([PROMPT]), run())).finish).toEqual({ reason: 'max_tokens', raw: 'max_tokens' });
    await fake!.close();
    const refusing = withRetries(await providerFor([{ text: 'I cannot help with that.', stopReason: 'refusal' }, { text: 'x' }]), { baseDelayMs: 1 });
    const err = await failure(refusing.generate(request([PROMPT]), run()));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('I cannot help with that.');
    expect(fake!.requests).toHaveLength(1);
  });

  it('an answer max_tokens ended while the model was still thinking says so, and names both budgets', async () => {
    const provider = await providerFor([{ thinking: { text: 'First, every file...', signature: 'sig' }, stopReason: 'max_tokens' }]);
    const err = await failure(provider.generate(request([PROMPT]), run()));
    expect([err.kind, err.message]).toEqual([
      'empty',
      "the model's output-token limit ended its answer before any text or tool call (finish reason max_tokens), all of it spent thinking: raise provider_options.max_output_tokens, or lower provider_options.thinking_budget",
    ]);
  });

  it("an answer the full context window ended before a word (stop_reason model_context_window_exceeded) is a refusal for length, which compaction answers, not an empty answer asked again", async () => {
    // platform.claude.com handling-stop-reasons: "The response filled the model's context window."
    for (const stream of [true, false]) {
      const provider = withRetries(await providerFor([{ stopReason: 'model_context_window_exceeded', usage: { input_tokens: 199_990, output_tokens: 0 } }, { text: 'x' }], { options: { stream } }), { baseDelayMs: 1 });
      const err = await failure(provider.generate(request([PROMPT]), run()));
      expect([err.kind, fake!.requests.length], `stream: ${stream}`).toEqual(['context_length', 1]);
      expect(err.message).toContain('model_context_window_exceeded');
      await fake!.close();
    }
    const cutOff = await providerFor([{ text: 'Half an ans', stopReason: 'model_context_window_exceeded' }]);
    expect((await cutOff.generate(request([PROMPT]), run())).finish).toEqual({ reason: 'max_tokens', raw: 'model_context_window_exceeded' });
  });

  // platform.claude.com handling-stop-reasons: "pause_turn ... You may provide the response back
  // as-is in a subsequent request to let Claude continue its turn." Before: the words written before
  // the pause were the run's final answer, and a pause before any (server blocks alone) an empty one.
  it('continues a turn the API paused (pause_turn), sending the paused content back as it is, and gives one turn of both', async () => {
    const search = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'node 20 release date' } };
    const found = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', url: 'https://nodejs.org', title: 'Node.js', encrypted_content: 'enc' }] };
    for (const stream of [true, false]) {
      const provider = await providerFor(
        [
          { text: 'Let me look that up. ', serverBlocks: [search, found], stopReason: 'pause_turn', usage: { input_tokens: 100, output_tokens: 20 } },
          { serverBlocks: [search, found], stopReason: 'pause_turn', usage: { input_tokens: 300, output_tokens: 5 } },
          { text: 'Node 20 came out in April 2023.', usage: { input_tokens: 400, output_tokens: 10 } },
        ],
        { options: { stream } },
      );
      const turn = await provider.generate(request([PROMPT]), run());
      expect([turn.text, turn.finish], `stream: ${stream}`).toEqual(['Let me look that up. Node 20 came out in April 2023.', { reason: 'stop', raw: 'end_turn' }]);
      expect([turn.usage.input, turn.usage.output]).toEqual([800, 35]);
      const sentBack = fake!.requests.slice(1).map((r) => r.body.messages.at(-1));
      expect(sentBack[0]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Let me look that up. ' }, search, found] });
      expect(sentBack[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Let me look that up. ' }, search, found, search, found] });
      expect(fake!.remaining()).toBe(0);
      await fake!.close();
    }
  });

  it('gives up on a turn paused again and again before a word, as an empty answer that counts what was billed', async () => {
    const block = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'q' } };
    const provider = await providerFor(Array.from({ length: 6 }, () => ({ serverBlocks: [block], stopReason: 'pause_turn', usage: { input_tokens: 10, output_tokens: 1 } })));
    const err = await failure(provider.generate(request([PROMPT]), run()));
    expect([err.kind, err.message, err.spent?.total]).toEqual(['empty', 'the API paused the turn (stop_reason: pause_turn) 6 times before the model wrote anything', 66]);
    expect(fake!.remaining()).toBe(0);
  });

  it('sends a turn paused after its words without their trailing white space, which the API refuses in a last assistant message', async () => {
    const provider = await providerFor([{ text: 'Searching now.\n\n', stopReason: 'pause_turn' }, { text: 'Found it.' }]);
    const turn = await provider.generate(request([PROMPT]), run());
    expect(turn.text).toBe('Searching now.\n\nFound it.');
    expect(fake!.requests[1]!.body.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Searching now.' }] });
  });

  it('retries an overloaded error event inside the stream, but not an invalid request one', async () => {
    const provider = withRetries(await providerFor([{ streamError: { type: 'overloaded_error', message: 'Overloaded' }, before: { text: 'x' } }, { text: 'Fine now.' }]), { baseDelayMs: 1 });
    expect((await provider.generate(request([PROMPT]), run())).text).toBe('Fine now.');
    await fake!.close();
    const bad = withRetries(await providerFor([{ streamError: { type: 'invalid_request_error', message: 'messages.1: tool_use ids must be unique' } }, { text: 'x' }]), { baseDelayMs: 1 });
    const err = await failure(bad.generate(request([PROMPT]), run()));
    expect([err.kind, fake!.requests.length]).toEqual(['bad_request', 1]);
    expect(err.message).toContain('tool_use ids must be unique');
  });

  it('says what the API said on an HTTP error, and names the key on a 401', async () => {
    const provider = await providerFor([{ status: 401, type: 'authentication_error', message: 'invalid x-api-key' }]);
    const err = await failure(provider.generate(request([PROMPT]), run()));
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('invalid x-api-key');
    expect(err.message).toContain('ANTHROPIC_API_KEY');
  });

  it('treats a stream without message_stop as cut off, and a quiet one as stalled', async () => {
    const cut = await providerFor([{ cut: { text: 'partial', toolCalls: [{ name: 'ls', input: { path: '.' } }] }, keep: 6 }]);
    expect((await failure(cut.generate(request([PROMPT]), run()))).kind).toBe('cut_off');
    await fake!.close();
    const quiet = await providerFor([{ hang: true }], { idleTimeoutMs: 200 });
    expect((await failure(quiet.generate(request([PROMPT]), run()))).kind).toBe('stalled');
  });

  it('uses the non-streaming endpoint when streaming is off', async () => {
    const provider = await providerFor([{ thinking: { text: 't', signature: 's' }, toolCalls: [{ id: 'toolu_3', name: 'ls', input: { path: 'x' } }] }], { options: { stream: false } });
    const turn = await provider.generate(request([PROMPT]), run());
    expect(fake!.requests[0]!.body.stream).toBe(false);
    expect(turn.functionCalls).toEqual([{ id: 'toolu_3', name: 'ls', args: { path: 'x' } }]);
    expect(turn.parts[0]).toMatchObject({ thought: true, echo: { anthropic_block: { type: 'thinking', signature: 's' } } });
  });

  // Before: "the server's answer is neither an event stream nor JSON: event: message_start …".
  it('with streaming off, reads a gateway that streams anyway as the stream it is, its error event as the error it names', async () => {
    const provider = withRetries(
      await providerFor(
        [
          { text: 'Listing.', toolCalls: [{ id: 'toolu_4', name: 'ls', input: { path: 'src' } }], alwaysStreams: true },
          { streamError: { type: 'invalid_request_error', message: 'messages.1: tool_use ids must be unique' } },
        ],
        { options: { stream: false } },
      ),
      { baseDelayMs: 1 },
    );
    const turn = await provider.generate(request([PROMPT]), run());
    expect(fake!.requests[0]!.body.stream).toBe(false);
    expect([turn.text, turn.functionCalls]).toEqual(['Listing.', [{ id: 'toolu_4', name: 'ls', args: { path: 'src' } }]]);
    const err = await failure(provider.generate(request([PROMPT]), run()));
    expect([err.kind, err.message]).toEqual(['bad_request', expect.stringContaining('tool_use ids must be unique')]);
  });

  it('refuses to start without ANTHROPIC_API_KEY, naming it', async () => {
    const err = await failure(createAnthropicProvider({ model: 'claude', baseUrl: null, env: {} }));
    expect([err.kind, err.message.includes('ANTHROPIC_API_KEY')]).toEqual(['auth', true]);
  });
});

describe('anthropic provider: endpoint', () => {
  it('accepts ANTHROPIC_BASE_URL written with /v1, as OpenAI-style settings have it', async () => {
    fake = await startFakeAnthropic([{ text: 'hi' }]);
    const provider = await createAnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: null, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: `${fake.url}/v1/` } });
    expect((await provider.generate(request([PROMPT]), run())).text).toBe('hi');
    expect(fake.requests[0]!.path).toBe('/v1/messages');
  });

  // Before: the request went to /v1/messages/v1/messages, which the API answers 404.
  it('takes the endpoint URL itself (…/v1/messages, as curl examples show it) as the base URL it ends in', async () => {
    fake = await startFakeAnthropic([{ text: 'hi' }]);
    const provider = await createAnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: `${fake.url}/v1/messages`, env: { ANTHROPIC_API_KEY: 'k' } });
    expect((await provider.generate(request([PROMPT]), run())).text).toBe('hi');
    expect(fake.requests[0]!.path).toBe('/v1/messages');
  });
});

describe('anthropic provider: a stream as the API docs print it', () => {
  // docs.anthropic.com/en/docs/build-with-claude/streaming, "Streaming request with tool use" and
  // "with extended thinking": the event text as shown there (spaces after the colons, a ping,
  // an empty first partial_json), replayed byte for byte, cut every 11 bytes.
  const DOCS_STREAM = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-sonnet-4-5","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2},"content":[],"stop_reason":null}}',
    'event: content_block_start\ndata: {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}',
    'event: ping\ndata: {"type": "ping"}',
    'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "I need the weather in SF, "}}',
    'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "so I\'ll call the tool."}}',
    'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."}}',
    'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 0}',
    'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"ls","input":{}}}',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"path\\": \\"San Fr"}}',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ancisco\\u00e9\\"}"}}',
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":1}',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}',
    'event: message_stop\ndata: {"type":"message_stop"}',
  ].join('\n\n') + '\n\n';

  it('is assembled into one signed thought and one call', async () => {
    const { startReplayServer } = await import('../helpers/replay-server.js');
    const replay = await startReplayServer([{ body: DOCS_STREAM, chunkBytes: 11 }]);
    try {
      const provider = await createAnthropicProvider({ model: 'claude-sonnet-4-5', baseUrl: replay.url, env: { ANTHROPIC_API_KEY: 'k' } });
      const turn = await provider.generate(request([PROMPT]), run());
      expect(turn.functionCalls).toEqual([{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'ls', args: { path: 'San Franciscoé' } }]);
      expect(turn.parts[0]).toMatchObject({
        thought: true,
        text: "I need the weather in SF, so I'll call the tool.",
        echo: { anthropic_block: { type: 'thinking', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...' } },
      });
      expect(turn.usage).toEqual({ input: 472, output: 89, total: 561, cached: 0 });
      expect(turn.finish).toEqual({ reason: 'tool_calls', raw: 'tool_use' });
    } finally {
      await replay.close();
    }
  });
});
