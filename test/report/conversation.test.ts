// The conversation rebuilt from events (run --continue): what a stopped, a corrected and a
// delegating run leave behind is still a conversation a provider accepts.
import { describe, expect, it } from 'vitest';
import { conversationFromEvents } from '../../src/report/conversation.js';
import type { RunEvent } from '../../src/types/events.js';

const start = (prompt: string, context?: string): RunEvent =>
  ({ type: 'run_start', run_id: 'r', started_at: '', transcript: '', recipe: null, recipe_name: 'x', provider: 'p', model: 'm', workspace: '/ws', prompt, tools: [], policy: { mode: 'deny', allow: [], deny: [] }, limits: {}, ...(context ? { context: { files: [{ path: 'AGENTS.md', bytes: 1, truncated: false }], text: context } } : {}) }) as RunEvent;
const response = (turn: number, text: string, calls: Array<{ name: string; args: Record<string, unknown>; id?: string }> = [], extra = {}): RunEvent =>
  ({ type: 'model_response', turn, text, function_calls: calls, usage: { input: 1, output: 1, total: 2 }, finish_reason: 'stop', finish_raw: null, duration_ms: 1, ...extra }) as RunEvent;
const result = (turn: number, callId: string, name: string, content: unknown, error: string | null = null, extra = {}): RunEvent =>
  ({ type: 'tool_result', turn, call_id: callId, name, llm_content: content, return_display: '', duration_ms: 1, error_type: error, saved_output: null, ...extra }) as RunEvent;

describe('conversationFromEvents', () => {
  it('rebuilds prompt (after the context), model turns, responses in call order, and answers sent back', () => {
    const contents = conversationFromEvents([
      start('Fix it', 'CONTEXT'),
      response(1, 'Looking.', [{ name: 'read_file', args: { absolute_path: '/ws/a' } }, { name: 'shell', args: { command: 'rm -rf /' } }]),
      result(1, 'call_1_1', 'shell', 'Error: denied', 'policy_denied'),
      result(1, 'call_1_0', 'read_file', [{ text: 'abc' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }]),
      response(2, 'Done.'),
      { type: 'answer_rejected', turn: 2, attempt: 1, reason: 'not JSON', feedback: 'Answer with JSON only.' } as RunEvent,
      response(3, '{}'),
    ]);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'CONTEXT' }, { text: 'Fix it' }] },
      {
        role: 'model',
        parts: [
          { text: 'Looking.' },
          { functionCall: { id: 'call_1_0', name: 'read_file', args: { absolute_path: '/ws/a' } } },
          { functionCall: { id: 'call_1_1', name: 'shell', args: { command: 'rm -rf /' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1_0', name: 'read_file', response: { output: 'abc\n[1 media part(s) the earlier run received are not kept in its transcript]' } } },
          { functionResponse: { id: 'call_1_1', name: 'shell', response: { error: 'Error: denied' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Done.' }] },
      { role: 'user', parts: [{ text: 'Answer with JSON only.' }] },
      { role: 'model', parts: [{ text: '{}' }] },
    ]);
  });

  it('answers the calls a stopped run never answered, and leaves sub-agents out', () => {
    const contents = conversationFromEvents([
      start('Go'),
      response(1, '', [{ name: 'task', args: {}, id: 't1' }, { name: 'ls', args: {}, id: 'l1' }]),
      response(1, 'sub text', [{ name: 'ls', args: {} }], { parent_call_id: 't1' }),
      result(1, 'call_1_0', 'ls', 'sub result', null, { parent_call_id: 't1' }),
      result(1, 't1', 'task', 'sub-agent summary'),
    ]);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Go' }] },
      { role: 'model', parts: [{ functionCall: { id: 't1', name: 'task', args: {} } }, { functionCall: { id: 'l1', name: 'ls', args: {} } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 't1', name: 'task', response: { output: 'sub-agent summary' } } },
          { functionResponse: { id: 'l1', name: 'ls', response: { error: 'not run: the run was stopped' } } },
        ],
      },
    ]);
  });
});
