import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ForecastResponse } from '../../src/contract/forecast.js';
import { tempDir } from '../fixtures/temp-dirs.js';

/**
 * The official ChronosBoltPipeline's recorded answers (`../shared/conformance/chronos-bolt/`, written by
 * `scripts/record-chronos-bolt-conformance.py`: `model/` = config.json, model.safetensors and the ONNX export,
 * `cases.json` = `predict_quantiles` outputs, `raw-predictions.json` = `predict`), and the one check every
 * replay (ONNX export, built graph, served) applies. `INFERKIT_CHRONOS_CONFORMANCE` points at another folder.
 */
export const CONFORMANCE_DIR = process.env.INFERKIT_CHRONOS_CONFORMANCE ?? join(process.cwd(), '../shared/conformance/chronos-bolt');
/** True when the recording is there (the tests skip otherwise). */
export const conformancePresent = existsSync(join(CONFORMANCE_DIR, 'cases.json')) && existsSync(join(CONFORMANCE_DIR, 'model', 'config.json'));

const CaseSchema = z.object({
  name: z.string(),
  series: z.array(z.array(z.number().nullable())),
  prediction_length: z.number().int().positive(),
  quantile_levels: z.array(z.number()),
  quantiles: z.array(z.array(z.array(z.number()))), // [series][step][level]
  mean: z.array(z.array(z.number())), // [series][step]
});
/** One recorded case. */
export type ConformanceCase = z.infer<typeof CaseSchema>;
/** Every recorded case (empty when the recording is absent). */
export const conformanceCases: ConformanceCase[] = conformancePresent ? z.object({ cases: z.array(CaseSchema) }).parse(JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'cases.json'), 'utf8'))).cases : [];

/** `pipeline.predict` on the same inputs: the model's raw levels, [series][level][step]. */
const RawSchema = z.object({
  levels: z.array(z.number()),
  cases: z.array(z.object({ name: z.string(), predictions: z.array(z.array(z.array(z.number()))) })),
});
const raw = conformancePresent ? RawSchema.parse(JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'raw-predictions.json'), 'utf8'))) : { levels: [], cases: [] };

/** The forecast request of a case, for model `model`. */
export function caseRequest(c: ConformanceCase, model: string): { model: string; inputs: { type: 'univariate_time_series'; name: string; series: (number | null)[]; frequency: string }[]; options: { horizon: number; quantiles: number[] } } {
  return {
    model,
    inputs: c.series.map((s, i) => ({ type: 'univariate_time_series' as const, name: `s${i}`, series: s, frequency: 'D' })),
    options: { horizon: c.prediction_length, quantiles: c.quantile_levels },
  };
}

/**
 * A copy of the recording's model folder with only what Amazon publishes on the hub — `config.json` and
 * `model.safetensors`, no `onnx/` — in a fresh temp folder (returned).
 */
export function checkpointOnlyCopy(): string {
  const dir = join(tempDir('inferkit-bolt-ckpt-'), 'chronos-bolt');
  mkdirSync(dir);
  for (const f of ['config.json', 'model.safetensors']) {
    copyFileSync(join(CONFORMANCE_DIR, 'model', f), join(dir, f));
  }
  return dir;
}

/**
 * inferkit's rule (src/server/README.md): per step, sort the model's raw levels (removing crossing), then
 * read level q linearly between model levels, clamped beyond the outer ones. The pipeline instead pads
 * the *unsorted* outer outputs and interpolates before anything is sorted, so on a crossing model its
 * interpolated levels are not a sorting of inferkit's (the set's README); model levels agree either way.
 */
function sortedThenInterpolated(levels: number[], atStep: number[], q: number): number {
  const v = [...atStep].sort((a, b) => a - b);
  if (q <= levels[0]) {return v[0];}
  if (q >= levels[levels.length - 1]) {return v[v.length - 1];}
  const k = levels.findIndex((l) => l >= q);
  if (levels[k] === q) {return v[k];}
  const w = (q - levels[k - 1]) / (levels[k] - levels[k - 1]);
  return v[k - 1] + w * (v[k] - v[k - 1]);
}

/**
 * Asserts `res` answers case `c` as the pipeline did, within 1e-4 × max(1, max |mean|) of each series:
 * `mean_forecast` = the recorded mean; model levels = the pipeline's answer sorted per step; every level
 * = the pipeline's raw levels sorted per step, then interpolated.
 */
export function expectMatchesRecording(res: ForecastResponse, c: ConformanceCase): void {
  expect(res.status).toBe('completed');
  expect(res.outputs).toHaveLength(c.series.length);
  res.outputs.forEach((o, i) => {
    const got = o.content[0];
    const tol = 1e-4 * Math.max(1, ...c.mean[i].map(Math.abs));
    (got.mean_forecast as number[]).forEach((v, h) => expect(Math.abs(v - c.mean[i][h]), `${c.name} s${i} mean step ${h}`).toBeLessThan(tol));
    const rawLevels = raw.cases.find((r) => r.name === c.name)?.predictions[i];
    expect(rawLevels, `${c.name}: raw-predictions.json has series ${i}`).toBeDefined();
    const modelLevelsOnly = c.quantile_levels.every((q) => raw.levels.includes(q));
    for (let h = 0; h < c.prediction_length; h++) {
      const atStep = raw.levels.map((_, l) => (rawLevels as number[][])[l][h]);
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
}
