/**
 * Forecast throughput: inferkit (`forecast()` on a Chronos-Bolt-small-shaped ONNX graph, full
 * response built) vs raw `InferenceSession.run` on the same tensors (the limit). Also measures
 * grouping series by length against plain chunking. Run: `npx tsx bench/forecast.ts [--full]`.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ForecastRequest } from '../src/contract/forecast.js';
import { writeChronosFixtureRepo } from '../src/onnx/model-repo.js';
import { forecast } from '../src/protocol/forecast/forecast.js';
import { createSession, float32Tensor, type OrtSession } from '../src/runtime/ort.js';
import { loadChronosBolt } from '../src/runtime/forecast/load-chronos-bolt.js';

export interface ForecastBenchOptions {
  /** @default [1, 64, 1024] */
  seriesCounts?: number[];
  /** @default [64, 256] (256 = rollout: 4 model calls) */
  horizons?: number[];
  /** Points per series. @default 512 */
  context?: number;
  /** Series per ONNX run. @default 64 */
  batchSize?: number;
  /** Intra-op threads of both sessions. @default 2 */
  threads?: number;
  /** Timed runs per cell (each side), fewer when a run is slow (`budgetS`). @default 3 */
  repeats?: number;
  /** Seconds of timed runs per cell and side before stopping early (≥ 1 run). @default 15 */
  budgetS?: number;
  /** Where the generated graph is cached. @default ~/.cache/inferkit-bench */
  cacheDir?: string;
  /** Also time grouping by length vs input order on mixed lengths. @default true */
  grouping?: boolean;
}

export interface ForecastBenchRow {
  series: number;
  horizon: number;
  inferkitSeriesPerS: number;
  rawSeriesPerS: number;
  overheadPct: number;
}

const Q9 = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const BOLT_SMALL = { kind: 'bolt-like', contextLength: 2048, predictionLength: 64, patchSize: 16, quantiles: Q9, dModel: 512, layers: 6, heads: 8, dFF: 2048, seed: 1 } as const;

/** Generates (once) the Chronos-Bolt-small-shaped repo and returns its folder. */
export async function boltSmallRepo(cacheDir = join(homedir(), '.cache', 'inferkit-bench')): Promise<string> {
  const dir = join(cacheDir, 'chronos-bolt-small-like');
  if (!existsSync(join(dir, 'onnx', 'model.onnx'))) {
    await writeChronosFixtureRepo(dir, BOLT_SMALL);
  }
  return dir;
}

function makeSeries(n: number, len: number, seed = 0): Float32Array[] {
  return Array.from({ length: n }, (_, i) => Float32Array.from({ length: len }, (_, t) => 100 + 10 * Math.sin((t + i + seed) / 7) + ((t * 7919 + i) % 13)));
}

/** Raw path: same chunks, `session.run`, median appended for the rollout (the request asks for `rollout: "median"`; bench/rollout.ts times the default all-quantile rollout). */
async function rawForecast(session: OrtSession, series: Float32Array[], horizon: number, batchSize: number): Promise<void> {
  const H = BOLT_SMALL.predictionLength;
  for (let start = 0; start < series.length; start += batchSize) {
    const rows = series.slice(start, start + batchSize);
    let time = rows[0].length;
    let data = new Float32Array(rows.length * time);
    rows.forEach((r, i) => data.set(r, i * time));
    for (let done = 0; done < horizon; done += H) {
      const out = (await session.run({ context: float32Tensor(data, [rows.length, time]) })).quantile_preds.data as Float32Array;
      if (done + H >= horizon) {
        break;
      }
      const next = new Float32Array(rows.length * (time + H));
      for (let i = 0; i < rows.length; i++) {
        next.set(data.subarray(i * time, (i + 1) * time), i * (time + H));
        next.set(out.subarray((i * 9 + 4) * H, (i * 9 + 5) * H), i * (time + H) + time);
      }
      data = next;
      time += H;
    }
  }
}

function request(series: Float32Array[], horizon: number): ForecastRequest {
  return {
    model: 'bench',
    inputs: series.map((s, i) => ({ type: 'univariate_time_series', name: `s${i}`, series: Array.from(s), frequency: 'hour', start_timestamp: '2024-01-01T00:00:00Z' })),
    options: { horizon, quantiles: [0.1, 0.5, 0.9], rollout: 'median' }, // as rawForecast: the median rollout
  };
}

/** Median seconds of `a` and `b`, timed alternately (so load from other processes hits both alike). */
async function timePair(a: () => Promise<unknown>, b: () => Promise<unknown>, repeats: number, budgetS: number): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  const started = performance.now();
  while (ta.length < repeats && (ta.length === 0 || performance.now() - started < 2 * budgetS * 1000)) {
    for (const [fn, into] of [[a, ta], [b, tb]] as const) {
      const t0 = performance.now();
      await fn();
      into.push((performance.now() - t0) / 1000);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [median(ta), median(tb)];
}

/** Runs the throughput table; returns its rows (and prints them when run as a script). */
export async function runForecastBench(opts: ForecastBenchOptions = {}): Promise<{ rows: ForecastBenchRow[]; grouping?: { grouped: number; plain: number } }> {
  const { seriesCounts = [1, 64, 1024], horizons = [64, 256], context = 512, batchSize = 64, threads = 2, repeats = 3, budgetS = 15 } = opts;
  const dir = await boltSmallRepo(opts.cacheDir);
  const session = { intraOpThreads: threads };
  const model = await loadChronosBolt(dir, { name: 'bench', batchSize, session });
  const raw = await createSession(join(dir, 'onnx', 'model.onnx'), session);
  const rows: ForecastBenchRow[] = [];
  await rawForecast(raw, makeSeries(2, context), 64, batchSize); // warm-up
  await forecast(model, request(makeSeries(2, context), 64));
  for (const horizon of horizons) {
    for (const n of seriesCounts) {
      const series = makeSeries(n, context);
      const req = request(series, horizon);
      const [tRaw, tInf] = await timePair(() => rawForecast(raw, series, horizon, batchSize), () => forecast(model, req, { maxHorizon: 10_000 }), repeats, budgetS);
      rows.push({ series: n, horizon, inferkitSeriesPerS: n / tInf, rawSeriesPerS: n / tRaw, overheadPct: (tInf / tRaw - 1) * 100 });
    }
  }
  if (opts.grouping === false) {
    await Promise.all([model.dispose(), raw.release()]);
    return { rows };
  }
  // Mixed lengths (16…512): grouping by length vs chunking in input order.
  const mixed = Array.from({ length: 256 }, (_, i) => makeSeries(1, 16 + ((i * 97) % 497), i)[0]);
  const plainModel = await loadChronosBolt(dir, { name: 'bench', batchSize, session, groupByLength: false });
  const [tGrouped, tPlain] = await timePair(() => model.predict(mixed, 64), () => plainModel.predict(mixed, 64), repeats, budgetS);
  await Promise.all([model.dispose(), plainModel.dispose(), raw.release()]);
  return { rows, grouping: { grouped: mixed.length / tGrouped, plain: mixed.length / tPlain } };
}

function printTables(r: Awaited<ReturnType<typeof runForecastBench>>): void {
  console.log('| series | horizon | inferkit series/s | raw run series/s | overhead |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const x of r.rows) {
    console.log(`| ${x.series} | ${x.horizon} | ${x.inferkitSeriesPerS.toFixed(1)} | ${x.rawSeriesPerS.toFixed(1)} | ${x.overheadPct.toFixed(1)}% |`);
  }
  if (r.grouping) {
    console.log(`\n256 series of 16…512 points, horizon 64: grouped by length ${r.grouping.grouped.toFixed(1)} series/s, input order ${r.grouping.plain.toFixed(1)} series/s (${(r.grouping.grouped / r.grouping.plain).toFixed(2)}×)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const full = process.argv.includes('--full');
  const threads = Number(process.argv.find((a) => a.startsWith('--threads='))?.slice(10) ?? 2);
  // Default (< 5 min on 2 cores): 1, 64, 256 series; --full adds 1,024 (≈ 100 s per run and side on 2 cores).
  const counts = full ? [1, 64, 256, 1024] : [1, 64, 256];
  const run = async (): Promise<void> => {
    const base = await runForecastBench({ seriesCounts: counts, horizons: [64], threads });
    const roll = await runForecastBench({ seriesCounts: counts.filter((n) => full || n <= 64), horizons: [256], threads, grouping: false });
    printTables({ rows: [...base.rows, ...roll.rows], grouping: base.grouping });
  };
  run().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
