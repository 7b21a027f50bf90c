// The stdio reader's handling of lines over the limit, as each SDK orders a reply's keys.
import { describe, expect, it } from 'vitest';
import { MessageReader, type OversizedMessage } from '../../../src/tools/mcp/message-reader.js';

function read(lines: string[], maxBytes = 64) {
  const got = { messages: [] as unknown[], oversized: [] as OversizedMessage[], junk: [] as number[], invalid: 0, badReplies: [] as Array<[unknown, string]> };
  const reader = new MessageReader(
    { message: (m) => got.messages.push(m), invalid: () => got.invalid++, junk: (b) => got.junk.push(b), oversized: (o) => got.oversized.push(o), badReply: (id, reason) => got.badReplies.push([id, reason]) },
    maxBytes,
  );
  // In small chunks, as a pipe delivers them.
  const bytes = Buffer.from(lines.join(''));
  for (let i = 0; i < bytes.length; i += 7) reader.push(bytes.subarray(i, i + 7));
  return got;
}

const big = 'x'.repeat(200);

describe('a line over the limit', () => {
  it('is tied to its request whether the id comes first (Python, Go, Rust) or last (TypeScript)', () => {
    const got = read([
      `{"jsonrpc":"2.0","id":7,"result":{"t":"${big}"}}\n`,
      `{"result":{"content":[{"id":3,"t":"${big}"}]},"jsonrpc":"2.0","id":"a\\"b"}\n`,
      `{"jsonrpc":"2.0","id":1,"result":{}}\n`,
    ]);
    expect(got.oversized.map((o) => [o.replyTo, o.fromServer])).toEqual([
      [7, false],
      ['a"b', false],
    ]);
    expect(got.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('never takes an id nested in the result, and tells the server\'s own requests apart', () => {
    const got = read([`{"result":{"x":"${big}","id":5}}\n`, `{"method":"sampling/createMessage","params":{"t":"${big}"},"jsonrpc":"2.0","id":0}\n`]);
    expect(got.oversized.map((o) => [o.replyTo, o.fromServer])).toEqual([
      [null, false],
      [null, true],
    ]);
  });

  it('that does not start like JSON is reported as junk as soon as it passes the limit', () => {
    const got = read([`Starting server ${big}`]);
    expect(got.junk).toHaveLength(1);
    expect(got.oversized).toEqual([]);
  });
});

describe('a reply that breaks the protocol', () => {
  it('is told apart from a line that is no message, with what is wrong and the request it answers', () => {
    const got = read(['{"jsonrpc":"2.0","id":3,"result":123}\n', '{"jsonrpc":"2.0","id":"a","error":"boom"}\n', '{"id":4,"result":{}}\n', 'not json\n', '{"jsonrpc":"2.0","method":"x","result":1}\n'], 1024);
    expect(got.badReplies).toEqual([
      [3, "the server's reply is no valid JSON-RPC response: its result is a number, not an object"],
      ['a', "the server's reply is no valid JSON-RPC response: its error is a string, not an object"],
      [4, 'the server\'s reply is no valid JSON-RPC response: it does not say "jsonrpc": "2.0"'],
    ]);
    expect(got.invalid).toBe(2);
  });
});
