// Whole runs against replays of the Anthropic Messages API's and Gemini's own streams (and of the
// gateways that speak them), a quirk a case, as endpoint-replays.test.ts does for OpenAI-compatible
// servers: turn 1 a tool call, turn 2 the answer; asserted on what a user sees and on the second
// request. The first case runs the built CLI, the others its entry in process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, fixtureWorkspace, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../helpers/replay-server.js';

afterAll(removeTempDirs);

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function replay(provider: 'anthropic' | 'gemini', responses: ReplayResponse[], extra = '', { builtCli = false } = {}) {
  server = await startReplayServer(responses);
  const ws = await fixtureWorkspace('rename');
  const dir = tempDir();
  const file = path.join(dir, 'recipe.yaml');
  const model = provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gemini-2.5-flash';
  fs.writeFileSync(file, `version: 1\nconfirmation: { mode: auto-approve }\nprovider: ${provider}\nmodel: ${model}\nbase_url: ${server.url}\nprompt: What is in src?\nworkspace: ${ws}\nlimits: { model_retries: 2 }\n${extra}`);
  const out = path.join(dir, 'run');
  const env = provider === 'anthropic' ? { ANTHROPIC_API_KEY: 'k' } : { GEMINI_API_KEY: 'k' };
  const r = await (builtCli ? cli : cliInProcess)(['run', file, '--out', out], { env });
  return { r, requests: server.requests, ...readRun(out) };
}

function expectListedOnce(run: Awaited<ReturnType<typeof replay>>) {
  expect(run.r.code, run.r.stderr).toBe(0);
  expect(run.report.status).toBe('success');
  expect(run.report.tool_calls.by_tool).toMatchObject({ ls: { success: 1, error: 0, denied: 0 } });
  expect(run.report.tool_calls.total).toBe(1);
}

// ---------------------------------------------------------------- Anthropic Messages API

/** Events as the API frames them (`event:` and `data:` lines); `named: false` as gateways that send `data:` alone. */
const events = (list: object[], named = true) => list.map((e: any) => `${named ? `event: ${e.type}\n` : ''}data: ${JSON.stringify(e)}\n\n`).join('');
const messageStart = { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 400, output_tokens: 1 } } };
const ending = (reason: string) => [{ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 60 } }, { type: 'message_stop' }];
const lsCall = (index: number) => [
  { type: 'content_block_start', index, content_block: { type: 'tool_use', id: 'toolu_01A', name: 'ls', input: {} } },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{"path": "s' } },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: 'rc"}' } },
  { type: 'content_block_stop', index },
];
const answer = (named = true) =>
  events(
    [
      messageStart,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'src holds main.js and math.js.' } },
      { type: 'content_block_stop', index: 0 },
      ...ending('end_turn'),
    ],
    named,
  );

describe('Anthropic Messages API, two turns each', () => {
  it('thinking, a signature delta, redacted thinking, pings and a server tool\'s blocks all go back unchanged and in place', async () => {
    // docs.anthropic.com streaming ("with extended thinking": signature_delta; pings anywhere) and
    // server tools (web search: server_tool_use streamed as input_json_delta, then web_search_tool_result).
    const turn1 = events([
      messageStart,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Search, then list src.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9G' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"query": "rename' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: ' fixture"}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', title: 'A page', url: 'https://example.com/', encrypted_content: 'EqgfCioIARgBIiQ3', page_age: null }] } },
      { type: 'content_block_stop', index: 3 },
      { type: 'ping' },
      ...lsCall(4),
      ...ending('tool_use'),
    ]);
    const run = await replay('anthropic', [{ body: turn1, chunkBytes: 97 }, { body: answer() }], 'provider_options: { thinking_budget: 2048 }\n', { builtCli: true });
    expectListedOnce(run);
    const assistant = run.requests[1]!.body.messages[1];
    expect(assistant.content.map((b: any) => b.type)).toEqual(['thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'tool_use']);
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'Search, then list src.', signature: 'EqQBCgIYAhIM1gbcDa9G' });
    expect(assistant.content[1]).toEqual({ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' });
    expect(assistant.content[2]).toEqual({ type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'rename fixture' } });
    expect(assistant.content[3].content[0].encrypted_content).toBe('EqgfCioIARgBIiQ3');
    expect(run.requests[1]!.body.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01A' });
  });

  it('a gateway that sends `data:` lines without `event:` lines (the SDK drops such events) is read by their type', async () => {
    // earendil-works/pi#1983 and #4381: Anthropic-compatible proxies that omit the event field.
    const run = await replay('anthropic', [{ body: events([messageStart, ...lsCall(0), ...ending('tool_use')], false) }, { body: answer(false) }]);
    expectListedOnce(run);
    expect(run.requests).toHaveLength(2);
  });

  it('an overloaded_error event mid-stream and a 529 are retried; the run still succeeds', async () => {
    const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const cut = events([messageStart, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }]) + `event: error\ndata: ${JSON.stringify(overloaded)}\n\n`;
    const run = await replay('anthropic', [
      { body: cut },
      { body: events([messageStart, ...lsCall(0), ...ending('tool_use')]) },
      { status: 529, body: JSON.stringify(overloaded), headers: { 'retry-after': '0' } },
      { body: answer() },
    ]);
    expectListedOnce(run);
    expect(run.events.filter((e) => e.type === 'retry').map((e) => e.reason)).toEqual([expect.stringContaining('Overloaded'), expect.stringContaining('HTTP 529')]);
  });

  it("a model that writes fewer tokens than the default cap (Claude 3 Haiku's 4096): the cap its refusal names is taken for the run, not every request refused", async () => {
    const refusal = (asked: number, cap: number) => ({
      status: 400,
      body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `max_tokens: ${asked} > ${cap}, which is the maximum allowed number of output tokens for claude-3-haiku-20240307` } }),
    });
    const run = await replay('anthropic', [refusal(8192, 4096), { body: events([messageStart, ...lsCall(0), ...ending('tool_use')]) }, { body: answer() }], '', { builtCli: true });
    expectListedOnce(run);
    expect(run.requests.map((r) => r.body.max_tokens)).toEqual([8192, 4096, 4096]);
    // With thinking: the default is the budget plus 8192 (Opus 4.1 writes at most 32000).
    const thinking = await replay('anthropic', [refusal(38192, 32000), { body: answer() }], 'provider_options: { thinking_budget: 30000 }\n');
    expect(thinking.r.code, thinking.r.stderr).toBe(0);
    expect(thinking.requests.map((r) => r.body.max_tokens)).toEqual([38192, 32000]);
    // A cap the recipe set is the user's: refused in the API's words, not changed.
    const set = await replay('anthropic', [refusal(8192, 4096), { body: answer() }], 'provider_options: { max_output_tokens: 8192 }\n');
    expect(set.r.code).toBe(1);
    expect(set.report.error).toContain('max_tokens: 8192 > 4096');
    expect(set.requests).toHaveLength(1);
  });

  it('a 200 JSON error body to a stream request is the API\'s error in its words: invalid_request_error is not retried', async () => {
    const error = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.content.0: unexpected `tool_use_id`' } });
    const run = await replay('anthropic', [{ body: error }, { body: error }]);
    expect(run.r.code).toBe(1);
    expect(run.report.error).toContain('unexpected `tool_use_id`');
    expect(run.requests).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- Gemini API

const sse = (chunks: object[]) => chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('');
const usage = { promptTokenCount: 300, candidatesTokenCount: 20, thoughtsTokenCount: 12, totalTokenCount: 332 };
const geminiAnswer = { candidates: [{ content: { role: 'model', parts: [{ text: 'src holds main.js and math.js.' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: 'gemini-2.5-flash' };
const geminiCall = { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'ls', args: { path: 'src' } }, thoughtSignature: 'CiQBjz1rX9sig' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: 'gemini-2.5-flash' };

describe('Gemini API, two turns each', () => {
  it('a proxy that drops ?alt=sse gets the JSON array streamGenerateContent sends without it: read as the chunks it holds', async () => {
    const run = await replay('gemini', [{ body: JSON.stringify([geminiCall]) }, { body: JSON.stringify([geminiAnswer]) }]);
    expectListedOnce(run);
    const model = run.requests[1]!.body.contents[1];
    expect(model.parts[0]).toEqual({ functionCall: { name: 'ls', args: { path: 'src' } }, thoughtSignature: 'CiQBjz1rX9sig' });
  });

  it('a 200 JSON error body is the API\'s error in its words: INVALID_ARGUMENT is not retried', async () => {
    const error = JSON.stringify({ error: { code: 400, message: 'Function calling config is invalid.', status: 'INVALID_ARGUMENT' } });
    const run = await replay('gemini', [{ body: error }, { body: error }]);
    expect(run.r.code).toBe(1);
    expect(run.report.error).toContain('Function calling config is invalid.');
    expect(run.requests).toHaveLength(1);
  });

  it('the first candidate is read wherever a chunk lists it, a signed call, a usage-only last chunk', async () => {
    const turn1 = sse([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'I will read the file list.' }] }, index: 1 }, { content: { role: 'model', parts: [{ text: 'Listing src.', thought: true }] }, index: 0 }] },
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'ls', args: { path: 'src' } }, thoughtSignature: 'CiQBjz1rX9sig' }] }, index: 0 }] },
      { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }] },
      { usageMetadata: usage, modelVersion: 'gemini-2.5-flash', responseId: 'r1' },
    ]);
    const run = await replay('gemini', [{ body: turn1 }, { body: sse([geminiAnswer]) }]);
    expectListedOnce(run);
    const model = run.requests[1]!.body.contents[1];
    expect(model.parts).toEqual([{ text: 'Listing src.', thought: true }, { functionCall: { name: 'ls', args: { path: 'src' } }, thoughtSignature: 'CiQBjz1rX9sig' }]);
    expect(run.report.usage).toMatchObject({ input: 600, output: 64 });
  });
});
