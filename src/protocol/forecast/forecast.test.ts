import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema, type ForecastRequestInput } from '../../contract/forecast.js';
import type { Forecaster } from '../../contract/predictor.js';
import { writeChronosFixtureRepo } from '../../onnx/model-repo.js';
import type { ForecastModel } from '../../runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../runtime/forecast/load-chronos-bolt.js';
import { shortFloat32 } from './forecast.js';
import { localForecaster } from './local-forecaster.js';

// Rule fixture: context 8, native horizon 3, patch 4, levels 0.1/0.5/0.9, trend 1:
// out[level, h] = mean(last 8 present values) + (level - 0.5)·10 + (h + 1).
const C = 8;
const H = 3;
let root: string;
let model: ForecastModel;
let fc: Forecaster;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-fc-'));
  await writeChronosFixtureRepo(join(root, 'bolt-rule'), { contextLength: C, predictionLength: H, patchSize: 4, quantiles: [0.1, 0.5, 0.9], trend: 1 });
  model = await loadChronosBolt(join(root, 'bolt-rule'), { batchSize: 2 });
  fc = localForecaster(model);
});
afterAll(async () => {
  await model?.dispose();
  await rm(root, { recursive: true, force: true });
});

/** The rule, rolled out on the median independently of the code under test; `offset` = level's offset. */
function ruleRollout(series: Array<number | null>, horizon: number, offset: number): number[] {
  const ctx = series.filter((v): v is number => v !== null);
  const out: number[] = [];
  while (out.length < horizon) {
    const tail = ctx.slice(-C);
    const m = tail.reduce((a, b) => a + b, 0) / tail.length;
    const len = Math.min(H, horizon - out.length);
    for (let h = 0; h < len; h++) {
      out.push(m + offset + h + 1);
    }
    for (let h = 0; h < len; h++) {
      ctx.push(m + h + 1);
    }
  }
  return out;
}

const uni = (name: string, series: Array<number | null>, extra: Record<string, unknown> = {}) =>
  ({ type: 'univariate_time_series', name, series, frequency: 'D', ...extra }) as const;

describe('forecast (through the rule ONNX fixture)', () => {
  it('rolls out beyond the native horizon on the median with options.rollout "median" and interpolates any quantile level', async () => {
    const series = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const res = await fc.forecast({ model: 'bolt-rule', inputs: [uni('a', series)], options: { horizon: 8, quantiles: [0.1, 0.25, 0.05, 0.5, 0.95], rollout: 'median' } });
    expect(ForecastResponseSchema.safeParse(res).success).toBe(true);
    const [content] = res.outputs[0].content;
    const close = (got: unknown, want: number[]) => (got as number[]).forEach((v, h) => expect(v).toBeCloseTo(want[h], 4));
    close(content.mean_forecast, ruleRollout(series, 8, 0));
    expect(Object.keys(content.quantiles ?? {})).toEqual(['0.1', '0.25', '0.05', '0.5', '0.95']);
    close(content.quantiles?.['0.1'], ruleRollout(series, 8, -4));
    close(content.quantiles?.['0.25'], ruleRollout(series, 8, -2.5)); // 0.375 of the way from 0.1 (-4) to 0.5 (0)
    close(content.quantiles?.['0.05'], ruleRollout(series, 8, -4)); // clamped to the lowest level
    close(content.quantiles?.['0.95'], ruleRollout(series, 8, 4));
    expect(res.usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 }); // (12+4)//4, (8+4)//4
  });

  it('reassembles a multivariate input time first, variable by variable', async () => {
    const res = await fc.forecast({
      model: 'bolt-rule',
      inputs: [{ type: 'multivariate_time_series', name: 'm', series: [[1, 10], [3, null], [5, 30]], frequency: 'month', start_timestamp: '2024-01-31' }],
      options: { horizon: 2, quantiles: [0.9] },
    });
    const [content] = res.outputs[0].content;
    expect(content.mean_forecast).toEqual([[4, 21], [5, 22]]);
    expect(content.quantiles).toEqual({ '0.9': [[8, 25], [9, 26]] });
    expect(content.start_timestamp).toBe('2024-04-30');
    expect(res.usage?.prompt_tokens).toBe(2); // two variables of 3 values: (3+4)//4 each
  });

  it('marks an all-missing input as a per-output error and the response partial', async () => {
    const res = await fc.forecast({ model: 'bolt-rule', inputs: [uni('ok', [2, 4]), uni('empty', [null, null]), uni('ok2', [null, 6])], options: { horizon: 1 } });
    expect(res.status).toBe('partial');
    expect(res.error).toBeNull();
    expect(res.outputs.map((o) => o.status)).toEqual(['completed', 'error', 'completed']);
    expect(res.outputs[1]).toMatchObject({ content: [], error: { code: 'invalid_series', type: 'invalid_request_error', param: 'inputs[1].series' } });
    expect(res.outputs[1].error?.message).toBe('inputs[1].series ("empty") has no observed values (all missing); nothing to forecast from');
    expect(res.outputs[2].content[0].mean_forecast).toEqual([7]);
    expect(res.outputs[0].content[0].quantiles).toBeUndefined();
  });

  it('answers status error with the first failure when every input fails', async () => {
    const res = await fc.forecast({
      model: 'bolt-rule',
      inputs: [uni('a', [null]), { type: 'multivariate_time_series', name: 'b', series: [[1, null]], frequency: 'D' }],
      options: { horizon: 1 },
    });
    expect(res.status).toBe('error');
    expect(res.error).toMatchObject({ code: 'invalid_series', param: 'inputs[0].series', type: 'invalid_request_error' });
    expect(res.error?.message).toMatch(/^all 2 inputs failed; first: inputs\[0\]\.series/);
    expect(res.outputs[1].error?.message).toMatch(/^variable 1 of inputs\[1\]\.series \("b"\)/);
    expect(res.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });

  it('echoes model, metadata, other_properties and input extras; unique ids; default start', async () => {
    const request: ForecastRequestInput = {
      model: 'bolt-rule',
      inputs: [uni('a', [1, 2, 3, 4, 5], { item_id: 'sku-1' }), uni('b', [1], { start_timestamp: '2024-02-28T23:00:00.5+02:00', frequency: 'H' })],
      options: { horizon: 2, quantiles: [0.5] },
      metadata: { run: 7 },
      other_properties: ['x'],
    };
    const before = Math.floor(Date.now() / 1000);
    const res = await fc.forecast(request);
    expect(res).toMatchObject({ model: 'bolt-rule', status: 'completed', error: null, metadata: { run: 7 }, other_properties: ['x'] });
    expect(res.created_at).toBeGreaterThanOrEqual(before);
    const ids = [res.id, ...res.outputs.map((o) => o.id)];
    expect(new Set(ids).size).toBe(3);
    ids.forEach((id) => expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/));
    expect(res.outputs[0].content[0]).toMatchObject({ item_id: 'sku-1', start_timestamp: '1970-01-06T00:00:00Z', frequency: 'D' });
    expect(res.outputs[1].content[0]).toMatchObject({ start_timestamp: '2024-02-29T00:00:00.5+02:00', frequency: 'H' });
  });
});

describe('shortFloat32', () => {
  it('writes float32 values as their shortest round-tripping decimal', () => {
    expect(shortFloat32(Math.fround(1.1))).toBe(1.1);
    expect(shortFloat32(Math.fround(-123.456))).toBe(-123.456);
    expect(shortFloat32(Math.fround(1e-7))).toBe(1e-7);
    expect(shortFloat32(16777217)).toBe(16777216);
    const x = Math.fround(0.3333333);
    expect(Math.fround(shortFloat32(x))).toBe(x);
    expect(shortFloat32(Math.fround(3.4e38))).toBe(3.4e38);
    expect(shortFloat32(0)).toBe(0);
  });

  it('always reads back as the same float32, over many magnitudes', () => {
    for (let i = 0; i < 20_000; i++) {
      const f = Math.fround((Math.sin(i * 12.9898) - 0.5) * 10 ** ((i % 60) - 30));
      const y = shortFloat32(f);
      expect(Math.fround(y)).toBe(f);
      const significant = Math.abs(y).toExponential().split('e')[0].replace('.', '');
      expect(significant.length).toBeLessThanOrEqual(9);
    }
  });
});
