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
/** `pipeline.predict` on the same inputs: the model's raw levels, [series][level][step]. */
const RawSchema = z.object({
  levels: z.array(z.number()),
  cases: z.array(z.object({ name: z.string(), predictions: z.array(z.array(z.array(z.number()))) })),
});
const raw = present ? RawSchema.parse(JSON.parse(readFileSync(join(DIR, 'raw-predictions.json'), 'utf8'))) : { levels: [], cases: [] };

/**
 * inferkit's rule (src/server/README.md): per step, sort the model's raw levels (removing crossing), then
 * read level q linearly between model levels, clamped beyond the outer ones. The pipeline instead pads
 * the *unsorted* outer outputs and interpolates before anything is sorted, so on a crossing model its
 * interpolated levels are not a sorting of inferkit's (the set's README); model levels agree either way.
 */
function sortedThenInterpolated(levels: number[], atStep: number[], q: number): number {
  const v = [...atStep].sort((a, b) => a - b);
  if (q <= levels[0]) return v[0];
  if (q >= levels[levels.length - 1]) return v[v.length - 1];
  const k = levels.findIndex((l) => l >= q);
  if (levels[k] === q) return v[k];
  const w = (q - levels[k - 1]) / (levels[k] - levels[k - 1]);
  return v[k - 1] + w * (v[k] - v[k - 1]);
}

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
      const rawLevels = raw.cases.find((r) => r.name === c.name)?.predictions[i];
      expect(rawLevels, `${c.name}: raw-predictions.json has series ${i}`).toBeDefined();
      const modelLevelsOnly = c.quantile_levels.every((q) => raw.levels.includes(q));
      for (let h = 0; h < c.prediction_length; h++) {
        const atStep = raw.levels.map((_, l) => rawLevels![l][h]);
        const mine = c.quantile_levels.map((q) => (got.quantiles?.[String(q)] as number[])[h]);
        // The pipeline's own answer, sorted per step (inferkit removes crossing; the pipeline does not):
        // exact for model levels, where both rules pick the same values.
        if (modelLevelsOnly) {
          const want = [...c.quantiles[i][h]].sort((a, b) => a - b);
          mine.forEach((v, k) => expect(Math.abs(v - want[k]), `${c.name} s${i} step ${h} level ${c.quantile_levels[k]}`).toBeLessThan(tol));
        }
        // Between model levels: the pipeline's raw levels, sorted, then interpolated.
        c.quantile_levels.forEach((q, k) =>
          expect(Math.abs(mine[k] - sortedThenInterpolated(raw.levels, atStep, q)), `${c.name} s${i} step ${h} level ${q} (sorted raw)`).toBeLessThan(tol),
        );
      }
    });
  });
});
