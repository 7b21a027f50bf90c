// Tool-call ids as some servers send them: two calls of a turn under one id (DeepSeek, GLM), an id
// reused on a later turn (Kimi's Anthropic endpoint), or none. Each call keeps its own record and
// its own result, and what goes back to the server never repeats an id.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/create.js';
import type { ModelTurn } from '../../src/providers/provider.js';
import type { FunctionCall } from '../../src/types/content.js';
import { ZERO_USAGE } from '../../src/types/content.js';
import { ChangeLedger } from '../../src/runner/change-ledger.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { removeHarnessDirs, runInProcess } from './harness.js';

afterAll(removeHarnessDirs);
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const RECIPE = 'tools: [ls, edit]\nconfirmation: { mode: auto-approve }';

/** A model turn whose calls carry exactly the given ids. */
function callsTurn(calls: FunctionCall[]): () => Promise<ModelTurn> {
  return async () => ({
    parts: calls.map((call) => ({ functionCall: { ...call } })),
    text: '',
    functionCalls: calls.map((call) => ({ ...call })),
    usage: { ...ZERO_USAGE },
    finish: { reason: 'tool_calls', raw: 'tool_calls' },
  });
}

describe('tool-call ids', () => {
  it('two calls of a turn under one id: both are recorded, the failed edit among them', async () => {
    const run = await runInProcess({
      recipe: RECIPE,
      files: { 'a.txt': 'alpha\n' },
      turns: [
        callsTurn([
          { id: 'call_0', name: 'ls', args: { path: '.' } },
          { id: 'call_0', name: 'edit', args: { file_path: 'a.txt', old_string: 'no such text', new_string: 'x' } },
        ]),
        { text: 'Done.' },
      ],
    });
    // Both calls are in the report, and the "every edit failed" rule sees the failed edit.
    expect(run.report.tool_calls.total).toBe(2);
    expect(Object.keys(run.report.tool_calls.by_tool).sort()).toEqual(['edit', 'ls']);
    const ledger = new ChangeLedger();
    for (const event of run.events) ledger.observe(event);
    expect(ledger.editTally()).toMatchObject({ attempted: 1, failed: { edit_no_match: 1 } });
    const results = run.events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.type === 'tool_result' && e.name)).toEqual(['ls', 'edit']);
    const ids = results.map((e) => e.type === 'tool_result' && e.call_id);
    expect(new Set(ids).size).toBe(2);
    // The history the model gets back pairs each call with its own result.
    const history = run.requests[1]!;
    const callIds = history.flatMap((c) => c.parts.flatMap((p) => (p.functionCall ? [p.functionCall.id] : [])));
    const responseIds = history.flatMap((c) => c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.id] : [])));
    expect(callIds).toEqual(ids);
    expect(responseIds).toEqual(ids);
  });

  it('an id reused on a later turn, or none at all, becomes one of its own', async () => {
    const run = await runInProcess({
      recipe: RECIPE,
      files: { 'a.txt': 'alpha\n' },
      turns: [
        callsTurn([{ id: 'toolu_1', name: 'ls', args: { path: '.' } }]),
        callsTurn([{ id: 'toolu_1', name: 'ls', args: { path: '.' } }]),
        callsTurn([{ id: '', name: 'ls', args: { path: '.' } }, { name: 'ls', args: { path: '.' } }]),
        { text: 'Done.' },
      ],
    });
    expect(run.result.status).toBe('success');
    const ids = run.events.flatMap((e) => (e.type === 'tool_call' ? [e.call_id] : []));
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe('toolu_1');
  });

  it('over HTTP: the turn after sends each tool result under its own id', async () => {
    fake = await startFakeOpenAI([
      { toolCalls: [{ id: 'call_0', name: 'ls', arguments: { path: '.' } }, { id: 'call_0', name: 'edit', arguments: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }] },
      { text: 'Done.' },
    ]);
    const provider = await createProvider({ name: 'openai', model: 'fake-model', script: null, baseUrl: fake.url, env: { OPENAI_API_KEY: 'k' }, workspaceRoot: '/' });
    const run = await runInProcess({ recipe: RECIPE, files: { 'a.txt': 'alpha\n' }, turns: [], provider });
    expect(run.result.status).toBe('success');
    expect(run.read('a.txt')).toBe('beta\n');
    const messages = fake.requests[1]!.body.messages as Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>;
    const sentCalls = messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    const sentResults = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(new Set(sentCalls).size).toBe(2);
    expect(sentResults).toEqual(sentCalls);
  });
});
