import { DataFrame } from 'danfojs-node';
import { pathToFileURL } from 'node:url';
import { batchForecast } from '../src/data/batch-forecast.js';
import { frameToInputs } from '../src/data/frame-to-inputs.js';
import { localForecaster } from '../src/protocol/forecast/local-forecaster.js';
import type { ForecastModel } from '../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../src/runtime/forecast/load-chronos-bolt.js';
import { seasonalNaive } from '../src/runtime/forecast/seasonal-naive.js';
import { theta } from '../src/runtime/forecast/theta.js';
import { benchSeries } from './lib/bench-series.js';
import type { BenchOptions, BenchResult } from './lib/bench-result.js';
import { BOLT_SMALL, BOLT_TINY, cachedBoltRepo } from './lib/graph-cache.js';
import { measure } from './lib/measure.js';
import { RssSampler } from './lib/rss.js';
import { formatMiB, formatNumber, formatRatio, formatSummary, rateOf } from './lib/stats.js';
import { renderTable } from './lib/table.js';

const LENGTH = 48;
const HORIZON = 12;
const QUANTILES = [0.1, 0.5, 0.9];

/** A long DataFrame (id, timestamp, value) of `count` monthly series of {@link LENGTH} points from 2000-01. */
export function benchFrame(count: number): DataFrame {
  const series = benchSeries(count, LENGTH, 3);
  const months = Array.from({ length: LENGTH }, (_, t) => new Date(Date.UTC(2000, t, 1)).toISOString());
  const id: string[] = [];
  const timestamp: string[] = [];
  const value: number[] = [];
  series.forEach((s, i) => {
    for (let t = 0; t < LENGTH; t++) {
      id.push(`s${i}`);
      timestamp.push(months[t]);
      value.push(s[t]);
    }
  });
  return new DataFrame({ id, timestamp, value });
}

interface Case {
  label: string;
  model: ForecastModel;
  counts: number[];
}

/**
 * `batchForecast` of 1k and 10k series (100 and 1k with `quick`) from a danfojs DataFrame, in the
 * kernel: the model's own `predict` on ready Float32Arrays (the limit), `frameToInputs` alone,
 * `batchForecast` from inputs and from the frame (chunks of 64, 4 in flight, 3 quantiles).
 * Seasonal naive and Theta for every size (Theta only the smallest with `quick`); the bolt-like graph for the smallest size.
 */
export async function runBatchForecastBench(options: BenchOptions = {}): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const counts = options.quick ? [100, 1000] : [1000, 10_000];
  const boltShape = options.quick ? BOLT_TINY : BOLT_SMALL;
  const bolt = await loadChronosBolt(await cachedBoltRepo(boltShape), { name: 'bolt', batchSize: 64, session: { intraOpThreads: options.threads ?? 1 } });
  const cases: Case[] = [
    { label: 'seasonal naive', model: seasonalNaive({ name: 'snaive' }), counts },
    { label: 'theta', model: theta({ name: 'theta' }), counts: options.quick ? [counts[0]] : counts },
    { label: options.quick ? 'bolt-like (tiny)' : 'bolt-like (small shape)', model: bolt, counts: [counts[0]] },
  ];
  const peak = new RssSampler().start();
  const rows: string[][] = [];
  try {
    for (const count of counts) {
      log(`batch-forecast: building a DataFrame of ${count} series × ${LENGTH}`);
      const t0 = performance.now();
      const frame = benchFrame(count);
      const buildMs = performance.now() - t0;
      const inputs = frameToInputs(frame, { idColumn: 'id', frequency: 'month' });
      const batch = inputs.map((s) => Float32Array.from(s.series as number[]));
      const frequencies = inputs.map(() => 'month' as const);
      for (const c of cases.filter((k) => k.counts.includes(count))) {
        log(`batch-forecast: ${c.label}, ${count} series`);
        const forecaster = localForecaster(c.model);
        const heavy = c.model === bolt;
        const opts = { warmup: 1, runs: heavy || count >= 10_000 ? 2 : 3, budgetMs: options.quick ? 5_000 : 60_000 };
        const rowRss = new RssSampler().start();
        const limit = await measure(() => c.model.predict(batch, Math.min(HORIZON, c.model.nativeHorizon), { frequencies }), opts);
        const convert = await measure(() => frameToInputs(frame, { idColumn: 'id', frequency: 'month' }), opts);
        const fromInputs = await measure(() => batchForecast(inputs, forecaster, { horizon: HORIZON, quantiles: QUANTILES }), opts);
        const fromFrame = await measure(async () => {
          const r = await batchForecast(frame, forecaster, { horizon: HORIZON, quantiles: QUANTILES, idColumn: 'id', frequency: 'month' });
          if (r.status !== 'completed' || r.forecasts.length !== count) {
            throw new Error(`batch forecast ${r.status}: ${r.failures[0]?.error.message}`);
          }
        }, opts);
        const rss = rowRss.stop();
        rows.push([
          count.toLocaleString('en-US'),
          c.label,
          formatSummary(limit),
          formatSummary(convert),
          formatSummary(fromInputs),
          formatSummary(fromFrame),
          formatNumber(rateOf(fromFrame, count).median),
          formatRatio(limit.median, fromFrame.median),
          formatMiB(rss.peakBytes),
        ]);
      }
      log(`batch-forecast: DataFrame of ${count} series built in ${buildMs.toFixed(0)} ms`);
    }
  } finally {
    await bolt.dispose();
  }
  return {
    peakRssBytes: peak.stop().peakBytes,
    tables: [
      {
        title: `Batch forecast from a DataFrame (${LENGTH} monthly points per series, horizon ${HORIZON}, quantiles 0.1/0.5/0.9, chunks of 64, 4 in flight)`,
        headers: ['series', 'model', 'predict ms (limit)', 'frameToInputs ms', 'batchForecast(inputs) ms', 'batchForecast(frame) ms', 'series/s (frame)', 'frame / limit', 'peak RSS'],
        rows,
        notes: [
          '"predict" is the model alone on ready Float32Arrays (no frame, no protocol): the limit. "frame / limit" is a throughput ratio.',
          'batchForecast(frame) = frameToInputs + batchForecast(inputs); the difference between the two batchForecast columns is the frame conversion.',
          `The bolt-like rows use a ${options.quick ? 'tiny' : 'Chronos-Bolt-small-shaped (d 512, 6 layers)'} random graph, so only their speed means something. Peak RSS is the process's, sampled during the row.`,
        ],
      },
    ],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  runBatchForecastBench({ quick: argv.includes('--quick'), log: (l) => process.stderr.write(`${l}\n`) }).then(
    (r) => process.stdout.write(`${r.tables.map(renderTable).join('\n\n')}\n`),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
