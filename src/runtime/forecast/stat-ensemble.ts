import { autoArima } from './arima/auto-arima.js';
import { BASELINE_LEVELS, type BaselineOptions } from './baseline-model.js';
import { autoEts } from './ets/auto-ets.js';
import type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from './forecast-model.js';
import { seasonalNaive } from './seasonal-naive.js';
import { theta } from './theta.js';

type TaskWarnings = NonNullable<ModelForecast['taskWarnings']>;

/**
 * The statistical ensemble (default name `stat-ensemble`, served as `baseline/stat-ensemble`): per
 * series, the mean of AutoETS's, AutoARIMA's and Theta's forecasts — each quantile level averaged
 * across the three (Vincentisation), and the means averaged. A member that throws on a series is
 * left out of that series' average; if all three throw, the series gets seasonal naive. Through
 * `predictTasks` (the protocol's path) AutoARIMA reads `future_covariates` and every fallback is
 * reported on the input's output `warnings` (`model_fallback`).
 */
export function statEnsemble(options: BaselineOptions = {}): ForecastModel {
  const arima = autoArima({ season: options.season });
  const members: ForecastModel[] = [autoEts({ season: options.season }), arima, theta({ season: options.season })];
  const fallback = seasonalNaive({ season: options.season });
  const name = options.name ?? 'stat-ensemble';
  const combine = async (batch: readonly Float32Array[], horizon: number, opts: PredictOptions, arimaRun: () => Promise<ModelForecast>, series: (row: number) => number): Promise<ModelForecast> => {
    const warnings: TaskWarnings = [];
    const runs = await Promise.all(members.map((m) => settle(m === arima ? arimaRun : () => m.predict(batch, horizon, opts), m, batch, horizon, opts)));
    const values: Float32Array[] = [];
    const mean: Float32Array[] = [];
    for (let i = 0; i < batch.length; i++) {
      const ok = runs.map((r) => r[i]).filter((f): f is { values: Float32Array; mean: Float32Array } => f !== undefined);
      members.forEach((m, k) => {
        if (runs[k][i] === undefined) {
          warnings.push({ task: series(i), code: 'model_fallback', message: `${name}: member ${m.name} failed on this series and was left out of the average` });
        }
      });
      if (ok.length === 0) {
        const f = await fallback.predict([batch[i]], horizon, opts);
        warnings.push({ task: series(i), code: 'model_fallback', message: `${name}: every member failed; answered by seasonal-naive` });
        values.push(f.values[0]);
        mean.push(f.mean?.[0] ?? new Float32Array(horizon));
        continue;
      }
      values.push(average(ok.map((f) => f.values)));
      mean.push(average(ok.map((f) => f.mean)));
    }
    for (const r of runs) {
      warnings.push(...(r.taskWarnings ?? []));
    }
    return { levels: BASELINE_LEVELS, values, mean, ...(warnings.length > 0 ? { taskWarnings: warnings } : {}) };
  };
  return {
    name,
    nativeHorizon: Number.POSITIVE_INFINITY,
    quantiles: BASELINE_LEVELS,
    patchSize: 1,
    predict: (batch, horizon, opts = {}) => combine(batch, horizon, opts, () => arima.predict(batch, horizon, opts), (i) => i),
    predictTasks: (tasks: readonly ForecastTask[], horizon, opts = {}) => {
      const batch = tasks.flatMap((t) => t.targets);
      const taskOfRow = tasks.flatMap((t, ti) => t.targets.map(() => ti));
      const arimaRun = (): Promise<ModelForecast> => (arima.predictTasks !== undefined ? arima.predictTasks(tasks, horizon, opts) : arima.predict(batch, horizon, opts));
      const noted: TaskWarnings = tasks.flatMap((t, ti) =>
        t.pastCovariates.length + t.futureCovariates.length > 0 ? [{ task: ti, code: 'covariates_ignored', message: `${name}: only the AutoARIMA member reads covariates (future_covariates); AutoETS and Theta forecast from the series alone` }] : [],
      );
      return combine(batch, horizon, opts, arimaRun, (i) => taskOfRow[i]).then((f) => (noted.length > 0 ? { ...f, taskWarnings: [...noted, ...(f.taskWarnings ?? [])] } : f));
    },
    async dispose(): Promise<void> {},
  };
}

/** A member's forecast per series (undefined where it failed), the batch first, else series by series; its task warnings kept. */
async function settle(
  run: () => Promise<ModelForecast>,
  model: ForecastModel,
  batch: readonly Float32Array[],
  horizon: number,
  opts: PredictOptions,
): Promise<Array<{ values: Float32Array; mean: Float32Array } | undefined> & { taskWarnings?: TaskWarnings }> {
  try {
    const f = await run();
    const out: Array<{ values: Float32Array; mean: Float32Array } | undefined> & { taskWarnings?: TaskWarnings } = batch.map((_, i) =>
      f.values[i].every(Number.isFinite) && (f.mean?.[i] ?? []).every(Number.isFinite) ? { values: f.values[i], mean: f.mean?.[i] ?? f.values[i].subarray(7 * horizon, 8 * horizon) } : undefined,
    );
    out.taskWarnings = f.taskWarnings;
    return out;
  } catch {
    return Promise.all(
      batch.map(async (s) => {
        try {
          const f = await model.predict([s], horizon, opts);
          return { values: f.values[0], mean: f.mean?.[0] ?? f.values[0].subarray(7 * horizon, 8 * horizon) };
        } catch {
          return undefined;
        }
      }),
    );
  }
}

/** Element-wise mean of equally long arrays. */
function average(xs: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(xs[0].length);
  for (const x of xs) {
    for (let j = 0; j < out.length; j++) {
      out[j] += x[j] / xs.length;
    }
  }
  return out;
}
