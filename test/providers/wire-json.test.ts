// Bodies joined from per-message JSON text: the same bytes JSON.stringify gives for the whole object.
import { describe, expect, it } from 'vitest';
import { jsonBody, jsonOnce } from '../../src/providers/wire-json.js';

describe('jsonBody', () => {
  const messages = [{ role: 'user', content: 'héllo "quoted"\n' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] }];
  const fields: Array<[string, unknown]> = [
    ['model', 'm'],
    ['messages', messages],
    ['tools', undefined],
    ['max_tokens', 512],
    ['stream', true],
  ];

  it('is JSON.stringify of the fields in order, undefined ones left out', () => {
    const text = jsonBody(fields, new Set(['messages', 'tools']));
    expect(text).toBe(JSON.stringify({ model: 'm', messages, max_tokens: 512, stream: true }));
    expect(Object.keys(JSON.parse(text))).toEqual(['model', 'messages', 'max_tokens', 'stream']);
  });

  it('encodes a message once: the same object gives the same text, a new object its own', () => {
    const first = jsonOnce(messages[0]!);
    expect(jsonOnce(messages[0]!)).toBe(first);
    expect(jsonOnce({ ...messages[0]!, content: 'other' })).toBe('{"role":"user","content":"other"}');
  });
});
