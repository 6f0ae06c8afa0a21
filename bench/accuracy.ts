/**
 * Accuracy of the offline models on the shipped data sets: rolling-origin MASE, WQL and 80%
 * interval coverage (3 folds) of naive, seasonal naive, Theta, AutoETS and MSTL per frequency
 * group, the mean over all 12 classic series (the issue-15 target: best mean MASE ≤ 1.21 with
 * coverage 0.75–0.85), and MSTL (periods 48 and 336) against seasonal naive (season 336) on the
 * half-hourly `taylor` electricity demand. Run: `npx tsx bench/accuracy.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { Frequency } from '../src/contract/enums.js';
import { loadDataset, type DatasetSeries } from '../src/eval/datasets.js';
import { evaluate, type EvalSeries, type Evaluation } from '../src/eval/evaluate.js';
import { autoEts } from '../src/runtime/forecast/ets/auto-ets.js';
import type { ForecastModel } from '../src/runtime/forecast/forecast-model.js';
import { mstl } from '../src/runtime/forecast/mstl/mstl.js';
import { seasonalNaive } from '../src/runtime/forecast/seasonal-naive.js';
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
}

/** Horizon per frequency (one season, or 6 years / 20 trading days). */
const HORIZON: Partial<Record<Frequency, number>> = { month: 12, quarter: 8, year: 6, day: 20 };

/** The models compared on the classic and stock data. */
function models(): ForecastModel[] {
  return [seasonalNaive({ season: 1, name: 'naive' }), seasonalNaive(), theta(), autoEts(), mstl()];
}

/** Reads `datasets/taylor.csv` (half-hourly, `timestamp,value`) as one series. */
async function timed(model: ForecastModel, series: readonly EvalSeries[], options: Parameters<typeof evaluate>[2]): Promise<[Evaluation, number]> {
  const t0 = performance.now();
  const e = await evaluate(model, series, options);
  return [e, (performance.now() - t0) / 1000];
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
  for (const model of models()) {
    const classic = { mase: 0, wql: 0, n: 0, inside: 0, present: 0, seconds: 0 };
    for (const [group, series] of groups) {
      const horizon = HORIZON[series[0].frequency] ?? 12;
      const [e, seconds] = await timed(model, series, { horizon, folds });
      rows.push({ group, series: series.length, horizon, model: model.name, mase: e.mase, wql: e.wql, coverage: e.coverage, seconds });
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
  const taylor: EvalSeries[] = (await loadDataset('taylor', options)).map((s) => ({ name: s.name, values: s.values, frequency: s.frequency }));
  const halfHourly: ForecastModel[] = [
    seasonalNaive({ season: 48, name: 'seasonal-naive (48)' }),
    seasonalNaive({ season: 336, name: 'seasonal-naive (336)' }),
    autoEts({ season: 48, name: 'auto-ets (48)' }),
    mstl({ name: 'mstl (30min → 48, 336)' }),
  ];
  for (const horizon of [48, 336]) {
    for (const model of halfHourly) {
      const [e, seconds] = await timed(model, taylor, { horizon, folds: horizon === 48 ? 7 : folds, season: 336 });
      rows.push({ group: `taylor (half-hourly, ${horizon === 48 ? '7 days' : '3 weeks'})`, series: 1, horizon, model: model.name, mase: e.mase, wql: e.wql, coverage: e.coverage, seconds });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAccuracyBench()
    .then((rows) => {
      console.log('| data (series) | horizon | model | MASE | WQL | 80% coverage | seconds |');
      console.log('|---|---:|---|---:|---:|---:|---:|');
      for (const r of rows) {
        console.log(`| ${r.group} (${r.series}) | ${r.horizon} | ${r.model} | ${r.mase.toFixed(3)} | ${r.wql.toFixed(4)} | ${r.coverage.toFixed(3)} | ${r.seconds.toFixed(2)} |`);
      }
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
