import { describe, expect, it } from 'vitest';
import { evenSizes, slicesOf } from './even-sizes.js';

describe('evenSizes', () => {
  it('cuts into parts differing by one at most, larger first, covering every item once', () => {
    expect(evenSizes(17, 3)).toEqual([6, 6, 5]);
    expect(evenSizes(10, 3)).toEqual([4, 3, 3]);
    expect(evenSizes(8, 4)).toEqual([2, 2, 2, 2]);
    for (let total = 1; total <= 40; total++) {
      for (let parts = 1; parts <= 12; parts++) {
        const sizes = evenSizes(total, parts);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
        expect(sizes).toHaveLength(Math.min(total, parts));
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('clamps the part count: never more parts than items, at least one, none for no items', () => {
    expect(evenSizes(3, 8)).toEqual([1, 1, 1]);
    expect(evenSizes(5, 0)).toEqual([5]);
    expect(evenSizes(0, 4)).toEqual([]);
    expect(evenSizes(6, Number.NaN)).toEqual([6]);
  });

  it('slicesOf cuts items into consecutive slices of the given sizes, in order', () => {
    const items = Array.from({ length: 17 }, (_, i) => i);
    const parts = slicesOf(items, evenSizes(items.length, 3));
    expect(parts.map((p) => p.length)).toEqual([6, 6, 5]);
    expect(parts.flat()).toEqual(items);
    expect(slicesOf(['a', 'b', 'c'], [2])).toEqual([['a', 'b']]);
    expect(slicesOf([], [])).toEqual([]);
  });
});
