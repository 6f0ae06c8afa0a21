import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChronosFixtureRepo } from '../../onnx/model-repo.js';
import type { ForecastModel } from '../../runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../runtime/forecast/load-chronos-bolt.js';
import { localForecaster } from './local-forecaster.js';
import { pooledQuantiles } from './rollout-on-quantiles.js';

const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** torch.quantile's default ("linear") on a sorted copy — written here independently of the code under test. */
function torchQuantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const rank = q * (s.length - 1);
  const lo = Math.floor(rank + 1e-9);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo] + Math.max(0, rank - lo) * (s[hi] - s[lo]);
}

/**
 * The official pipeline's rollout, step by step on `model.predict` at its native horizon: copy k of
 * every series is extended with level k, the copies' forecasts pooled and reduced per step.
 * Returns [series][level][step], unsorted within the native horizon (raw model output).
 */
async function referenceRollout(model: ForecastModel, series: Float32Array[], horizon: number): Promise<number[][][]> {
  const H = model.nativeHorizon;
  const Q = model.quantiles.length;
  const first = await model.predict(series, H);
  const out = series.map((_, i) => model.quantiles.map((_, k) => Array.from(first.values[i].subarray(k * H, (k + 1) * H))));
  const paths = series.map((s, i) => out[i].map((row) => [...Array.from(s), ...row]));
  for (let round = 0; out[0][0].length < horizon && round < 100; round++) {
    const f = await model.predict(paths.flat().map((p) => Float32Array.from(p)), H);
    series.forEach((_, i) => {
      const next = model.quantiles.map(() => [] as number[]);
      for (let h = 0; h < H; h++) {
        const pool: number[] = [];
        for (let c = 0; c < Q; c++) {
          for (let k = 0; k < Q; k++) {
            pool.push(f.values[i * Q + c][k * H + h]);
          }
        }
        model.quantiles.forEach((q, k) => next[k].push(torchQuantile(pool, q)));
      }
      next.forEach((row, k) => {
        out[i][k].push(...row);
        paths[i][k].push(...row.map(Math.fround));
      });
    });
  }
  return out.map((levels) => levels.map((row) => row.slice(0, horizon)));
}

/** Per step: the reference's values sorted, then level `q` interpolated between model levels (clamped). */
function sortedLevel(ref: number[][], q: number, h: number): number {
  const col = ref.map((row) => row[h]).sort((a, b) => a - b);
  if (q <= LEVELS[0]) {
    return col[0];
  }
  if (q >= LEVELS[LEVELS.length - 1]) {
    return col[col.length - 1];
  }
  const hi = LEVELS.findIndex((l) => l >= q - 1e-12);
  if (Math.abs(LEVELS[hi] - q) < 1e-12) {
    return col[hi];
  }
  const w = (q - LEVELS[hi - 1]) / (LEVELS[hi] - LEVELS[hi - 1]);
  return col[hi - 1] + w * (col[hi] - col[hi - 1]);
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-rollout-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('pooledQuantiles', () => {
  it('reads each level at rank q·(n−1) of the pooled, sorted values with linear interpolation', () => {
    // two copies × levels [0.25, 0.5, 0.75], one step: pool {1, 2, 3, 6, 5, 4} → sorted 1..6, n − 1 = 5
    const out = pooledQuantiles([Float32Array.from([1, 2, 3]), Float32Array.from([6, 5, 4])], [0.25, 0.5, 0.75], 1);
    expect(Array.from(out)).toEqual([2.25, 3.5, 4.75]);
  });

  it('gives NaN at every level of a step with a NaN value, and reduces each step on its own', () => {
    const a = Float32Array.from([1, Number.NaN, 2, 0, 3, 0]); // levels 0.1/0.5/0.9 × 2 steps
    const out = Array.from(pooledQuantiles([a, a, a], [0.1, 0.5, 0.9], 2));
    expect([out[0], out[2], out[4]]).toEqual([1, 2, 3]);
    expect([out[1], out[3], out[5]].every(Number.isNaN)).toBe(true);
  });
});

describe('forecast: rollout on all quantile paths (Chronos-Bolt default)', () => {
  it('matches the pipeline step by step on a transformer graph: mixed lengths, NaN gaps, a constant series, 3.5× the native horizon', async () => {
    const dir = join(root, 'bolt');
    await writeChronosFixtureRepo(dir, { kind: 'bolt-like', contextLength: 64, predictionLength: 8, patchSize: 8, dModel: 16, heads: 2, layers: 1, seed: 3 });
    const inner = await loadChronosBolt(dir, { batchSize: 5 });
    const calls: Array<[number, number]> = [];
    const model: ForecastModel = { ...inner, predict: (b, h, o) => (calls.push([b.length, h]), inner.predict(b, h, o)) };
    const series = [
      Array.from({ length: 5 }, (_, t) => 3 + t),
      Array.from({ length: 37 }, (_, t) => (t % 6 === 2 ? null : 20 + 5 * Math.sin(t / 2))),
      Array.from({ length: 200 }, (_, t) => 100 + t * 0.5 + 10 * Math.cos(t)),
      Array.from({ length: 20 }, () => 7),
    ];
    const horizon = 28;
    const ref = await referenceRollout(inner, series.map((s) => Float32Array.from(s, (v) => v ?? Number.NaN)), horizon);
    const asked = [0.05, 0.1, 0.15, 0.5, 0.9, 0.95];
    const res = await localForecaster(model).forecast({
      model: 'bolt',
      inputs: series.map((s, i) => ({ type: 'univariate_time_series' as const, name: `s${i}`, series: s, frequency: 'D' })),
      options: { horizon, quantiles: asked },
    });
    expect(res.status).toBe('completed');
    expect(calls).toEqual([[4, 8], [36, 8], [36, 8], [36, 4]]); // each step after the first runs 9 copies per series
    res.outputs.forEach((o, i) => {
      const c = o.content[0];
      const scale = Math.max(1, ...ref[i].flat().map(Math.abs));
      const close = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThan(1e-5 * scale);
      (c.mean_forecast as number[]).forEach((v, h) => close(v, ref[i][4][h])); // the raw 0.5 row
      asked.forEach((q) => (c.quantiles?.[String(q)] as number[]).forEach((v, h) => close(v, sortedLevel(ref[i], q, h))));
      expect(new Set(c.mean_forecast as number[]).size).toBeGreaterThan(1);
    });
    // the interval keeps widening past the native horizon, unlike the median rollout's conditional one
    const median = await localForecaster(inner).forecast({
      model: 'bolt',
      inputs: [{ type: 'univariate_time_series', name: 'x', series: series[2], frequency: 'D' }],
      options: { horizon, quantiles: [0.1, 0.9], rollout: 'median' },
    });
    const width = (q: Record<string, unknown> | undefined, h: number) => (q?.['0.9'] as number[])[h] - (q?.['0.1'] as number[])[h];
    const all = res.outputs[2].content[0].quantiles;
    expect(width(all, 27)).not.toBeCloseTo(width(median.outputs[0].content[0].quantiles, 27), 3);
    expect(Array.from({ length: 8 }, (_, h) => width(all, h))).toEqual(Array.from({ length: 8 }, (_, h) => width(median.outputs[0].content[0].quantiles, h)));
    await inner.dispose();
  });

  it('rolls out crossing quantiles as they came and reports the raw 0.5 output as mean_forecast', async () => {
    // rule graph: out[k, h] = mean(last 8 present) + offsets[k]; levels 0.1/0.5/0.9 cross: offsets 0, 6, 2
    const dir = join(root, 'cross');
    await writeChronosFixtureRepo(dir, { contextLength: 8, predictionLength: 2, patchSize: 4, quantiles: [0.1, 0.5, 0.9], offsets: [0, 6, 2] });
    const model = await loadChronosBolt(dir);
    const series = [4, 4];
    const res = await localForecaster(model).forecast({
      model: 'cross',
      inputs: [{ type: 'univariate_time_series', name: 'c', series, frequency: 'D' }],
      options: { horizon: 3, quantiles: [0.1, 0.5, 0.9] },
    });
    const c = res.outputs[0].content[0];
    // steps 0-1: raw (4, 10, 6) → mean_forecast 10 (raw 0.5), map sorted (4, 6, 10)
    // step 2: copy k = [4, 4] + its 2-step path → means 4, 7, 5; pooled {m + 0, m + 6, m + 2}
    //   = {4, 10, 6, 7, 13, 9, 5, 11, 7} sorted 4 5 6 7 7 9 10 11 13 → ranks 0.8, 4, 7.2 → 4.8, 7, 11.4
    expect(c.mean_forecast).toEqual([10, 10, 7]);
    expect(c.quantiles).toEqual({ '0.1': [4, 4, 4.8], '0.5': [6, 6, 7], '0.9': [10, 10, 11.4] });
    const median = await localForecaster(model).forecast({
      model: 'cross',
      inputs: [{ type: 'univariate_time_series', name: 'c', series, frequency: 'D' }],
      options: { horizon: 3, quantiles: [0.5], rollout: 'median' },
    });
    // median rollout appends the raw 0.5 path (10, 10): mean of [4, 4, 10, 10] = 7 → step 2 = 7 + 6
    expect(median.outputs[0].content[0].mean_forecast).toEqual([10, 10, 13]);
    await model.dispose();
  });

  it('rejects an unknown options.rollout naming the field', async () => {
    const dir = join(root, 'rule');
    await writeChronosFixtureRepo(dir, { contextLength: 8, predictionLength: 2, patchSize: 4, quantiles: [0.1, 0.5, 0.9] });
    const model = await loadChronosBolt(dir, { rollout: 'median' });
    expect(model.rollout).toBe('median');
    const bad = localForecaster(model).forecast({
      model: 'rule',
      inputs: [{ type: 'univariate_time_series', name: 'c', series: [1], frequency: 'D' }],
      options: { horizon: 3, rollout: 'paths' as 'median' },
    });
    await expect(bad).rejects.toMatchObject({ issues: [{ path: 'options.rollout' }] });
    await model.dispose();
  });
});
