// The windowed diff: the same text as jsdiff's whole-file patch, and always a patch that applies.
import * as jsdiff from 'diff';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/util/unified-diff.js';

const HEADERS = { includeIndex: false, includeUnderline: false, includeFileHeaders: true };
const whole = (a: string, b: string, context = 3) => jsdiff.createTwoFilesPatch('a/f', 'b/f', a, b, undefined, undefined, { context, headerOptions: HEADERS });
const windowed = (a: string, b: string, context = 3) => unifiedDiff(jsdiff, 'a/f', 'b/f', a, b, { context, headerOptions: HEADERS });

describe('unifiedDiff', () => {
  const file = Array.from({ length: 2000 }, (_, i) => `const v${i} = ${i};\n`).join('');

  it.each([
    ['one line changed in the middle', file.replace('const v1000 = 1000;', 'const v1000 = 0;')],
    ['a line added at the start', `// header\n${file}`],
    ['the last line removed', file.slice(0, file.lastIndexOf('const v1999'))],
    ['the final newline dropped', file.slice(0, -1)],
    ['two changes far apart', file.replace('v10 =', 'w10 =').replace('v1900 =', 'w1900 =')],
    ['two changes close together', file.replace('v10 =', 'w10 =').replace('v14 =', 'w14 =')],
    ['nothing changed', file],
  ])('%s: the same text as a whole-file diff', (_name, next) => {
    expect(windowed(file, next)).toBe(whole(file, next));
  });

  it('a new file and an emptied file', () => {
    expect(unifiedDiff(jsdiff, '/dev/null', 'b/f', '', 'a\nb\n', { context: 3, headerOptions: HEADERS })).toBe(
      jsdiff.createTwoFilesPatch('/dev/null', 'b/f', '', 'a\nb\n', undefined, undefined, { context: 3, headerOptions: HEADERS }),
    );
    expect(windowed('a\nb\n', '')).toBe(whole('a\nb\n', ''));
  });

  it('edits of distinct lines (built without jsdiff): the same text as a whole-file diff', () => {
    let seed = 3;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let fresh = 0;
    for (let t = 0; t < 3000; t++) {
      const eol = rnd(4) === 0 ? '\r\n' : '\n';
      const lines = Array.from({ length: rnd(40) }, () => `line ${fresh++}${eol}`);
      const next = [...lines];
      for (let e = rnd(3); e >= 0; e--) next.splice(rnd(next.length + 1), rnd(4), ...Array.from({ length: rnd(4) }, () => `new ${fresh++}${eol}`));
      const a = lines.join('') + (rnd(4) === 0 ? 'no newline' : '');
      const b = next.join('') + (rnd(4) === 0 ? (rnd(2) ? 'no newline' : 'other end') : '');
      const context = rnd(5);
      expect(windowed(a, b, context)).toBe(whole(a, b, context));
    }
  });

  it('where repeated lines allow several alignments, the patch still applies', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let t = 0; t < 2000; t++) {
      const lines = Array.from({ length: rnd(25) }, () => 'abc'[rnd(3)]!);
      const next = [...lines];
      for (let e = rnd(4); e >= 0; e--) next.splice(rnd(next.length + 1), rnd(2), ...(rnd(2) ? ['abcX'[rnd(4)]!] : []));
      const a = lines.map((l) => `${l}\n`).join('');
      const b = next.map((l) => `${l}\n`).join('') + (rnd(4) === 0 ? 'tail' : '');
      expect(jsdiff.applyPatch(a, windowed(a, b, 1 + rnd(3)))).toBe(b);
    }
  });
});
