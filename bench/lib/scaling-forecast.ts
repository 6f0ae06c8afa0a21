import { theta } from '../../src/runtime/forecast/theta.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { benchForecastRequest, benchSeries } from './bench-series.js';
import type { BenchOptions } from './bench-result.js';
import { openBoltContenders } from './forecast-contenders.js';
import { BOLT_SMALL, BOLT_TINY, cachedBoltRepo } from './graph-cache.js';
import { measureInterleaved, type Measurement } from './measure.js';
import { formatNumber, formatRatio, formatSummary } from './stats.js';
import type { Table } from './table.js';

const QUANTILES = [0.1, 0.5, 0.9];

interface Sweep {
  /** Axis value (series count or series length). */
  x: number;
  count: number;
  length: number;
}

/** Options of the forecast scaling sweeps. */
export interface ForecastScalingOptions extends BenchOptions {
  /** Bolt-like series counts up to 10,000 (slow on 2 cores: minutes). @default false */
  long?: boolean;
}

function measureOpts(quick: boolean | undefined, first: boolean, work: number) {
  // Big points run once or twice: the sessions are warm from the smaller points before them.
  const big = work >= 50_000;
  return { warmup: first || !big ? 1 : 0, runs: big ? 2 : quick ? 3 : 5, budgetMs: quick ? 3_000 : 30_000, minRuns: 1 };
}

/**
 * Forecast cost vs series count and vs series length on the bolt-like graph (Chronos-Bolt-small
 * shape; tiny with `quick`): raw ORT on the pre-built chunks, inferkit `model.predict`, inferkit
 * end to end (`localForecaster.forecast`, 3 quantiles).
 */
export async function boltScaling(options: ForecastScalingOptions): Promise<Table[]> {
  const log = options.log ?? (() => undefined);
  const shape = options.quick ? BOLT_TINY : BOLT_SMALL;
  const dir = await cachedBoltRepo(shape);
  const c = await openBoltContenders(dir, shape, options.threads);
  const H = shape.predictionLength;
  const counts = options.quick ? [1, 10, 100, 1000] : options.long ? [1, 10, 100, 1000, 10_000] : [1, 10, 100, 1000];
  const lengths = [64, 256, 1024, 4096];
  const byCount: Sweep[] = counts.map((n) => ({ x: n, count: n, length: 64 }));
  const byLength: Sweep[] = lengths.map((l) => ({ x: l, count: 8, length: l }));
  const run = async (sweep: Sweep[], label: string) => {
    const rows: string[][] = [];
    for (const [i, s] of sweep.entries()) {
      log(`scaling/bolt ${label}: ${s.count} series × ${s.length}`);
      const series = benchSeries(s.count, s.length, s.x);
      const m = await measureInterleaved(
        {
          raw: c.rawRunner(series),
          predict: c.predictRunner(series, H),
          forecast: c.forecastRunner(benchForecastRequest('bolt', series, H, QUANTILES)),
        },
        measureOpts(options.quick, i === 0, s.count * Math.min(s.length, shape.contextLength)),
      );
      rows.push(boltRow(s, label, m));
    }
    return rows;
  };
  try {
    const countRows = await run(byCount, 'count');
    const lengthRows = await run(byLength, 'length');
    const headers = (axis: string, unit: string) => [axis, 'raw ORT ms', 'inferkit predict ms', 'inferkit forecast ms', `raw ${unit}`, `forecast ${unit}`, 'predict / raw', 'forecast / raw'];
    const what = options.quick ? 'tiny bolt-like graph' : 'Chronos-Bolt-small-shaped graph (d 512, 6 layers)';
    return [
      { title: `Forecast vs number of series (${what}, 64 points each, horizon ${H})`, headers: headers('series', 'ms/series'), rows: countRows },
      {
        title: `Forecast vs series length (${what}, 8 series, horizon ${H}, context_length ${shape.contextLength})`,
        headers: headers('points', 'µs/point'),
        rows: lengthRows,
        notes: [
          `Series longer than context_length (${shape.contextLength}) are cut to their last ${shape.contextLength} points, so cost stops growing there; per-point cost counts the points sent.`,
          'Ratios are throughput ratios (raw ms ÷ inferkit ms); "forecast" includes request parsing (zod), quantile interpolation and building the response.',
        ],
      },
    ];
  } finally {
    await c.dispose();
  }
}

function boltRow(s: Sweep, label: string, m: Record<'raw' | 'predict' | 'forecast', Measurement>): string[] {
  const per = (ms: number) => (label === 'count' ? formatNumber(ms / s.count) : formatNumber((ms * 1000) / (s.count * s.length)));
  return [
    label === 'count' ? s.count.toLocaleString('en-US') : s.length.toLocaleString('en-US'),
    formatSummary(m.raw),
    formatSummary(m.predict),
    formatSummary(m.forecast),
    per(m.raw.median),
    per(m.forecast.median),
    formatRatio(m.raw.median, m.predict.median),
    formatRatio(m.raw.median, m.forecast.median),
  ];
}

/** The Theta baseline: `model.predict` (the runtime) vs inferkit end to end, vs series count and length. */
export async function baselineScaling(options: BenchOptions): Promise<Table[]> {
  const log = options.log ?? (() => undefined);
  const model = theta({ name: 'theta' });
  const forecaster = localForecaster(model);
  const H = 24;
  const counts = options.quick ? [1, 10, 100, 1000] : [1, 10, 100, 1000, 10_000];
  const lengths = [64, 256, 1024, 4096];
  const sweep = async (points: Sweep[], label: string) => {
    const rows: string[][] = [];
    for (const [i, s] of points.entries()) {
      log(`scaling/theta ${label}: ${s.count} series × ${s.length}`);
      const series = benchSeries(s.count, s.length, s.x);
      const batch = series.map((v) => Float32Array.from(v));
      const frequencies = series.map(() => 'month' as const);
      const request = benchForecastRequest('theta', series, H, QUANTILES);
      const m = await measureInterleaved(
        { predict: () => model.predict(batch, H, { frequencies }), forecast: () => forecaster.forecast(request) },
        measureOpts(options.quick, i === 0, s.count * s.length),
      );
      const per = (ms: number) => (label === 'count' ? formatNumber(ms / s.count) : formatNumber((ms * 1000) / (s.count * s.length)));
      rows.push([
        (label === 'count' ? s.count : s.length).toLocaleString('en-US'),
        formatSummary(m.predict),
        formatSummary(m.forecast),
        per(m.predict.median),
        per(m.forecast.median),
        formatRatio(m.predict.median, m.forecast.median),
      ]);
    }
    return rows;
  };
  const headers = (axis: string, unit: string) => [axis, 'theta predict ms', 'inferkit forecast ms', `predict ${unit}`, `forecast ${unit}`, 'forecast / predict'];
  return [
    {
      title: `Theta baseline vs number of series (128 points each, horizon ${H})`,
      headers: headers('series', 'ms/series'),
      rows: await sweep(counts.map((n) => ({ x: n, count: n, length: 128 })), 'count'),
    },
    {
      title: `Theta baseline vs series length (100 series, horizon ${H})`,
      headers: headers('points', 'µs/point'),
      rows: await sweep(lengths.map((l) => ({ x: l, count: 100, length: l })), 'length'),
      notes: ['For a baseline the "limit" is its own `predict` (no ONNX); the ratio shows what the protocol layer (parsing, quantile interpolation, response) costs.'],
    },
  ];
}
