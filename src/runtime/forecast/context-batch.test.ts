import { describe, expect, it } from 'vitest';
import { paddedLength, planContextChunks } from './context-batch.js';

const f = (...xs: number[]): Float32Array => Float32Array.from(xs);
const rows = (c: { data: Float32Array; time: number }): number[][] =>
  Array.from({ length: c.data.length / c.time }, (_, r) => Array.from(c.data.subarray(r * c.time, (r + 1) * c.time)));

describe('paddedLength', () => {
  it('rounds the used length up to the patch size and never beyond the context', () => {
    expect(paddedLength(5, 64, 4)).toBe(8);
    expect(paddedLength(8, 64, 4)).toBe(8);
    expect(paddedLength(100, 16, 4)).toBe(16);
    expect(paddedLength(1, 16, 8)).toBe(8);
  });
});

describe('planContextChunks', () => {
  it('cuts to the most recent context and left-pads with NaN to the patch multiple', () => {
    const [c] = planContextChunks([f(1, 2, 3, 4, 5, 6, 7)], { contextLength: 6, patchSize: 4 });
    expect(c.time).toBe(8);
    expect(rows(c)).toEqual([[NaN, NaN, 2, 3, 4, 5, 6, 7]]);
  });

  it('pads each chunk only to its own longest row and keeps batch indices', () => {
    const batch = [f(1, 2, 3, 4, 5, 6, 7, 8, 9), f(1), f(1, 2, 3), f(5, 6)];
    const chunks = planContextChunks(batch, { contextLength: 64, patchSize: 2, batchSize: 2 });
    expect(chunks.map((c) => c.indices)).toEqual([[1, 3], [2, 0]]);
    expect(chunks.map((c) => c.time)).toEqual([2, 10]);
    expect(rows(chunks[0])).toEqual([[NaN, 1], [5, 6]]);
    expect(rows(chunks[1])[0]).toEqual([NaN, NaN, NaN, NaN, NaN, NaN, NaN, 1, 2, 3]);
  });

  it('keeps input order without grouping', () => {
    const batch = [f(1, 2, 3), f(1), f(1, 2)];
    const chunks = planContextChunks(batch, { contextLength: 8, batchSize: 2, groupByLength: false });
    expect(chunks.map((c) => c.indices)).toEqual([[0, 1], [2]]);
    expect(rows(chunks[0])).toEqual([[1, 2, 3], [NaN, NaN, 1]]);
  });
});

describe('planContextChunks with minChunks (one chunk per session replica)', () => {
  const sizes = (n: number, batchSize: number, minChunks?: number): number[] =>
    planContextChunks(Array.from({ length: n }, (_, i) => f(i, 1)), { contextLength: 8, batchSize, ...(minChunks !== undefined ? { minChunks } : {}) }).map((c) => c.indices.length);

  it('cuts at least minChunks even chunks, batchSize still the cap; without it, batchSize chunks as before', () => {
    expect(sizes(10, 64, 2)).toEqual([5, 5]);
    expect(sizes(11, 64, 2)).toEqual([6, 5]);
    expect(sizes(10, 3, 2)).toEqual([3, 3, 2, 2]);
    expect(sizes(65, 64, 1)).toEqual([33, 32]);
    expect(sizes(3, 64, 4)).toEqual([1, 1, 1]);
    expect(sizes(0, 64, 2)).toEqual([]);
    expect(sizes(10, 3)).toEqual([3, 3, 3, 1]);
  });

  it('keeps the length order and every batch index once', () => {
    const batch = [f(1, 2, 3, 4, 5), f(1), f(1, 2, 3), f(5, 6), f(7)];
    const chunks = planContextChunks(batch, { contextLength: 8, batchSize: 64, minChunks: 2 });
    expect(chunks.map((c) => c.indices)).toEqual([[1, 4, 3], [2, 0]]);
    expect(chunks.map((c) => c.time)).toEqual([2, 5]);
  });
});
