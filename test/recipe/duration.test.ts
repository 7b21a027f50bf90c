import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/recipe/index.js';

describe('parseDuration', () => {
  it.each<[string | number, number]>([
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['250ms', 250],
    ['1.5m', 90_000],
    [' 45 s ', 45_000],
    ['90', 90_000],
    [90, 90_000],
    [0.5, 500],
  ])('%j -> %i ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each<[string | number]>([['10 minutes'], ['1h30m'], [''], ['-5s'], ['0'], [0], [-1], ['s'], ['0.0001ms'], [Number.NaN]])(
    '%j is refused with the accepted forms named',
    (input) => {
      expect(() => parseDuration(input)).toThrow(/30s, 10m, 1h, or a number of seconds/);
    },
  );

  it.each<[string | number]>([['1000h'], ['2147484s'], ['2147483648ms'], [2147484], ['35792m']])(
    '%j is past the longest a timer can wait, and refused with the maximum named',
    (input) => {
      expect(() => parseDuration(input)).toThrow(/is too long: a duration is at most 2147483s \(596 hours, about 24 days\)/);
    },
  );

  it('the longest duration a timer can wait is taken', () => {
    expect(parseDuration('2147483647ms')).toBe(2 ** 31 - 1);
    expect(parseDuration('596h')).toBe(596 * 3_600_000);
  });
});

describe('an infinite duration (YAML .inf)', () => {
  it('is named as the recipe wrote it, not as JSON null', () => {
    expect(() => parseDuration(Number.POSITIVE_INFINITY)).toThrow(/^\.inf is not a positive duration/);
  });
});
