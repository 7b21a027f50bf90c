import { describe, expect, it } from 'vitest';
import { grouped, plural } from '../../src/util/plural.js';

describe('grouped', () => {
  it('writes integers as toLocaleString("en-US") does', () => {
    const samples = [0, 7, 999, 1000, 36_000, 100_000, 999_999, 1_000_000, 7_321_495, 2 ** 40, -1234, -12];
    for (let i = 0; i < 200; i++) samples.push(Math.floor(Math.random() * 10 ** (1 + (i % 15))));
    for (const n of samples) expect(grouped(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('plural', () => {
  it('says one of a thing and many things', () => {
    expect(plural(1, 'turn')).toBe('1 turn');
    expect(plural(2, 'match', 'matches')).toBe('2 matches');
  });
});
