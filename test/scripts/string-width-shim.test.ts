// The build points yargs' string-width at scripts/shims/string-width.js (no Intl.Segmenter at
// start-up). Its fast path must measure exactly what the real module measures, or help text would
// be laid out differently: checked here for every character the fast path accepts.
import realStringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript of the build, without types
import shimStringWidth from '../../scripts/shims/string-width.js';

const width = shimStringWidth as (text: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number;

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
}

describe('the string-width shim', () => {
  const fastPath = [...range(0x20, 0x7e), ...range(0xa0, 0xac), ...range(0xae, 0x2ff), ...range(0x2010, 0x2027), ...range(0x2030, 0x205f), ...range(0x2190, 0x21ff)];

  it('agrees with string-width on every character of its fast path', () => {
    const differ = fastPath.filter((ch) => width(ch) !== realStringWidth(ch)).map((ch) => `U+${ch.codePointAt(0)!.toString(16)}`);
    expect(differ).toEqual([]);
  });

  it.each([
    ['help text', 'Peers\u2019 habits work: claude -p "\u2026" is unattended -p "\u2026" \u2192 done \u2014 ok'],
    ['colours', '\u001b[31mred\u001b[39m text'],
    ['wide characters', '\u65e5\u672c\u8a9e and \u{1f600}'],
    ['combining marks and zero-width', 'e\u0301 a\u200bb \u00ad'],
    ['ambiguous as wide', '\u2026\u2192'],
  ])('agrees with string-width on %s', (_name, text) => {
    for (const options of [{}, { ambiguousIsNarrow: false }, { countAnsiEscapeCodes: true }]) {
      expect(width(text, options)).toBe(realStringWidth(text, options));
    }
  });
});
