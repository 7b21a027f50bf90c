// The model that answered, as each provider's server names it (a dated version of the one asked
// for, or a router's pick): telemetry exports it as gen_ai.response.model (issue 15).
import { describe, expect, it } from 'vitest';
import { MessageAssembler } from '../../src/providers/anthropic-stream.js';
import { TurnAccumulator } from '../../src/providers/gemini-mapping.js';
import { TurnAssembler } from '../../src/providers/openai-stream.js';
import { dialectFor } from '../../src/providers/dialects.js';

describe('the model that answered', () => {
  it('OpenAI-compatible: the chunks\' model', () => {
    const a = new TurnAssembler(dialectFor('https://api.openai.com/v1', null));
    a.push({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] } as never);
    expect(a.finish().model).toBe('gpt-4o-mini-2024-07-18');
  });

  it('Anthropic: message_start\'s model', () => {
    const a = new MessageAssembler();
    a.push({ type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 0 } } } as never);
    a.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as never);
    a.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } } as never);
    a.push({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } } as never);
    a.push({ type: 'message_stop' } as never);
    expect(a.finish().model).toBe('claude-sonnet-4-5-20250929');
  });

  it('Gemini: the response\'s modelVersion; none said, none given', () => {
    const a = new TurnAccumulator();
    a.add({ modelVersion: 'gemini-2.5-flash-001', candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP' as never }] });
    expect(a.finish(1).model).toBe('gemini-2.5-flash-001');
    const b = new TurnAccumulator();
    b.add({ candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP' as never }] });
    expect(b.finish(1).model).toBeUndefined();
  });
});
