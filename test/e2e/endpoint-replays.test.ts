// Whole runs against replays of what real servers stream, a quirk a case: the CLI's entry (the
// first case the built CLI) talks to 127.0.0.1, which answers turn 1 with the server's tool-call
// stream and turn 2 with its final answer. Each case asserts what a user sees: the tool ran, the
// run ended as it should, and the second request is one that server takes. The source of each
// shape is named beside it; Anthropic and Gemini replays are in endpoint-replays-native.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { sse, startReplayServer, type ReplayResponse, type ReplayServer } from '../helpers/replay-server.js';

afterAll(removeTempDirs);

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  id: 'chatcmpl-r',
  object: 'chat.completion.chunk',
  created: 1_740_000_000,
  model: 'm',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  ...extra,
});
const FINAL = { body: sse([chunk({ role: 'assistant', content: 'src holds main.js and math.js.' }), chunk({}, 'stop')]) };

/** A run of the recipe against the replay; the requests the server saw, the run's files. */
async function replay(responses: ReplayResponse[], extra = '', { builtCli = false } = {}) {
  server = await startReplayServer(responses);
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  fs.writeFileSync(file, `version: 1\nconfirmation: { mode: auto-approve }\nprovider: openai\nmodel: m\nbase_url: ${server.url}/v1\nprompt: What is in src?\nworkspace: ${ws}\nlimits: { model_retries: 2 }\n${extra}`);
  const out = path.join(dir, 'run');
  const r = await (builtCli ? cli : cliInProcess)(['run', file, '--out', out], { env: { OPENAI_API_KEY: 'k' } });
  return { r, requests: server.requests, ...readRun(out) };
}

/** The second request's assistant message and the tool messages after it. */
function turnTwo(requests: Array<{ body: any }>) {
  const messages = requests[1]!.body.messages as any[];
  const at = messages.findIndex((m) => m.role === 'assistant');
  return { assistant: messages[at], tools: messages.slice(at + 1).filter((m) => m.role === 'tool') };
}

/** The run ended well having listed src once, and the second request answers the call it made. */
function expectListedOnce(run: Awaited<ReturnType<typeof replay>>) {
  expect(run.r.code, run.r.stderr).toBe(0);
  expect(run.report.status).toBe('success');
  expect(run.report.tool_calls.by_tool).toMatchObject({ ls: { success: 1, error: 0, denied: 0 } });
  expect(run.report.tool_calls.total).toBe(1);
  const { assistant, tools } = turnTwo(run.requests);
  expect(assistant.tool_calls).toEqual([{ id: expect.any(String), type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' } }]);
  expect(tools.map((m) => m.tool_call_id)).toEqual([assistant.tool_calls[0].id]);
  expect(tools[0].content).toContain('math.js');
}

describe('OpenAI-compatible servers, two turns each', () => {
  it('legacy function_call streaming (functions API, finish_reason "function_call") runs the call and answers it in that form', async () => {
    // platform.openai.com legacy function calling: the name first with empty arguments, then argument pieces.
    const legacy = sse([
      chunk({ role: 'assistant', content: null, function_call: { name: 'ls', arguments: '' } }),
      chunk({ function_call: { arguments: '{"path"' } }),
      chunk({ function_call: { arguments: ':"src"}' } }),
      chunk({}, 'function_call'),
    ]);
    const run = await replay([{ body: legacy }, FINAL], '', { builtCli: true });
    expect(run.r.code, run.r.stderr).toBe(0);
    expect(run.report.tool_calls.by_tool).toMatchObject({ ls: { success: 1, error: 0, denied: 0 } });
    // The functions API's own form back: the assistant's function_call, then a `function` message.
    const messages = run.requests[1]!.body.messages as any[];
    expect(messages.slice(2).map((m) => [m.role, m.function_call ?? m.name])).toEqual([
      ['assistant', { name: 'ls', arguments: '{"path":"src"}' }],
      ['function', 'ls'],
    ]);
    expect(messages[2]).not.toHaveProperty('tool_calls');
    expect(messages[3].content).toContain('math.js');
  });

  it('Text Generation Inference before 3.1: tool_calls as one object, no name, the grammar\'s {"function": {"_name": ...}} ending in <|eot_id|>', async () => {
    // huggingface/text-generation-inference router/src/lib.rs (ToolCallDelta: `tool_calls: DeltaToolCall`,
    // name None, id "") and integration-tests/models/test_tools_llama.py (the arguments streamed).
    const pieces = ['{"', 'function', '": {"', '_name', '": "', 'ls', '", "', 'path', '": "', 'src', '"}}', '<|eot_id|>'];
    const tgi = sse([
      ...pieces.map((arguments_) => chunk({ role: 'assistant', tool_calls: { index: 0, id: '', type: 'function', function: { name: null, arguments: arguments_ } } })),
      chunk({ role: 'assistant', tool_calls: { index: 0, id: '', type: 'function', function: { name: null, arguments: '' } } }, 'eos_token'),
    ]);
    const final = sse([chunk({ role: 'assistant', content: 'src holds main.js and math.js.' }), chunk({ role: 'assistant', content: '' }, 'eos_token')]);
    const run = await replay([{ body: tgi }, { body: final }]);
    expectListedOnce(run);
    // eos_token is TGI's natural end: no "finish reason the runner does not know" warning.
    expect(run.events.filter((e) => e.type === 'warning' && /finish reason/.test(e.message))).toEqual([]);
  });

  it("Text Generation Inference 2.0-2.3: the model's answer as a call to TGI's own notify_error tool is the run's answer, not an unknown tool", async () => {
    // huggingface/text-generation-inference#2597: with tool_choice auto, TGI adds a `notify_error`
    // tool for "no tool"; before 2.4 the answer came back as that call, in the grammar's form.
    const pieces = ['{"', 'function', '": {"', '_name', '": "', 'notify_error', '", "', 'error', '": "', 'src holds main.js and math.js.', '"}}', '<|eot_id|>'];
    const answer = sse([
      ...pieces.map((arguments_) => chunk({ role: 'assistant', tool_calls: { index: 0, id: '', type: 'function', function: { name: null, arguments: arguments_ } } })),
      chunk({ role: 'assistant', tool_calls: { index: 0, id: '', type: 'function', function: { name: null, arguments: '' } } }, 'eos_token'),
    ]);
    const run = await replay([{ body: answer }], '', { builtCli: true });
    expect(run.r.code, run.r.stderr).toBe(0);
    expect(run.report.status).toBe('success');
    expect(run.report.tool_calls.total).toBe(0);
    expect(run.report.final_answer).toBe('src holds main.js and math.js.');
    expect(run.requests).toHaveLength(1);
  });

  it("a whole answer naming TGI's no_tool pseudo-tool is text", async () => {
    const completion = (name: string, args: object) => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: '0', type: 'function', function: { name, arguments: args } }] }, finish_reason: 'tool_calls' }] }),
    });
    const run = await replay([completion('no_tool', { content: 'Nothing to do.' })]);
    expect(run.r.code, run.r.stderr).toBe(0);
    expect(run.report.final_answer).toBe('Nothing to do.');
    expect(run.report.tool_calls.total).toBe(0);
  });

  it('LiteLLM proxy: the id on every fragment and the whole arguments repeated in a closing fragment', async () => {
    // BerriAI/litellm#20480: `id` on every chunk, and the call's arguments sent once more at the end.
    const litellm = sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'ls', arguments: '{"pa' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { arguments: 'th":"src"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const run = await replay([{ body: litellm }, FINAL]);
    expectListedOnce(run);
    expect(turnTwo(run.requests).assistant.tool_calls[0].id).toBe('call_abc');
  });

  it('Groq: usage in x_groq on the last chunk is counted, not estimated; its `reasoning` is not sent back', async () => {
    // console.groq.com/docs (streaming): the counts arrive as x_groq.usage; a whole call per chunk.
    const usage = { prompt_tokens: 310, completion_tokens: 24, total_tokens: 334 };
    const groq = sse([
      chunk({ role: 'assistant', content: null, reasoning: 'List src.' }, null, { x_groq: { id: 'req_01' } }),
      chunk({ tool_calls: [{ id: 'call_g1', type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' }, index: 0 }] }),
      chunk({}, 'tool_calls', { x_groq: { id: 'req_01', usage } }),
    ]);
    const final = sse([chunk({ role: 'assistant', content: 'src holds main.js and math.js.' }), chunk({}, 'stop', { x_groq: { id: 'req_02', usage } })]);
    const run = await replay([{ body: groq }, { body: final }]);
    expectListedOnce(run);
    expect(run.report.usage).toMatchObject({ input: 620, output: 48 });
    expect(run.report.usage.estimated).toBeUndefined();
    expect(turnTwo(run.requests).assistant).not.toHaveProperty('reasoning');
  });

  it('a stream request answered with one whole JSON completion (a server that ignores `stream`) runs as if streamed', async () => {
    const completion = (message: object, finish: string) => JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 } });
    const run = await replay([
      { body: completion({ role: 'assistant', content: null, tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' } }] }, 'tool_calls') },
      { body: completion({ role: 'assistant', content: 'src holds main.js and math.js.' }, 'stop') },
    ]);
    expectListedOnce(run);
    expect(run.report.usage).toMatchObject({ input: 100, output: 18 });
  });

  it('a 200 JSON error body to a stream request is the server\'s error in its words: a 4xx is not retried', async () => {
    const error = JSON.stringify({ error: { message: 'tools are not supported for model m', type: 'invalid_request_error', code: 400 } });
    const run = await replay([{ body: error }, { body: error }]);
    expect(run.r.code).toBe(1);
    expect(run.r.stderr).toContain('tools are not supported for model m');
    expect(run.report.error).toContain('tools are not supported for model m');
    expect(run.requests).toHaveLength(1);
  });

  it("LM Studio answers a path it does not serve with 200 {error: 'Unexpected endpoint or method'}: the run ends at once, saying to check the base URL, not after retries", async () => {
    // lmstudio-ai/lms issues (e.g. #88, #170): its server logs "Unexpected endpoint or method. (POST
    // /chat/completions). Returning 200 anyway" and answers that body, as with base_url lacking /v1.
    const wrongPath = { body: JSON.stringify({ error: 'Unexpected endpoint or method. (POST /chat/completions)' }) };
    for (const stream of [true, false]) {
      const run = await replay([wrongPath, wrongPath, wrongPath], `provider_options: { stream: ${stream} }\n`);
      expect(run.r.code).toBe(1);
      expect(run.report.status).toBe('failed');
      expect(run.requests).toHaveLength(1);
      for (const said of [run.r.stderr, run.report.error]) {
        expect(said).toContain('Unexpected endpoint or method. (POST /chat/completions)');
        // Which server said it, and what to change.
        expect(said).toContain(`${server!.url}/v1 answered`);
        expect(said).toMatch(/check the base URL, usually ending in \/v1/);
        // A whole body is no stream: nothing was cut off in the middle of one.
        expect(said).not.toContain('mid-stream');
      }
      await server?.close();
      server = undefined;
    }
  });

  it('llama.cpp without --jinja answers 500: the run ends at once, saying how to start the server, not after five retries', async () => {
    // ggml-org/llama.cpp server utils (oaicompat_chat_params_parse): a runtime_error, sent as 500 server_error.
    const jinja = JSON.stringify({ error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } });
    const run = await replay([{ status: 500, body: jinja }, { status: 500, body: jinja }, { status: 500, body: jinja }]);
    expect(run.r.code).toBe(1);
    expect(run.r.stderr).toContain('tools param requires --jinja flag (start llama-server with --jinja for tool calls)');
    expect(run.requests).toHaveLength(1);
  });

  it('SSE framing: comments, `data:` without a space, CRLF line ends, no [DONE], and calls keyed by index alone', async () => {
    // llama.cpp before PR 13800 repeated the name on every fragment and put no id on the call.
    const frame = (e: object) => `data:${JSON.stringify(e)}\r\n\r\n`;
    const body =
      ': keep-alive\r\n\r\n' +
      [
        chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":' } }] }),
        chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'ls', arguments: '"src"}' } }] }),
        chunk({}, 'tool_calls'),
      ]
        .map(frame)
        .join(': ping\r\n\r\n');
    const run = await replay([{ body, headers: { 'content-type': 'text/event-stream' } }, FINAL]);
    expectListedOnce(run);
  });

  it("SGLang: call ids restart at '0' every turn, and each call still gets an id of its own", async () => {
    // InternLM/lmdeploy#3412 quotes SGLang's deltas: id '0', '1'... per answer, repeated on each fragment.
    const call = (path_: string) =>
      sse([
        chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: '0', type: 'function', function: { name: 'ls', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, id: '0', type: 'function', function: { arguments: `{"path":"${path_}"}` } }] }),
        chunk({}, 'tool_calls', { usage: null }),
      ]);
    const run = await replay([{ body: call('src') }, { body: call('.') }, FINAL]);
    expect(run.r.code, run.r.stderr).toBe(0);
    expect(run.report.tool_calls.by_tool).toMatchObject({ ls: { success: 2, error: 0, denied: 0 } });
    const messages = run.requests[2]!.body.messages as any[];
    const ids = messages.filter((m) => m.role === 'assistant').map((m) => m.tool_calls[0].id);
    expect(new Set(ids).size).toBe(2);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(ids);
  });
});

describe('reasoning sent back where the server reads it', () => {
  it('vLLM (0.17 and later) streams thinking as `reasoning`: the vllm dialect sends it back on the tool-call turn', async () => {
    // vllm-project/vllm#27752 and #33402: `reasoning_content` renamed `reasoning`, the old name's output removed.
    const vllm = sse([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning: 'The user wants src. ' }),
      chunk({ reasoning: 'I will list it.' }),
      chunk({ tool_calls: [{ id: 'chatcmpl-tool-1f', type: 'function', index: 0, function: { name: 'ls', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"src"}' } }] }),
      chunk({ content: '' }, 'tool_calls'),
    ]);
    const run = await replay([{ body: vllm }, FINAL], 'provider_options: { dialect: vllm }\n');
    expectListedOnce(run);
    expect(turnTwo(run.requests).assistant.reasoning).toBe('The user wants src. I will list it.');
  });

  it('Ollama streams thinking as `reasoning` and reads it back into the model\'s thinking: the ollama dialect sends it', async () => {
    // ollama openai/openai.go: Message.Reasoning (`reasoning`) out, and into api.Message.Thinking on the way in.
    const ollama = sse([
      chunk({ role: 'assistant', content: '', reasoning: 'Listing src.' }),
      chunk({ role: 'assistant', content: '', tool_calls: [{ id: 'call_o1', index: 0, type: 'function', function: { name: 'ls', arguments: '{"path":"src"}' } }] }),
      chunk({ role: 'assistant', content: '' }, 'tool_calls'),
    ]);
    const run = await replay([{ body: ollama }, FINAL], 'provider_options: { dialect: ollama }\n');
    expectListedOnce(run);
    expect(turnTwo(run.requests).assistant.reasoning).toBe('Listing src.');
  });
});
