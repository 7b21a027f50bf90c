import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, lineColOfByte } from '../../src/util/utf8.js';

describe('firstInvalidUtf8', () => {
  it.each([
    ['ASCII', [0x61, 0x62], -1],
    ['é, €, 😀 and a BOM', [...Buffer.from('\uFEFFé€😀')], -1],
    ['a Latin-1 é', [0x52, 0xe9, 0x61], 1],
    ['an overlong slash', [0x61, 0xc0, 0xaf], 1],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80], 0],
    ['a sequence cut short at the end', [0x61, 0xe2, 0x82], 1],
    ['a lone continuation byte', [0x80], 0],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
  ])('%s', (_, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });

  it('places a byte by line and column in characters', () => {
    const bytes = Buffer.concat([Buffer.from('a: 1\nprompt: "né '), Buffer.from([0xe9])]);
    expect(lineColOfByte(bytes, bytes.length - 1)).toEqual({ line: 2, col: 13 });
  });
});
