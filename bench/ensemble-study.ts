/**
 * How to build the statistical ensemble (issue 27): member sets × ways to combine their quantiles
 * (per-level mean = Vincentisation, per-level median, the members' mixture = pooled samples),
 * scored by the rolling-origin backtest of bench/accuracy.ts per frequency group (MASE of the
 * median, WQL, 80% coverage). Each member forecasts each (series, origin) once; the variants reuse
 * those forecasts. `--root DIR` scores the series of `DIR/datasets/classic_series.csv` instead of
 * the shipped data (a held-out set: bench/ensemble-heldout.R writes 20 more of R's series). Run:
 * `npx tsx bench/ensemble-study.ts`. What it found is in src/runtime/forecast/README.md.
 */
import { pathToFileURL } from 'node:url';
import type { Frequency } from '../src/contract/enums.js';
import { loadDataset, type DatasetSeries } from '../src/eval/datasets.js';
import { evaluate, type Evaluation } from '../src/eval/evaluate.js';
import { autoArima } from '../src/runtime/forecast/arima/auto-arima.js';
import { BASELINE_LEVELS } from '../src/runtime/forecast/baseline-model.js';
import { combineQuantiles, type QuantileCombination } from '../src/runtime/forecast/combine-quantiles.js';
import { autoEts } from '../src/runtime/forecast/ets/auto-ets.js';
import type { ForecastModel, ModelForecast } from '../src/runtime/forecast/forecast-model.js';
import { mstl } from '../src/runtime/forecast/mstl/mstl.js';
import { seasonalNaive } from '../src/runtime/forecast/seasonal-naive.js';
import { theta } from '../src/runtime/forecast/theta.js';

const HORIZON: Partial<Record<Frequency, number>> = { month: 12, quarter: 8, year: 6, day: 20 };
const LETTER: Record<string, string> = { 'auto-ets': 'E', 'auto-arima': 'A', theta: 'T', mstl: 'M', 'seasonal-naive': 'S' };

/** A model whose forecasts are computed once per (series content, horizon, frequency). */
function memo(model: ForecastModel): ForecastModel {
  const cache = new Map<string, Float32Array>();
  const key = (s: Float32Array, h: number, f: string | undefined) => `${s.length}:${s.reduce((a, v, i) => a + (Number.isNaN(v) ? 0 : v * (1 + (i % 7))), 0)}:${h}:${f}`;
  return {
    ...model,
    predict: async (batch, horizon, opts = {}) => {
      const todo = batch.map((_, i) => i).filter((i) => !cache.has(key(batch[i], horizon, opts.frequencies?.[i])));
      if (todo.length > 0) {
        const f = await model.predict(todo.map((i) => batch[i]), horizon, { frequencies: todo.map((i) => opts.frequencies?.[i] ?? 'month') });
        todo.forEach((i, r) => cache.set(key(batch[i], horizon, opts.frequencies?.[i]), f.values[r]));
      }
      return { levels: BASELINE_LEVELS, values: batch.map((s, i) => cache.get(key(s, horizon, opts.frequencies?.[i])) as Float32Array) };
    },
  };
}

/** An ensemble variant over memoised members. */
function variant(members: ForecastModel[], how: QuantileCombination): ForecastModel {
  return {
    name: `${members.map((m) => LETTER[m.name]).join('')} ${how}`,
    nativeHorizon: Number.POSITIVE_INFINITY,
    quantiles: BASELINE_LEVELS,
    predict: async (batch, horizon, opts): Promise<ModelForecast> => {
      const runs = await Promise.all(members.map((m) => m.predict(batch, horizon, opts)));
      return { levels: BASELINE_LEVELS, values: batch.map((_, i) => combineQuantiles(runs.map((r) => r.values[i]), BASELINE_LEVELS, horizon, how)) };
    },
    dispose: async () => undefined,
  };
}

/**
 * Mixture with weights from a hold-out: each member also forecasts from `horizon` steps before the
 * end; weight ∝ 1 / its MAE there (`power` sharpens it; Infinity = the best member alone).
 */
function weighted(members: ForecastModel[], power: number, how: 'mixture' | 'mean' = 'mixture', origins = 1): ForecastModel {
  return {
    name: `${members.map((m) => LETTER[m.name]).join('')} ${how} 1/MAE^${power}${origins > 1 ? ` (${origins} origins)` : ''}`,
    nativeHorizon: Number.POSITIVE_INFINITY,
    quantiles: BASELINE_LEVELS,
    predict: async (batch, horizon, opts = {}): Promise<ModelForecast> => {
      const runs = await Promise.all(members.map((m) => m.predict(batch, horizon, opts)));
      const ok = batch.map((s) => s.length - origins * horizon >= 2 * horizon);
      const mae = batch.map(() => members.map(() => 0));
      for (let j = 1; j <= origins; j++) {
        const heads = batch.map((s, i) => (ok[i] ? s.subarray(0, s.length - j * horizon) : s));
        const val = await Promise.all(members.map((m) => m.predict(heads, horizon, opts)));
        batch.forEach((s, i) =>
          val.forEach((r, k) => {
            let a = 0;
            let n = 0;
            for (let h = 0; h < horizon; h++) {
              const y = s[s.length - j * horizon + h];
              if (!Number.isNaN(y)) {
                a += Math.abs(y - r.values[i][7 * horizon + h]);
                n++;
              }
            }
            mae[i][k] += n > 0 ? a / n / origins : Number.NaN;
          }),
        );
      }
      return {
        levels: BASELINE_LEVELS,
        values: batch.map((_, i) => {
          const e = mae[i];
          const best = Math.min(...e);
          const w = !ok[i] || !e.every(Number.isFinite) ? undefined : power === Number.POSITIVE_INFINITY ? e.map((x) => (x === best ? 1 : 0)) : e.map((x) => 1 / Math.max(x, 1e-9 * (1 + best)) ** power);
          return combineQuantiles(runs.map((r) => r.values[i]), BASELINE_LEVELS, horizon, how, w);
        }),
      };
    },
    dispose: async () => undefined,
  };
}

interface Row { group: string; model: string; mase: number; wql: number; coverage: number; perSeries: number[] }

export async function runEnsembleStudy(options: { root?: string; folds?: number } = {}): Promise<Row[]> {
  const folds = options.folds ?? 3;
  const all: DatasetSeries[] = [...(await loadDataset('classic_series', options)), ...(options.root === undefined ? await loadDataset('eu_stock_markets', options) : [])];
  const groups = new Map<string, DatasetSeries[]>();
  for (const s of all) {
    const key = s.frequency === 'day' ? 'daily' : `${s.frequency}ly`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const [E, A, T, M, S] = [autoEts(), autoArima(), theta(), mstl(), seasonalNaive()].map(memo);
  const sets = [[E, A, T], [E, A, T, M], [E, A, M], [E, A], [E, T], [A, T], [E, A, T, M, S]];
  const models: ForecastModel[] = [E, A, T, M, S, weighted([E, A, T], 1), weighted([E, A, T], 2), weighted([E, A, T], Number.POSITIVE_INFINITY), weighted([E, A, T, M], 1), weighted([E, A, T], 2, 'mean'), weighted([E, A], 2), weighted([E, A, T, M], 2), weighted([E, A, T], 2, 'mixture', 2), weighted([E, A, T], 1, 'mixture', 2), ...sets.flatMap((set) => (['mean', 'median', 'mixture'] as const).filter((how) => set.length > 2 || how !== 'median').map((how) => variant(set, how)))];
  const rows: Row[] = [];
  for (const [group, series] of groups) {
    const horizon = HORIZON[series[0].frequency] ?? 12;
    for (const model of models) {
      const e: Evaluation = await evaluate(model, series, { horizon, folds });
      rows.push({ group: `${group} (${series.length})`, model: model.name, mase: e.mase, wql: e.wql, coverage: e.coverage, perSeries: e.series.map((s) => s.mase) });
    }
  }
  // Every group together: mean over series of MASE and WQL is not comparable across groups' WQL scales, so MASE and coverage only.
  for (const model of models) {
    const mine = rows.filter((r) => r.model === model.name && !r.group.startsWith('daily'));
    const ms = mine.flatMap((r) => r.perSeries).filter(Number.isFinite);
    rows.push({ group: 'all but daily', model: model.name, mase: ms.reduce((a, b) => a + b, 0) / ms.length, wql: Number.NaN, coverage: mine.reduce((a, r) => a + r.coverage, 0) / mine.length, perSeries: ms });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--root');
  runEnsembleStudy(at > 0 ? { root: process.argv[at + 1] } : {})
    .then((rows) => {
      console.log('| group | model | MASE | WQL | 80% coverage |');
      console.log('|---|---|---:|---:|---:|');
      for (const r of rows) {
        console.log(`| ${r.group} | ${r.model} | ${r.mase.toFixed(3)} | ${r.wql.toFixed(4)} | ${r.coverage.toFixed(3)} |`);
      }
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
