import type { AccuracyRow } from '../accuracy.js';
import { formatNumber, formatRatio } from './stats.js';
import type { Table } from './table.js';

/** Options run-all hands to every benchmark. */
export interface RunAllBenchOptions {
  quick: boolean;
  threads: number;
  long: boolean;
  cacheDir: string;
  log: (line: string) => void;
}

/**
 * How run-all calls one benchmark: the option objects of each call (results are concatenated)
 * and how to turn each result into something `normalizeResult` renders well.
 */
export interface BenchAdapter {
  calls(o: RunAllBenchOptions): Record<string, unknown>[];
  render?(value: unknown, call: Record<string, unknown>): unknown;
}

/** Default: one call with run-all's options. */
export const DEFAULT_ADAPTER: BenchAdapter = { calls: (o) => [{ ...o }] };

interface ForecastRow {
  series: number;
  horizon: number;
  inferkitSeriesPerS: number;
  rawSeriesPerS: number;
  overheadPct: number;
}

function isForecastRows(v: unknown): v is { rows: ForecastRow[]; grouping?: { grouped: number; plain: number } } {
  return typeof v === 'object' && v !== null && Array.isArray((v as { rows?: unknown }).rows);
}

/**
 * bench/forecast.ts (`runForecastBench`): it has no `quick`, so sizes are chosen here (quick: 1 and
 * 8 series, horizon 64; full: 1, 64, 256 series at horizon 64, and 1, 64 at 256 with rollout),
 * and its `{rows, grouping}` becomes a table with the inferkit/raw ratio.
 */
export const FORECAST_ADAPTER: BenchAdapter = {
  calls(o) {
    const base = { threads: o.threads, cacheDir: o.cacheDir, context: 512, batchSize: 64 };
    if (o.quick) {
      return [{ ...base, seriesCounts: [1, 8], horizons: [64], repeats: 2, budgetS: 3, grouping: false }];
    }
    return [
      { ...base, seriesCounts: [1, 64, 256], horizons: [64], repeats: 3, budgetS: 20 },
      { ...base, seriesCounts: [1, 64], horizons: [256], repeats: 3, budgetS: 20, grouping: false },
    ];
  },
  render(value, call) {
    if (!isForecastRows(value)) {
      return value;
    }
    const table: Table = {
      title: `Forecast throughput, Chronos-Bolt-small-shaped graph, context ${String(call.context)} (horizon 256 = rollout on the median)`,
      headers: ['series', 'horizon', 'raw ORT series/s (limit)', 'inferkit series/s', 'inferkit / raw', 'overhead'],
      rows: value.rows.map((r) => [
        r.series.toLocaleString('en-US'),
        String(r.horizon),
        formatNumber(r.rawSeriesPerS),
        formatNumber(r.inferkitSeriesPerS),
        formatRatio(r.inferkitSeriesPerS, r.rawSeriesPerS),
        `${r.overheadPct.toFixed(1)}%`,
      ]),
      notes: ['Medians of bench/forecast.ts (raw = the same chunks through InferenceSession.run, median appended for the rollout; inferkit = forecast() building the full response).'],
    };
    const tables = [table];
    if (value.grouping) {
      const g = value.grouping;
      tables.push({
        title: 'Grouping series by length (256 series of 16–512 points, horizon 64)',
        headers: ['chunking', 'series/s', 'vs input order'],
        rows: [
          ['input order', formatNumber(g.plain), '1.00×'],
          ['grouped by length (default)', formatNumber(g.grouped), formatRatio(g.grouped, g.plain)],
        ],
      });
    }
    return { tables };
  },
};


/** bench/accuracy.ts (`runAccuracyBench`): rows of MASE/WQL/coverage per data group and model. */
export const ACCURACY_ADAPTER: BenchAdapter = {
  calls: () => [{}],
  render(value) {
    if (!Array.isArray(value)) {
      return value;
    }
    const rows = value as AccuracyRow[];
    return {
      tables: [
        {
          title: 'Rolling-origin backtest of the offline models (3 folds; MASE/WQL lower is better, 80% coverage should be near 0.80)',
          headers: ['data (series)', 'horizon', 'model', 'MASE', 'WQL', '80% coverage'],
          rows: rows.map((r) => [`${r.group} (${r.series})`, String(r.horizon), r.model, r.mase.toFixed(3), r.wql.toFixed(4), r.coverage.toFixed(3)]),
        },
      ],
    };
  },
};
