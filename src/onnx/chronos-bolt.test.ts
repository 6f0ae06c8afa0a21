import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { buildChronosBoltLike, buildRuleForecaster } from './chronos-bolt.js';

async function forecast(bytes: Uint8Array, rows: number[][]): Promise<ort.Tensor> {
  const session = await ort.InferenceSession.create(bytes);
  try {
    const context = new ort.Tensor('float32', Float32Array.from(rows.flat()), [rows.length, rows[0].length]);
    return (await session.run({ context })).quantile_preds;
  } finally {
    await session.release();
  }
}

describe('buildRuleForecaster', () => {
  it('forecasts mean + (q - 0.5) * 10 by default, ignoring NaN and left padding, per row', async () => {
    const quantiles = [0.1, 0.5, 0.9];
    const out = await forecast(buildRuleForecaster({ predictionLength: 2, quantiles }), [
      [1, 2, 3, 6],
      [NaN, NaN, 4, 8],
      [NaN, 5, NaN, 7],
    ]);
    expect(out.dims).toEqual([3, 3, 2]);
    const expected = [3, 6, 6].flatMap((m) => quantiles.flatMap((q) => [0, 1].map(() => Math.fround(m + Math.fround((q - 0.5) * 10)))));
    expect(Array.from(out.data as Float32Array)).toEqual(expected);
  });

  it('applies custom offsets and trend * (h + 1) exactly', async () => {
    const out = await forecast(buildRuleForecaster({ predictionLength: 3, quantiles: [0.2, 0.8], offsets: [-1, 2], trend: 0.5 }), [
      [10, 11, 12, NaN],
    ]);
    expect(Array.from(out.data as Float32Array)).toEqual([10.5, 11, 11.5, 13.5, 14, 14.5]);
  });

  it('returns NaN for an all-NaN series so it is detectable', async () => {
    const out = await forecast(buildRuleForecaster({ predictionLength: 2, quantiles: [0.5] }), [
      [NaN, NaN],
      [1, 3],
    ]);
    expect(Array.from(out.data as Float32Array)).toEqual([NaN, NaN, 2, 2]);
  });

  it('rejects offsets that do not match the quantiles', () => {
    expect(() => buildRuleForecaster({ predictionLength: 2, quantiles: [0.5], offsets: [1, 2] })).toThrow(/offsets/);
  });
});

describe('buildChronosBoltLike', () => {
  const opts = { contextLength: 64, predictionLength: 6, quantiles: [0.1, 0.5, 0.9], patchSize: 8, dModel: 32, layers: 2, heads: 4, dFF: 64, seed: 5 };
  const series = Array.from({ length: 16 }, (_, i) => 100 + 10 * Math.sin(i / 2));

  it('runs at a small size with finite outputs of shape [batch, Q, H] near the series level', async () => {
    const out = await forecast(buildChronosBoltLike(opts), [series]);
    expect(out.dims).toEqual([1, 3, 6]);
    const data = Array.from(out.data as Float32Array);
    expect(data.every(Number.isFinite)).toBe(true);
    const mean = series.reduce((a, b) => a + b, 0) / series.length;
    expect(data.every((v) => Math.abs(v - mean) < 20)).toBe(true);
  });

  it('ignores NaN left padding: a padded row forecasts like the unpadded series; all-NaN stays finite', async () => {
    const bytes = buildChronosBoltLike(opts);
    const alone = Array.from((await forecast(bytes, [series])).data as Float32Array);
    const batch = await forecast(bytes, [
      [...Array<number>(16).fill(NaN), ...series],
      [...Array<number>(19).fill(NaN), ...series.slice(3)],
      Array<number>(32).fill(NaN),
    ]);
    const data = batch.data as Float32Array;
    alone.forEach((v, i) => expect(Math.abs(data[i] - v)).toBeLessThan(1e-4));
    expect(Array.from(data.subarray(18)).every(Number.isFinite)).toBe(true);
  });

  it('keeps only the last contextLength steps', async () => {
    const bytes = buildChronosBoltLike({ ...opts, contextLength: 16 });
    const long = await forecast(bytes, [[...Array<number>(16).fill(1e6), ...series]]);
    const short = await forecast(bytes, [series]);
    expect(Array.from(long.data as Float32Array)).toEqual(Array.from(short.data as Float32Array));
  });

  it('rejects a context length that is not a multiple of the patch size', () => {
    expect(() => buildChronosBoltLike({ ...opts, contextLength: 60 })).toThrow(/multiple of patchSize/);
  });
});
