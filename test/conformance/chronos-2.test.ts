import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import type { ForecastRequestInput, ForecastResponse, TimeSeriesInputFields } from '../../src/contract/forecast.js';
import type { Forecaster } from '../../src/contract/predictor.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import type { Chronos2Model } from '../../src/runtime/forecast/chronos-2/create-chronos-2.js';
import { loadChronos2 } from '../../src/runtime/forecast/chronos-2/load-chronos-2.js';
import type { ForecastTask } from '../../src/runtime/forecast/forecast-model.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { isvc } from '../integration/server-http.js';
import { tempDir } from '../fixtures/temp-dirs.js';

/**
 * Replays every case of the official Chronos2Pipeline's recording (`../shared/conformance/chronos-2/`: a tiny
 * random-weight checkpoint, `cases.json`) from `model.safetensors`: the graph is built into a temp cache. In the
 * kernel through `predictTasks` (the raw 21 levels, `cross_learning` and `context_length` included) and through
 * the forecast protocol (localForecaster) and a real server (remote client), where `quantiles` follow inferkit's
 * rule — per step the raw levels sorted, then interpolated (the random model's levels cross everywhere) — and
 * `mean_forecast` is the pipeline's `mean` (the raw 0.5 level). Tolerance: the set's README (1e-4 × the task's
 * scale; 1e-3 for the long-horizon unroll). `INFERKIT_CHRONOS2_CONFORMANCE` points it at another copy.
 */
const DIR = process.env.INFERKIT_CHRONOS2_CONFORMANCE ?? join(process.cwd(), '../shared/conformance/chronos-2');
const present = existsSync(join(DIR, 'cases.json')) && existsSync(join(DIR, 'model', 'model.safetensors'));

type Values = (number | null)[];
type Series = Values | Values[]; // 1-d, or [variates][T]
interface DictInput {
  target: Series;
  past_covariates?: Record<string, Values>;
  future_covariates?: Record<string, Values>;
}
interface Case {
  name: string;
  input_kind: 'list' | 'dicts' | 'array3d';
  inputs: Series[] | DictInput[] | Values[][];
  prediction_length: number;
  predict_kwargs: { cross_learning?: boolean; context_length?: number };
  quantile_levels: number[];
  predictions: number[][][][]; // [task][variate][21][h]
  mean: number[][][]; // [task][variate][h]
}
const set = present ? (JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')) as { model_quantiles: number[]; cases: Case[] }) : { model_quantiles: [], cases: [] };
const LEVELS = set.model_quantiles;

const f32 = (v: Values): Float32Array => Float32Array.from(v, (x) => x ?? Number.NaN);
const rows = (s: Series): Values[] => (Array.isArray(s[0]) ? (s as Values[]) : [s as Values]);
/** Every case's tasks as the pipeline reads them: `{ target, past_covariates, future_covariates }`. */
function tasksOf(c: Case): DictInput[] {
  if (c.input_kind === 'dicts') {return c.inputs as DictInput[];}
  return (c.inputs as Series[]).map((target) => ({ target }));
}
function forecastTask(t: DictInput): ForecastTask {
  const future = t.future_covariates ?? {};
  const names = Object.keys(t.past_covariates ?? {});
  return {
    targets: rows(t.target).map(f32),
    pastCovariates: names.filter((n) => !(n in future)).map((n) => f32(t.past_covariates?.[n] ?? [])),
    futureCovariates: names.filter((n) => n in future).map((n) => ({ history: f32(t.past_covariates?.[n] ?? []), future: f32(future[n]) })),
  };
}
function wireInput(t: DictInput, i: number): TimeSeriesInputFields {
  const r = rows(t.target);
  const multi = Array.isArray(t.target[0]);
  return {
    type: multi ? 'multivariate_time_series' : 'univariate_time_series',
    name: `task${i}`,
    series: multi ? r[0].map((_, step) => r.map((v) => v[step])) : r[0],
    frequency: 'H',
    ...(t.past_covariates ? { past_covariates: t.past_covariates } : {}),
    ...(t.future_covariates ? { future_covariates: t.future_covariates } : {}),
  };
}
const tolerance = (c: Case): number => (c.name.startsWith('long-horizon') ? 1e-3 : 1e-4);
const scaleOf = (task: number[][][]): number => Math.max(1, ...task.flat(2).map(Math.abs));
/** inferkit's quantile rule on the pipeline's raw levels at one step: sorted, then linear between levels, clamped. */
function sortedThenInterpolated(atStep: number[], q: number): number {
  const v = [...atStep].sort((a, b) => a - b);
  if (q <= LEVELS[0]) {return v[0];}
  if (q >= LEVELS[LEVELS.length - 1]) {return v[v.length - 1];}
  const k = LEVELS.findIndex((l) => l >= q);
  if (LEVELS[k] === q) {return v[k];}
  return v[k - 1] + ((q - LEVELS[k - 1]) / (LEVELS[k] - LEVELS[k - 1])) * (v[k] - v[k - 1]);
}
/** Cases the wire can express (cross_learning and context_length are pipeline arguments, not request fields). */
const wireCases = set.cases.filter((c) => Object.keys(c.predict_kwargs).length === 0);

function checkResponse(c: Case, res: ForecastResponse): void {
  expect(res.status, JSON.stringify(res.error)).toBe('completed');
  res.outputs.forEach((o, i) => {
    expect(o.warnings).toBeUndefined();
    const got = o.content[0];
    const expected = c.predictions[i];
    const tol = tolerance(c) * scaleOf(expected);
    const multi = got.type === 'multivariate_time_series';
    const at = (path: unknown, v: number, h: number): number => (multi ? (path as number[][])[h][v] : (path as number[])[h]);
    expected.forEach((levels, v) => {
      for (let h = 0; h < c.prediction_length; h++) {
        expect(Math.abs(at(got.mean_forecast, v, h) - c.mean[i][v][h]), `${c.name} task ${i} variate ${v} mean step ${h}`).toBeLessThan(tol);
        const step = levels.map((l) => l[h]);
        for (const q of c.quantile_levels) {
          const want = sortedThenInterpolated(step, q);
          expect(Math.abs(at(got.quantiles?.[String(q)], v, h) - want), `${c.name} task ${i} variate ${v} q${q} step ${h}`).toBeLessThan(tol);
        }
      }
    });
  });
}

const request = (c: Case): ForecastRequestInput => ({
  model: 'chronos2',
  inputs: tasksOf(c).map(wireInput),
  options: { horizon: c.prediction_length, quantiles: c.quantile_levels },
});

let model: Chronos2Model;
let fc: Forecaster;
let server: RunningServer;
beforeAll(async () => {
  if (!present) {return;}
  const cacheDir = tempDir('inferkit-c2-cache-');
  model = await loadChronos2(join(DIR, 'model'), { name: 'chronos2', cacheDir });
  fc = localForecaster(model);
  server = await serve([isvc('chronos2', { args: [`--model_id=${join(DIR, 'model')}`, '--task=time_series_forecast'] })], { port: 0, loaders: defaultLoaders({ cacheDir: tempDir('inferkit-c2-served-') }) });
  await server.loaded();
}, 120_000);
afterAll(async () => {
  await model?.dispose();
  await server?.close();
});

describe.skipIf(!present)('Chronos-2 from model.safetensors vs the official pipeline (recorded)', () => {
  it.each(set.cases.map((c) => [c.name, c] as const))('%s: predictTasks gives the pipeline raw levels', async (_, c) => {
    const { cross_learning, context_length } = c.predict_kwargs;
    const out = await model.predictTasks(tasksOf(c).map(forecastTask), c.prediction_length, {
      ...(cross_learning !== undefined ? { crossLearning: cross_learning } : {}),
      ...(context_length !== undefined ? { contextLength: context_length } : {}),
    });
    expect(out.levels).toEqual(LEVELS);
    let row = 0;
    c.predictions.forEach((task, i) => {
      const tol = tolerance(c) * scaleOf(task);
      task.forEach((levels, v) => {
        const got = out.values[row++];
        let worst = 0;
        levels.forEach((path, q) => path.forEach((want, h) => (worst = Math.max(worst, Math.abs(got[q * c.prediction_length + h] - want)))));
        expect(worst, `${c.name} task ${i} variate ${v}`).toBeLessThan(tol);
      });
    });
    expect(row).toBe(out.values.length);
  });

  it.each(wireCases.map((c) => [c.name, c] as const))('%s: in the kernel through the forecast protocol', async (_, c) => {
    checkResponse(c, await fc.forecast(request(c)));
  });

  it.each(wireCases.map((c) => [c.name, c] as const))('%s: served (remote client, real server)', async (_, c) => {
    const client = remote({ baseUrl: server.url }, { modelName: 'chronos2' });
    checkResponse(c, await client.forecast(request(c)));
  });
});
