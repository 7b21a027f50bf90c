// grep's (?i) patterns are matched spelled out without the i flag (grep-caseless.ts), so V8's
// linear engine can take over a match that backtracks: the spelled pattern must match exactly the
// lines the pattern matches with the flag, which this holds it to, for every character of the
// Basic Multilingual Plane alone and in a class, and for seeded random patterns and lines.
import { describe, expect, it } from 'vitest';
import { spelledCaseless } from '../../src/tools/builtin/grep-caseless.js';
import { compileSearchPattern } from '../../src/tools/builtin/grep-pattern.js';

const escaped = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;

describe('a (?i) pattern spelled without the flag', () => {
  it('matches what each character matches under (?i), alone, in a class and in a negated class', () => {
    const wrong: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const s = String.fromCharCode(c);
      const candidates = new Set([s, ...s.toUpperCase(), ...s.toLowerCase(), ...s.toUpperCase().toLowerCase(), ...s.toLowerCase().toUpperCase(), 'k', 's', '\u212a', '\u017f']);
      // The letters with a partner, and a sample of the rest (written as they are); each class costs
      // passes over the plane: in classes, the Latin letters with a partner, and a sample of the rest.
      const alone = escaped(c);
      const paired = spelledCaseless(alone) !== alone;
      if (!paired && c % 4 !== 0) continue;
      const sources = (paired && (c < 0x250 || c % 11 === 0)) || c % 1021 === 0 ? [alone, `[${alone}]`, `[^${alone}]`] : [alone];
      for (const source of sources) {
        const spelled = spelledCaseless(source)!;
        const flagged = new RegExp(source, 'i');
        const plain = new RegExp(spelled);
        for (const d of candidates) if (flagged.test(d) !== plain.test(d)) wrong.push(`${source} on U+${d.charCodeAt(0).toString(16)}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  }, 30_000);

  it('matches the lines the pattern matches with the flag, on random patterns', () => {
    let seed = 7;
    const below = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ['a', 'B', 'é', 'É', 'ß', 'ſ', 'K', 'k', '\u212a', 'Σ', 'σ', 'ς', 'µ', 'μ', '.', '\\w', '\\W', '\\d', '\\s', '\\S', '\\b', '\\B', '[a-f]', '[^a-f]', '[^\\W]', '[\\W]', '[A-Z]', '[^x]', '[é-ü]', '[\\d-z]', '[a-]', '[-k]', '\\x41', '\\u00e9', '\\cJ', '[\\x61-\\x7a]', '[^]', '[]', 'x{2}', '{a}', 'a{1,}', '(?:ab)', '(?<n>Ab)', '(k|S)', '^', '$', 'ǅ', 'Ǆ', '[ǅ]', 'İ', 'ı', 'i', '[^İ]', '\\é', '\\.', 'ΐ', 'ﬀ', '[\\s\\S]', '[^\\D]'];
    const quantifiers = ['', '', '*', '+', '?', '{1,2}', '*?'];
    const characters = [...'aAbBéÉßſKk\u212aΣσςµμ0_ \tǅǆǄİıiIxX{}ΐﬀ.\n'];
    let lines = 0;
    for (let t = 0; t < 1500; t++) {
      let source = '';
      for (let k = 1 + below(4); k > 0; k--) source += atoms[below(atoms.length)]! + quantifiers[below(quantifiers.length)]!;
      if (below(3) === 0) source += `|${atoms[below(atoms.length)]!}`;
      const compiled = compileSearchPattern(`(?i)${source}`);
      if (typeof compiled === 'string') continue;
      const spelled = spelledCaseless(compiled.source)!;
      const flagged = new RegExp(compiled.source, 'i');
      const plain = new RegExp(spelled);
      for (let n = 0; n < 30; n++, lines++) {
        let line = '';
        for (let k = below(6); k > 0; k--) line += characters[below(characters.length)]!;
        expect(plain.test(line), `${source} as ${spelled} on ${JSON.stringify(line)}`).toBe(flagged.test(line));
      }
    }
    expect(lines).toBeGreaterThan(20_000);
  });

  it('keeps the flag for a back-reference or a look-around, which the linear engine takes in no case', () => {
    expect(spelledCaseless('(a)\\1')).toBeNull();
    expect(spelledCaseless('(?<x>a)\\k<x>')).toBeNull();
    expect(spelledCaseless('a(?=b)')).toBeNull();
    expect(spelledCaseless('(?<!b)a')).toBeNull();
    // A group's name is no text to match.
    expect(spelledCaseless('(?<name>1)')).toBe('(?<name>1)');
  });
});
