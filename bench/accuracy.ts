/**
 * Baseline accuracy on the shipped data sets: rolling-origin MASE and WQL (3 folds) of naive,
 * seasonal naive and Theta. Run: `npx tsx bench/accuracy.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { Frequency } from '../src/contract/enums.js';
import { loadDataset, type DatasetSeries } from '../src/eval/datasets.js';
import { evaluate } from '../src/eval/evaluate.js';
import type { ForecastModel } from '../src/runtime/forecast/forecast-model.js';
import { seasonalNaive } from '../src/runtime/forecast/seasonal-naive.js';
import { theta } from '../src/runtime/forecast/theta.js';

export interface AccuracyRow {
  group: string;
  series: number;
  horizon: number;
  model: string;
  mase: number;
  wql: number;
}

/** Horizon per frequency (one season, or 6 years / 20 trading days). */
const HORIZON: Partial<Record<Frequency, number>> = { month: 12, quarter: 8, year: 6, day: 20 };

/** Scores every baseline on each frequency group of the data sets. */
export async function runAccuracyBench(options: { root?: string; folds?: number } = {}): Promise<AccuracyRow[]> {
  const all = [...(await loadDataset('classic_series', options)), ...(await loadDataset('eu_stock_markets', options))];
  const groups = new Map<string, DatasetSeries[]>();
  for (const s of all) {
    const key = s.frequency === 'day' ? 'eu_stock_markets (daily)' : `classic ${s.frequency}ly`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const models: ForecastModel[] = [seasonalNaive({ season: 1, name: 'naive' }), seasonalNaive(), theta()];
  const rows: AccuracyRow[] = [];
  for (const [group, series] of groups) {
    const horizon = HORIZON[series[0].frequency] ?? 12;
    for (const model of models) {
      const e = await evaluate(model, series, { horizon, folds: options.folds ?? 3 });
      rows.push({ group, series: series.length, horizon, model: model.name, mase: e.mase, wql: e.wql });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAccuracyBench()
    .then((rows) => {
      console.log('| data (series) | horizon | model | MASE | WQL |');
      console.log('|---|---:|---|---:|---:|');
      for (const r of rows) {
        console.log(`| ${r.group} (${r.series}) | ${r.horizon} | ${r.model} | ${r.mase.toFixed(3)} | ${r.wql.toFixed(4)} |`);
      }
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
