// grep's workers look for a plain-text pattern as bytes before decoding a file (issue 13 §3).
// Both engines share those workers, so comparing them cannot catch a wrong shortcut: these
// cases state the expected lines. Regular-expression syntax, case-insensitive patterns, non-ASCII
// text and undecodable bytes must all still be matched on the decoded text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { call, cleanupAll, makeWorkspace, text, type TempWorkspace } from './helpers.js';

afterAll(cleanupAll);

describe.each(['javascript', undefined] as const)('grep patterns on the decoded text (engine: %s)', (engine) => {
  let ws: TempWorkspace;
  beforeAll(() => {
    ws = makeWorkspace({
      'a.txt': 'abc and a-c\nfoooo bar\nNeedle upper\n',
      'b.txt': 'café crème\nword boundary\n',
      'c.txt': Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' latin1 bytes\n')]),
    });
  });
  const grep = async (pattern: string) => text(await call(createBuiltinTools({ ...ws.ctx, grepEngine: engine }, ['grep'])[0]!, { pattern }));

  it.each([
    ['abc', 'a.txt:1: abc and a-c'],
    ['a.c', 'a.txt:1: abc and a-c'],
    ['a-c|zzz', 'a.txt:1: abc and a-c'],
    ['fo+ bar', 'a.txt:2: foooo bar'],
    ['\\bword\\b', 'b.txt:2: word boundary'],
    ['(?i)needle', 'a.txt:3: Needle upper'],
    ['café', 'b.txt:1: café crème'],
    ['caf', 'b.txt:1: café crème\nc.txt:1: caf\uFFFD latin1 bytes'],
  ])('/%s/', async (pattern, expected) => {
    expect(await grep(pattern)).toBe(expected);
  });

  // A pattern holding U+FFFD is never looked for as bytes (an undecodable byte decodes to it).
  // Through ripgrep its Rust form does not yet match the raw byte (grep-regex.ts copies U+FFFD as
  // it is): a known gap of the translation, so the JavaScript engine alone is asserted here.
  it.skipIf(engine === undefined)('/caf\uFFFD latin1/ matches the undecodable byte', async () => {
    expect(await grep('caf\uFFFD latin1')).toBe('c.txt:1: caf\uFFFD latin1 bytes');
  });

  it('says no match when the bytes are nowhere', async () => {
    expect(await grep('needle')).toMatch(/^No matches for \/needle\/ in \. \(searched 3 files;/);
  });
});
