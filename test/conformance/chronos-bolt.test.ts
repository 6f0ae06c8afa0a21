import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Forecaster } from '../../src/contract/predictor.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import type { ForecastModel } from '../../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../src/runtime/forecast/load-chronos-bolt.js';

/**
 * Replays the official ChronosBoltPipeline's recorded answers (`../shared/conformance/chronos-bolt/`,
 * written by `scripts/record-chronos-bolt-conformance.py`: `model/` = the ONNX export with external
 * data, `cases.json` = `predict_quantiles` outputs) through inferkit. Skipped while the folder is absent;
 * the same semantics are tested on generated graphs in src/protocol/forecast/rollout-on-quantiles.test.ts.
 * `INFERKIT_CHRONOS_CONFORMANCE` points it at another recording folder.
 */
const DIR = process.env.INFERKIT_CHRONOS_CONFORMANCE ?? join(process.cwd(), '../shared/conformance/chronos-bolt');
const present = existsSync(join(DIR, 'cases.json')) && existsSync(join(DIR, 'model', 'config.json'));

const CaseSchema = z.object({
  name: z.string(),
  series: z.array(z.array(z.number().nullable())),
  prediction_length: z.number().int().positive(),
  quantile_levels: z.array(z.number()),
  quantiles: z.array(z.array(z.array(z.number()))), // [series][step][level]
  mean: z.array(z.array(z.number())), // [series][step]
});
const cases = present ? z.object({ cases: z.array(CaseSchema) }).parse(JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8'))).cases : [];

let model: ForecastModel;
let fc: Forecaster;
beforeAll(async () => {
  if (present) {
    model = await loadChronosBolt(join(DIR, 'model'), { name: 'bolt' });
    fc = localForecaster(model);
  }
});
afterAll(async () => {
  await model?.dispose();
});

describe.skipIf(!present)('Chronos-Bolt vs the official pipeline (recorded)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const res = await fc.forecast({
      model: 'bolt',
      inputs: c.series.map((s, i) => ({ type: 'univariate_time_series', name: `s${i}`, series: s, frequency: 'D' })),
      options: { horizon: c.prediction_length, quantiles: c.quantile_levels },
    });
    expect(res.status).toBe('completed');
    res.outputs.forEach((o, i) => {
      const got = o.content[0];
      const scale = Math.max(1, ...c.mean[i].map(Math.abs));
      const tol = 1e-4 * scale;
      (got.mean_forecast as number[]).forEach((v, h) => expect(Math.abs(v - c.mean[i][h]), `${c.name} s${i} mean step ${h}`).toBeLessThan(tol));
      for (let h = 0; h < c.prediction_length; h++) {
        // inferkit sorts crossing quantiles per step (src/server/README.md); the pipeline does not.
        const want = [...c.quantiles[i][h]].sort((a, b) => a - b);
        const mine = c.quantile_levels.map((q) => (got.quantiles?.[String(q)] as number[])[h]);
        mine.forEach((v, k) => expect(Math.abs(v - want[k]), `${c.name} s${i} step ${h} level ${c.quantile_levels[k]}`).toBeLessThan(tol));
      }
    });
  });
});
