// The pure mapping between the runner's Content[] and OpenAI chat messages, and chunk assembly.
import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { retryAfterMs } from '../../src/providers/http-errors.js';
import {
  cleanSchema,
  parseToolCall,
  toOpenAIMessages,
  toOpenAITools,
} from '../../src/providers/openai-mapping.js';
import { DIALECTS } from '../../src/providers/dialects.js';
import { TurnAssembler as DialectAssembler } from '../../src/providers/openai-stream.js';

class TurnAssembler extends DialectAssembler {
  constructor(onText?: (delta: string) => void) {
    super(DIALECTS.generic, onText);
  }
}
import { ProviderError } from '../../src/providers/provider.js';
import type { Content, FunctionDeclaration } from '../../src/types/content.js';

const PNG = 'iVBORw0KGgo=';

describe('runner contents → OpenAI messages', () => {
  it('sends images returned with tool results as a user message right after the tool messages', () => {
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'Screenshot the page' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'shot', args: {} } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'shot', response: { output: 'captured' } } }, { inlineData: { mimeType: 'image/png', data: PNG } }],
      },
    ];
    const messages = toOpenAIMessages('', contents);
    expect(messages).toHaveLength(4); // no system message for an empty instruction
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'captured' });
    expect(messages[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Attachments returned by the tool calls above:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
  });

  it('answers calls that have no ids (history from another provider) by name, then in order', () => {
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'ls', args: {} } }, { functionCall: { name: 'glob', args: { pattern: '*' } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'glob', response: { output: 'a.ts' } } },
          { functionResponse: { name: 'ls', response: { error: 'denied by policy' } } },
        ],
      },
    ];
    const messages = toOpenAIMessages('sys', contents);
    const assistant = messages[2] as { tool_calls: { id: string; function: { name: string } }[] };
    const [lsId, globId] = assistant.tool_calls.map((c) => c.id);
    expect(lsId).not.toBe(globId);
    expect(messages.slice(3)).toEqual([
      { role: 'tool', tool_call_id: globId, content: 'a.ts' },
      { role: 'tool', tool_call_id: lsId, content: '{"error":"denied by policy"}' },
    ]);
  });

  it('states an orphan tool result in words rather than sending a tool message a server would reject', () => {
    const messages = toOpenAIMessages('', [{ role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'x' } } }] }]);
    expect(messages).toEqual([{ role: 'user', content: 'Result of tool ls: x' }]);
  });

  it('drops thoughts and empty model turns, joins user text, and names attachments it cannot send', () => {
    const messages = toOpenAIMessages('', [
      { role: 'user', parts: [{ text: 'Task:' }, { text: 'fix it' }, { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } }] },
      { role: 'model', parts: [{ text: 'hmm', thought: true }] },
      { role: 'user', parts: [{ text: 'well?' }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Task:' },
          { type: 'text', text: 'fix it' },
          { type: 'text', text: '[application/pdf attachment omitted: this provider sends only text and images]' },
        ],
      },
      { role: 'user', content: 'well?' },
    ]);
  });
});

describe('tool schemas', () => {
  it('strips meta keywords at every level but keeps properties that happen to share their names', () => {
    const cleaned = cleanSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: {
        $id: { type: 'string', $comment: 'a property literally named $id' },
        list: { type: 'array', items: { $schema: 'x', type: 'string' } },
        either: { anyOf: [{ $id: 'y', type: 'number' }, { type: 'null' }] },
      },
    });
    expect(cleaned).toEqual({
      type: 'object',
      properties: {
        $id: { type: 'string' },
        list: { type: 'array', items: { type: 'string' } },
        either: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      },
    });
    expect(cleanSchema({})).toEqual({ type: 'object', properties: {} });
  });
});

describe('tool-call arguments', () => {
  it.each([
    { raw: '{"path":"src"}', call: { args: { path: 'src' } } },
    { raw: '', call: { args: {} } },
    { raw: '  ', call: { args: {} } },
    // A valid object is the model's, whatever its keys: no key is reserved for a parse failure.
    { raw: '{"__invalid_json__":"x"}', call: { args: { __invalid_json__: 'x' } } },
    { raw: '{"path":', call: { args: {}, unparsedArguments: '{"path":' } },
    { raw: '["a"]', call: { args: {}, unparsedArguments: '["a"]' } },
    { raw: '"src"', call: { args: {}, unparsedArguments: '"src"' } },
    { raw: 'null', call: { args: {}, unparsedArguments: 'null' } },
    // The object's JSON encoded once more (watsonx): the object the model meant.
    { raw: JSON.stringify('{"path":"src"}'), call: { args: { path: 'src' } } },
    { raw: JSON.stringify('{"path":'), call: { args: {}, unparsedArguments: JSON.stringify('{"path":') } },
  ])('$raw', ({ raw, call }) => {
    expect(parseToolCall('c1', 'ls', raw)).toEqual({ id: 'c1', name: 'ls', ...call });
  });

  it('sends a malformed call back in the history with "{}" as its arguments (strict servers parse them)', () => {
    const messages = toOpenAIMessages('', [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ functionCall: parseToolCall('c1', 'edit', '{"file_path": "/w') }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'edit', response: { error: 'not a JSON object' } } }] },
    ]);
    const assistant = messages.find((m) => m.role === 'assistant') as { tool_calls: Array<{ function: { arguments: string } }> };
    expect(assistant.tool_calls[0]!.function.arguments).toBe('{}');
  });
});

function chunk(delta: object, finish: string | null = null): ChatCompletionChunk {
  return { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish } as ChatCompletionChunk.Choice] };
}

describe('stream assembly', () => {
  it('takes id and name once when a server repeats them, and drops a call that never got a name', () => {
    const assembler = new TurnAssembler();
    assembler.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'grep', arguments: '{"pat' } }] }));
    assembler.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'grep', arguments: 'tern":"x"}' } }] }));
    assembler.push(chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }));
    assembler.push(chunk({}, 'tool_calls'));
    expect(assembler.finish().functionCalls).toEqual([{ id: 'a', name: 'grep', args: { pattern: 'x' } }]);
  });

  it('marks arguments truncated by max_tokens as invalid instead of guessing', () => {
    const assembler = new TurnAssembler();
    assembler.push(chunk({ tool_calls: [{ index: 0, id: 'w', function: { name: 'write_file', arguments: '{"content":"abc' } }] }));
    assembler.push(chunk({}, 'length'));
    const turn = assembler.finish();
    expect(turn.finish).toEqual({ reason: 'max_tokens', raw: 'length' });
    expect(turn.functionCalls[0]).toMatchObject({ args: {}, unparsedArguments: '{"content":"abc' });
  });

  it('refuses a turn that never finished, even with a complete-looking call', () => {
    const assembler = new TurnAssembler();
    assembler.push(chunk({ tool_calls: [{ index: 0, id: 'w', function: { name: 'ls', arguments: '{}' } }] }));
    expect(() => assembler.finish()).toThrow(ProviderError);
  });
});

describe('retry-after', () => {
  it.each([
    { headers: { 'retry-after': '3' }, ms: 3000 },
    { headers: { 'retry-after-ms': '250.4', 'retry-after': '3' }, ms: 250 },
    { headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, ms: 10_000 },
    { headers: { 'retry-after': 'soon' }, ms: undefined },
    { headers: {}, ms: undefined },
  ] as { headers: Record<string, string>; ms: number | undefined }[])('$headers → $ms', ({ headers, ms }) => {
    expect(retryAfterMs(new Headers(headers), Date.parse('Thu, 01 Jan 2026 00:00:00 GMT'))).toBe(ms);
  });
});

describe('per-turn work is cached per history entry and per tool set', () => {
  const call = (name: string, args: Record<string, unknown>, id?: string): Content => ({ role: 'model', parts: [{ functionCall: { ...(id ? { id } : {}), name, args } }] });
  const result = (name: string, output: string, id?: string): Content => ({ role: 'user', parts: [{ functionResponse: { ...(id ? { id } : {}), name, response: { output } } }] });

  it('a growing history translates as a fresh copy would, reusing the messages of entries already sent', () => {
    const history: Content[] = [{ role: 'user', parts: [{ text: 'list files' }] }, call('ls', { path: '.' }), result('ls', 'a.ts')];
    const first = toOpenAIMessages('sys', history);
    history.push(call('read_file', { path: 'a.ts' }, 'r1'), result('read_file', 'export {}', 'r1'));
    const second = toOpenAIMessages('sys', history);
    // Same output as translating brand-new objects (which the cache has never seen).
    expect(second).toEqual(toOpenAIMessages('sys', structuredClone(history)));
    expect(second).toHaveLength(6);
    // The entries of the first turn (after the system message) are the very same message objects.
    for (let i = 1; i < first.length; i++) expect(second[i]).toBe(first[i]);
  });

  it('a replaced (pruned) entry is translated anew, and entries whose context changed are not reused', () => {
    const history: Content[] = [{ role: 'user', parts: [{ text: 'go' }] }, call('ls', {}), result('ls', 'long listing')];
    const before = toOpenAIMessages('', history);
    history[2] = result('ls', '[pruned]');
    const after = toOpenAIMessages('', history);
    expect(after[2]).toMatchObject({ role: 'tool', content: '[pruned]' });
    expect(after[1]).toBe(before[1]);
    // The same id-less call at another index gets that index's invented id, answered consistently.
    const moved = toOpenAIMessages('', [{ role: 'user', parts: [{ text: 'again' }] }, { role: 'user', parts: [{ text: 'x' }] }, history[1]!, history[2]!]);
    expect(moved).toEqual(toOpenAIMessages('', structuredClone([{ role: 'user', parts: [{ text: 'again' }] }, { role: 'user', parts: [{ text: 'x' }] }, history[1]!, history[2]!])));
    const id = (moved[2] as { tool_calls: { id: string }[] }).tool_calls[0]!.id;
    expect(id).not.toBe((before[1] as { tool_calls: { id: string }[] }).tool_calls[0]!.id);
    expect(moved[3]).toMatchObject({ role: 'tool', tool_call_id: id });
  });

  it('tool declarations are mapped once per declarations array', () => {
    const declarations: FunctionDeclaration[] = [
      { name: 'ls', description: 'List', parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { path: { type: 'string' } } } },
    ];
    const first = toOpenAITools(declarations);
    expect(toOpenAITools(declarations)).toBe(first);
    expect(first).toEqual(toOpenAITools(structuredClone(declarations)));
    expect(first[0]!.function.parameters).toEqual({ type: 'object', properties: { path: { type: 'string' } } });
  });
});

describe('a history that only grew', () => {
  it('gives back the same message objects for the earlier entries (each is encoded once)', async () => {
    const { toAnthropicMessages } = await import('../../src/providers/anthropic-mapping.js');
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'ls', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'ls', response: { output: 'a' } } }] },
    ];
    const openai = toOpenAIMessages('sys', history);
    const anthropic = toAnthropicMessages(history);
    history.push({ role: 'model', parts: [{ functionCall: { name: 'ls', args: { path: 'a' } } }] }, { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'b' } } }] });
    const openaiAfter = toOpenAIMessages('sys', history);
    const anthropicAfter = toAnthropicMessages(history);
    openai.forEach((message, i) => expect(openaiAfter[i]).toBe(message));
    anthropic.forEach((message, i) => expect(anthropicAfter[i]).toBe(message));
    expect(openaiAfter.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_3_0' });
    expect(anthropicAfter.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_unattended_3_0' }] });
  });
});
