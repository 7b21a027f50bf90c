// isInside: one answer to "is this path inside that one?" for the hand-off, the copy check and
// the snapshot exclusions; a name starting with two dots is a name, not a way out.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, isStrictlyInside } from '../../src/util/paths.js';

describe('isInside', () => {
  it.each([
    ['/ws', '/ws', true, false],
    ['/ws', '/ws/out', true, true],
    ['/ws', '/ws/..runs', true, true],
    ['/ws', '/ws/..runs/r1', true, true],
    ['/ws', '/ws/a/../..x', true, true],
    ['/ws', '/', false, false],
    ['/ws', '/other', false, false],
    ['/ws', '/ws2', false, false],
    ['/ws', '/ws/../out', false, false],
    ['/ws/sub', '/ws', false, false],
  ])('%s contains %s: %s (strictly: %s)', (parent, child, inside, strictly) => {
    expect(isInside(parent, child)).toBe(inside);
    expect(isStrictlyInside(parent, child)).toBe(strictly);
  });
});

describe('isInside, against the definition by path.relative', () => {
  it('agrees on every pair of paths built from names, dots, doubled and trailing slashes', () => {
    const byRelative = (parent: string, child: string) => {
      const rel = path.relative(parent, child);
      return rel === '' || (rel !== '..' && !rel.startsWith('../') && !path.isAbsolute(rel));
    };
    const pieces = ['a', 'b', 'ab', '.', '..', '..a', '.a', ''];
    const paths = new Set<string>(['/']);
    for (const x of pieces) for (const y of pieces) for (const end of ['', '/']) paths.add(`/${x}/${y}${end}`.replace(/\/+$/, end === '' ? '' : '/') || '/');
    paths.add('relative/a');
    let compared = 0;
    for (const parent of paths) {
      for (const child of paths) {
        expect(isInside(parent, child), `${parent} holds ${child}`).toBe(byRelative(parent, child));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
