// The superset a line must match before grep matches it with a pattern that has a look-around or
// a back-reference (grep-prefilter.ts): it must match every line the pattern matches, or grep
// would lose matches; seeded random patterns and lines hold it to that, with and without (?i).
import { describe, expect, it } from 'vitest';
import { lineSuperset } from '../../src/tools/builtin/grep-prefilter.js';
import { compileSearchPattern } from '../../src/tools/builtin/grep-pattern.js';

describe('the superset of a pattern with look-arounds or back-references', () => {
  it('matches every line the pattern matches, and has neither construct', () => {
    let seed = 11;
    const below = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ['a', 'b', 'A', 'é', '.', '\\w', '\\d', '[ab]', '[^a]', '(a|b)', '(?<n>b)', '(?=a)', '(?!b)', '(?<=a)', '(?<!b)', '(?=(a))', '(?![)])', '\\1', '\\k<n>', '^', '$', '\\b', '(?:a\\1)', '[(]', '\\('];
    const quantifiers = ['', '', '*', '+', '?', '{1,2}'];
    const characters = [...'aAbBé1 ()'];
    let checked = 0;
    for (let t = 0; t < 1500; t++) {
      let source = '';
      for (let k = 1 + below(5); k > 0; k--) source += atoms[below(atoms.length)]! + quantifiers[below(quantifiers.length)]!;
      const caseless = below(3) === 0;
      const compiled = compileSearchPattern(`${caseless ? '(?i)' : ''}${source}`);
      if (typeof compiled === 'string') continue;
      const superset = lineSuperset(compiled.source, compiled.flags);
      if (superset === null) {
        expect(compiled.source).not.toMatch(/\(\?<?[=!]|\\[1-9]|\\k</);
        continue;
      }
      expect(superset.source).not.toMatch(/\(\?<?[=!]|\\[1-9]|\\k</);
      expect(superset.flags).toBe('');
      const pattern = new RegExp(compiled.source, compiled.flags);
      const loose = new RegExp(superset.source, superset.flags);
      for (let n = 0; n < 40; n++) {
        let line = '';
        for (let k = below(7); k > 0; k--) line += characters[below(characters.length)]!;
        if (!pattern.test(line)) continue;
        checked++;
        expect(loose.test(line), `${source} as ${superset.source} on ${JSON.stringify(line)}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(5_000);
  });
});
