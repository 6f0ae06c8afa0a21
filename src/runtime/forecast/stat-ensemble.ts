import { autoArima } from './arima/auto-arima.js';
import { BASELINE_LEVELS, type BaselineOptions } from './baseline-model.js';
import { combineQuantiles, type QuantileCombination } from './combine-quantiles.js';
import { headTask, holdoutLength, holdoutWeights } from './ensemble-weights.js';
import { autoEts } from './ets/auto-ets.js';
import type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from './forecast-model.js';
import { seasonalNaive } from './seasonal-naive.js';
import { theta } from './theta.js';

type TaskWarnings = NonNullable<ModelForecast['taskWarnings']>;
/** A member's forecast of each row (undefined where it failed), with its task warnings. */
type MemberRun = Array<Float32Array | undefined> & { taskWarnings?: TaskWarnings };

/** Options of {@link statEnsemble}. */
export interface StatEnsembleOptions extends BaselineOptions {
  /** How the members' quantiles combine: `mixture` (pooled samples), `mean` (per level, Vincentisation) or `median` (per level, unweighted). @default 'mixture' */
  combine?: QuantileCombination;
  /** `holdout`: each member also forecasts the series' last `horizon` values from before them, weight ∝ 1 / MAE² there (series of ≥ 3·horizon values); `equal`: 1/3 each. @default 'holdout' */
  weighting?: 'holdout' | 'equal';
}

const MEDIAN = BASELINE_LEVELS.indexOf(0.5);

/**
 * The statistical ensemble (default name `stat-ensemble`, served as `baseline/stat-ensemble`): per
 * series, the quantiles of the weighted mixture of AutoETS's, AutoARIMA's and Theta's forecast
 * distributions, each member weighted by 1 / MAE² of its forecast of the series' last `horizon`
 * values from before them. No `mean`: the point forecast (`mean_forecast` on the wire) is the
 * mixture's median, which beat the mean of the members' means in bench/ensemble-study.ts. A member
 * that throws on a series is left out of that series' mixture; if all three throw, the series gets
 * seasonal naive. Through `predictTasks` (the protocol's path) AutoARIMA reads `future_covariates`
 * and every fallback is reported on the input's output `warnings` (`model_fallback`).
 */
export function statEnsemble(options: StatEnsembleOptions = {}): ForecastModel {
  return ensembleOf([autoEts({ season: options.season }), autoArima({ season: options.season }), theta({ season: options.season })], options);
}

/**
 * The ensemble of {@link statEnsemble} over any `members` (offline models with any horizon and
 * {@link BASELINE_LEVELS}): members with `predictTasks` get the tasks (covariates), the others the series.
 */
export function ensembleOf(members: readonly ForecastModel[], options: StatEnsembleOptions = {}): ForecastModel {
  const fallback = seasonalNaive({ season: options.season });
  const name = options.name ?? 'stat-ensemble';
  const how = options.combine ?? 'mixture';
  const weighted = (options.weighting ?? 'holdout') === 'holdout';
  const readers = members.filter((m) => m.predictTasks !== undefined).map((m) => m.name).join(' and ') || 'no member';
  const blind = members.filter((m) => m.predictTasks === undefined).map((m) => m.name).join(' and ');
  /** Combines the members' runs over `rows` (the n series first, then the hold-out heads: `head[i]` is series i's row, -1 for none). */
  const combine = async (rows: Float32Array[], n: number, head: number[], horizon: number, opts: PredictOptions, run: (m: ForecastModel) => Promise<ModelForecast>, taskOf: (row: number) => number, tasks: number): Promise<ModelForecast> => {
    const warnings: TaskWarnings = [];
    const runs = await Promise.all(members.map((m) => settle(() => run(m), m, rows, horizon, opts)));
    const values: Float32Array[] = [];
    for (let i = 0; i < n; i++) {
      const ok = members.flatMap((m, k) => {
        if (runs[k][i] === undefined) {
          warnings.push({ task: taskOf(i), code: 'model_fallback', message: `${name}: member ${m.name} failed on this series and was left out of the combination` });
          return [];
        }
        return [k];
      });
      if (ok.length === 0) {
        const f = await fallback.predict([rows[i]], horizon, { ...opts, frequencies: opts.frequencies?.slice(i, i + 1) });
        warnings.push({ task: taskOf(i), code: 'model_fallback', message: `${name}: every member failed; answered by seasonal-naive` });
        values.push(f.values[0]);
        continue;
      }
      const heads = ok.map((k) => (head[i] < 0 ? undefined : runs[k][head[i]]?.subarray(MEDIAN * horizon, (MEDIAN + 1) * horizon)));
      const weights = weighted && head[i] >= 0 ? holdoutWeights(rows[i], horizon, heads) : undefined;
      values.push(combineQuantiles(ok.map((k) => runs[k][i] as Float32Array), BASELINE_LEVELS, horizon, how, weights));
    }
    for (const r of runs) {
      // Warnings about the hold-out heads (task indices past the call's) are the same as the series' own: dropped.
      warnings.push(...(r.taskWarnings ?? []).filter((w) => w.task < tasks));
    }
    return { levels: BASELINE_LEVELS, values, ...(warnings.length > 0 ? { taskWarnings: warnings } : {}) };
  };
  /** Rows and frequencies with a hold-out head appended for each series long enough (when weighting). */
  const withHeads = <T>(items: readonly T[], lengthOf: (t: T) => number, cut: (t: T, holdout: number) => T, horizon: number): { all: T[]; head: number[] } => {
    const all = [...items];
    const head = items.map((t) => (weighted && holdoutLength(lengthOf(t), horizon) > 0 ? all.push(cut(t, horizon)) - 1 : -1));
    return { all, head };
  };
  return {
    name,
    nativeHorizon: Number.POSITIVE_INFINITY,
    quantiles: BASELINE_LEVELS,
    patchSize: 1,
    predict: (batch, horizon, opts = {}) => {
      const { all, head } = withHeads(batch, (s) => s.length, (s, h) => s.subarray(0, s.length - h), horizon);
      const o = { ...opts, frequencies: rowFrequencies(opts.frequencies, all.length, head) };
      return combine(all, batch.length, head, horizon, o, (m) => m.predict(all, horizon, o), (i) => i, batch.length);
    },
    predictTasks: (tasks: readonly ForecastTask[], horizon, opts = {}) => {
      const { all, head: taskHead } = withHeads(tasks, (t) => t.targets[0]?.length ?? 0, headTask, horizon);
      const rows = all.flatMap((t) => t.targets);
      const taskOfRow = all.flatMap((t, ti) => t.targets.map(() => ti));
      const firstRow = all.map((_, ti) => taskOfRow.indexOf(ti));
      const n = tasks.reduce((a, t) => a + t.targets.length, 0);
      // Row r of task t has its hold-out head at the same offset in t's head task.
      const head = taskOfRow.slice(0, n).map((t, r) => (taskHead[t] < 0 ? -1 : firstRow[taskHead[t]] + r - firstRow[t]));
      const o = { ...opts, frequencies: rowFrequencies(opts.frequencies, rows.length, head) };
      const run = (m: ForecastModel): Promise<ModelForecast> => (m.predictTasks !== undefined ? m.predictTasks(all, horizon, o) : m.predict(rows, horizon, o));
      const noted: TaskWarnings = tasks.flatMap((t, ti) =>
        t.pastCovariates.length + t.futureCovariates.length > 0 ? [{ task: ti, code: 'covariates_ignored', message: `${name}: only ${readers} read${readers.includes(' and ') ? '' : 's'} covariates (future_covariates); ${blind} forecast from the series alone` }] : [],
      );
      return combine(rows, n, head, horizon, o, run, (r) => taskOfRow[r], tasks.length).then((f) => (noted.length > 0 ? { ...f, taskWarnings: [...noted, ...(f.taskWarnings ?? [])] } : f));
    },
    async dispose(): Promise<void> {},
  };
}

/** The frequency of every row: the series' own for the first ones, the series' for each hold-out head (`head[i]` = its row). */
function rowFrequencies<F>(frequencies: readonly F[] | undefined, rows: number, head: readonly number[]): F[] | undefined {
  if (frequencies === undefined) {
    return undefined;
  }
  const out = frequencies.slice(0, head.length);
  head.forEach((r, i) => {
    if (r >= 0) {
      out[r] = frequencies[i];
    }
  });
  return out.length === rows ? out : undefined;
}

/** A member's forecast per row (undefined where it failed or is not finite), the batch first, else row by row; its task warnings kept. */
async function settle(run: () => Promise<ModelForecast>, model: ForecastModel, rows: readonly Float32Array[], horizon: number, opts: PredictOptions): Promise<MemberRun> {
  try {
    const f = await run();
    const out: MemberRun = rows.map((_, i) => (f.values[i].every(Number.isFinite) ? f.values[i] : undefined));
    out.taskWarnings = f.taskWarnings;
    return out;
  } catch {
    return Promise.all(
      rows.map(async (s, i) => {
        try {
          const f = await model.predict([s], horizon, { ...opts, frequencies: opts.frequencies?.slice(i, i + 1) });
          return f.values[0].every(Number.isFinite) ? f.values[0] : undefined;
        } catch {
          return undefined;
        }
      }),
    );
  }
}
