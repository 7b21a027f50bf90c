// isInside: one answer to "is this path inside that one?" for the hand-off, the copy check and
// the snapshot exclusions; a name starting with two dots is a name, not a way out.
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
