import { describe, expect, it } from 'vitest';
import { formatAge } from './format-age.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('formatAge', () => {
  it.each([
    [-5 * s, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [45 * s, '45s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 30 * s, '5m30s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 2 * m, '3h2m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [7 * d + 23 * h + 59 * m, '7d23h'],
    [8 * d, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [2 * 365 * d + 10 * d, '2y10d'],
    [9 * 365 * d + 100 * d, '9y'],
  ])('%d ms → %s', (ms, want) => {
    expect(formatAge(ms)).toBe(want);
  });
});
