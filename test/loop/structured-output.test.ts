import { describe, expect, it } from 'vitest';
import { parseJsonAnswer, schemaInstruction, StructuredOutput } from '../../src/loop/structured-output.js';

describe('parseJsonAnswer', () => {
  it.each([
    ['bare JSON', '{"a": 1}', { ok: true, value: { a: 1 } }],
    ['surrounded by whitespace', '\n  [1, 2]\n', { ok: true, value: [1, 2] }],
    ['a json fence with prose around it', 'Here:\n```json\n{"a": 1}\n```\nDone.', { ok: true, value: { a: 1 } }],
    ['a bare fence', '```\n"text"\n```', { ok: true, value: 'text' }],
    ['prose', 'All fine!', { ok: false, error: expect.stringMatching(/^the answer is not JSON/) }],
    ['a fence with broken JSON', '```json\n{"a": }\n```', { ok: false, error: expect.stringMatching(/^the fenced block is not valid JSON/) }],
    ['two fences', '```json\n1\n```\n```json\n2\n```', { ok: false, error: 'the answer has 2 fenced blocks; give exactly one JSON value' }],
    // Qwen3 or DeepSeek-R1 on vLLM without a reasoning parser: the thinking is in the answer's text.
    ['after inline thinking', '<think>\nThe user wants {"a": 0}? No:\n```json\n{"a": 0}\n```\n</think>\n\n{"a": 1}', { ok: true, value: { a: 1 } }],
    ['after thinking whose opening tag was in the prompt', 'Let me check.\n</think>\n```json\n{"a": 2}\n```', { ok: true, value: { a: 2 } }],
    ['thinking and then prose', '<think>hmm</think>\nAll fine!', { ok: false, error: expect.stringMatching(/^the answer is not JSON/) }],
    // A short value fenced on one line, as models write it.
    ['a json fence on one line', '```json {"a": 1, "b": [2]}```', { ok: true, value: { a: 1, b: [2] } }],
    ['a bare fence on one line', '``` [1, 2] ```', { ok: true, value: [1, 2] }],
    ['a one-line fence with broken JSON', '```json {"a": }```', { ok: false, error: expect.stringMatching(/^the fenced value is not valid JSON/) }],
  ])('%s', (_name, answer, expected) => {
    expect(parseJsonAnswer(answer)).toEqual(expected);
  });
});

describe('StructuredOutput', () => {
  const schema = { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } }, additionalProperties: false };

  it('retries with what is wrong until max_attempts answers, then fails', () => {
    const output = new StructuredOutput(schema, 2);
    const first = output.check('{"ok": "yes"}');
    expect(first).toMatchObject({ verdict: 'retry', attempt: 1, reason: "'ok' must be boolean" });
    expect(first.verdict === 'retry' && first.feedback).toMatch(/\(attempt 2 of 2\)\.$/);
    expect(output.check('{}')).toEqual({ verdict: 'fail', error: "the final answer does not match output.schema after 2 attempts: missing required property 'ok'" });
    expect(output.value).toBeUndefined();
  });

  it('keeps the accepted value', () => {
    const output = new StructuredOutput(schema, 3);
    expect(output.check('[]')).toMatchObject({ verdict: 'retry', reason: 'the answer must be object' });
    expect(output.check('```json\n{"ok": true}\n```')).toEqual({ verdict: 'accept' });
    expect(output.value).toEqual({ ok: true });
  });

  it('puts the schema in the instructions as compact JSON', () => {
    expect(schemaInstruction(schema)).toContain(JSON.stringify(schema));
  });
});
