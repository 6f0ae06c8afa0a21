/**
 * Accuracy of the offline models on the shipped data sets: rolling-origin MASE, WQL and 80%
 * interval coverage (3 folds) of naive, seasonal naive, Theta, AutoETS, AutoARIMA, MSTL and the stat-ensemble per frequency
 * group, fit CPU milliseconds per series and fold, the number of series each model is best on (lowest MASE), the mean over all 12 classic series (the issue-15 target: best mean MASE ≤ 1.21 with
 * coverage 0.75–0.85), and MSTL (periods 48 and 336) against seasonal naive (season 336) on the
 * half-hourly `taylor` electricity demand. Run: `npx tsx bench/accuracy.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { Frequency } from '../src/contract/enums.js';
import { loadDataset, type DatasetSeries } from '../src/eval/datasets.js';
import { evaluate, type EvalSeries, type Evaluation } from '../src/eval/evaluate.js';
import { autoArima } from '../src/runtime/forecast/arima/auto-arima.js';
import { autoEts } from '../src/runtime/forecast/ets/auto-ets.js';
import type { ForecastModel } from '../src/runtime/forecast/forecast-model.js';
import { mstl } from '../src/runtime/forecast/mstl/mstl.js';
import { seasonalNaive } from '../src/runtime/forecast/seasonal-naive.js';
import { statEnsemble } from '../src/runtime/forecast/stat-ensemble.js';
import { theta } from '../src/runtime/forecast/theta.js';

export interface AccuracyRow {
  group: string;
  series: number;
  /** Steps forecast per origin ("12/8/6" for the all-classic summary). */
  horizon: number | string;
  model: string;
  mase: number;
  wql: number;
  /** Share of actuals inside the 10%–90% quantile interval (pooled over series, folds and steps). */
  coverage: number;
  /** Seconds the backtest took. */
  seconds: number;
  /** CPU milliseconds (this process, user + system) per series and fold: one fit and forecast. */
  cpuMs?: number;
  /** Series of the group on which this model has the lowest MASE of all models (ties to each). */
  wins?: number;
}

/** Horizon per frequency (one season, or 6 years / 20 trading days). */
const HORIZON: Partial<Record<Frequency, number>> = { month: 12, quarter: 8, year: 6, day: 20 };

/** The models compared on the classic and stock data. */
function models(): ForecastModel[] {
  return [seasonalNaive({ season: 1, name: 'naive' }), seasonalNaive(), theta(), autoEts(), autoArima(), mstl(), statEnsemble()];
}

/** Reads `datasets/taylor.csv` (half-hourly, `timestamp,value`) as one series. */
async function timed(model: ForecastModel, series: readonly EvalSeries[], options: Parameters<typeof evaluate>[2]): Promise<[Evaluation, number, number]> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const e = await evaluate(model, series, options);
  const c = process.cpuUsage(c0);
  const fits = series.length * (options.folds ?? 1);
  return [e, (performance.now() - t0) / 1000, (c.user + c.system) / 1000 / fits];
}

/** Per group, how many series each model is best on (lowest MASE). */
function countWins(rows: AccuracyRow[], perSeries: Map<string, Map<string, number[]>>): void {
  for (const [group, byModel] of perSeries) {
    const models = [...byModel.keys()];
    const n = byModel.get(models[0])?.length ?? 0;
    const wins = new Map(models.map((m) => [m, 0]));
    for (let i = 0; i < n; i++) {
      const best = Math.min(...models.map((m) => byModel.get(m)?.[i] ?? Number.POSITIVE_INFINITY));
      for (const m of models) {
        if (byModel.get(m)?.[i] === best) {
          wins.set(m, (wins.get(m) ?? 0) + 1);
        }
      }
    }
    for (const r of rows) {
      if (r.group === group) {
        r.wins = wins.get(r.model);
      }
    }
  }
}

/** Scores every model on each frequency group, the classic summary and the half-hourly series. */
export async function runAccuracyBench(options: { root?: string; folds?: number } = {}): Promise<AccuracyRow[]> {
  const folds = options.folds ?? 3;
  const all = [...(await loadDataset('classic_series', options)), ...(await loadDataset('eu_stock_markets', options))];
  const groups = new Map<string, DatasetSeries[]>();
  for (const s of all) {
    const key = s.frequency === 'day' ? 'eu_stock_markets (daily)' : `classic ${s.frequency}ly`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const rows: AccuracyRow[] = [];
  const perSeries = new Map<string, Map<string, number[]>>();
  for (const model of models()) {
    // One untimed call first, so the CPU per fit is the compiled code's, not the JIT's first pass.
    await model.predict([Float32Array.from(all[0].values.slice(0, 96), (v) => v ?? Number.NaN)], 12, { frequencies: ['month'] });
    const classic = { mase: 0, wql: 0, n: 0, inside: 0, present: 0, seconds: 0 };
    for (const [group, series] of groups) {
      const horizon = HORIZON[series[0].frequency] ?? 12;
      const [e, seconds, cpuMs] = await timed(model, series, { horizon, folds });
      rows.push({ group, series: series.length, horizon, model: model.name, mase: e.mase, wql: e.wql, coverage: e.coverage, seconds, cpuMs });
      perSeries.set(group, (perSeries.get(group) ?? new Map<string, number[]>()).set(model.name, e.series.map((s) => s.mase)));
      if (group.startsWith('classic')) {
        const present = e.series.reduce((a, s) => a + s.folds * horizon, 0);
        classic.mase += e.series.reduce((a, s) => a + s.mase, 0);
        classic.wql += e.series.reduce((a, s) => a + s.wql, 0);
        classic.n += series.length;
        classic.inside += e.coverage * present;
        classic.present += present;
        classic.seconds += seconds;
      }
    }
    const c = classic;
    rows.push({ group: 'classic, all', series: c.n, horizon: '12/8/6', model: model.name, mase: c.mase / c.n, wql: c.wql / c.n, coverage: c.inside / c.present, seconds: c.seconds });
  }
  countWins(rows, perSeries);
  const taylor: EvalSeries[] = (await loadDataset('taylor', options)).map((s) => ({ name: s.name, values: s.values, frequency: s.frequency }));
  const halfHourly: ForecastModel[] = [
    seasonalNaive({ season: 48, name: 'seasonal-naive (48)' }),
    seasonalNaive({ season: 336, name: 'seasonal-naive (336)' }),
    autoEts({ season: 48, name: 'auto-ets (48)' }),
    mstl({ name: 'mstl (30min → 48, 336)' }),
  ];
  for (const horizon of [48, 336]) {
    for (const model of halfHourly) {
      const [e, seconds, cpuMs] = await timed(model, taylor, { horizon, folds: horizon === 48 ? 7 : folds, season: 336 });
      rows.push({ group: `taylor (half-hourly, ${horizon === 48 ? '7 days' : '3 weeks'})`, series: 1, horizon, model: model.name, mase: e.mase, wql: e.wql, coverage: e.coverage, seconds, cpuMs });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAccuracyBench()
    .then((rows) => {
      console.log('| data (series) | horizon | model | MASE | WQL | 80% coverage | best on | CPU ms / fit | seconds |');
      console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
      for (const r of rows) {
        console.log(`| ${r.group} (${r.series}) | ${r.horizon} | ${r.model} | ${r.mase.toFixed(3)} | ${r.wql.toFixed(4)} | ${r.coverage.toFixed(3)} | ${r.wins ?? ''} | ${r.cpuMs?.toFixed(1) ?? ''} | ${r.seconds.toFixed(2)} |`);
      }
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
