import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/providers/dialects.js';
import { TurnAssembler } from '../../src/providers/openai-stream.js';

/** A whole answer holding `calls` (name, arguments), read as the OpenAI provider reads it. */
function answer(calls: Array<[string, string]>, offered: string[] = []) {
  const assembler = new TurnAssembler(DIALECTS.generic, undefined, (name) => offered.includes(name));
  assembler.push({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { role: 'assistant', tool_calls: calls.map(([name, args], index) => ({ index, id: `id${index}`, type: 'function', function: { name, arguments: args } })) }, finish_reason: 'tool_calls' }],
  } as never);
  return assembler.finish(true);
}

describe("TGI's pseudo-tools for 'no tool'", () => {
  it('a lone notify_error or no_tool call is the text of a final answer', () => {
    for (const [name, args] of [
      ['notify_error', '{"error":"Done: nothing to change."}'],
      ['no_tool', '{"content":"Done: nothing to change."}'],
    ] as Array<[string, string]>) {
      const turn = answer([[name, args]]);
      expect(turn.functionCalls).toEqual([]);
      expect(turn.text).toBe('Done: nothing to change.');
      expect(turn.finish.reason).not.toBe('tool_calls');
    }
  });

  it('stays a call when the run offers a tool of that name, beside other calls, or without its text', () => {
    expect(answer([['notify_error', '{"error":"x"}']], ['notify_error']).functionCalls.map((c) => c.name)).toEqual(['notify_error']);
    expect(answer([['ls', '{}'], ['no_tool', '{"content":"x"}']]).functionCalls.map((c) => c.name)).toEqual(['ls', 'no_tool']);
    expect(answer([['no_tool', '{"text":"x"}']]).functionCalls.map((c) => c.name)).toEqual(['no_tool']);
  });
});
