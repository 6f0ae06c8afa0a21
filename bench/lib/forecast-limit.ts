import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { planContextChunks } from '../../src/runtime/forecast/context-batch.js';
import { theta } from '../../src/runtime/forecast/theta.js';
import { createLocalSession, createSession, float32Tensor } from '../../src/runtime/ort.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { benchForecastRequest, benchSeries } from './bench-series.js';
import { cachedBoltRepo, type BoltShape } from './graph-cache.js';
import { p99 } from './load-client.js';
import { runLoadInChild } from './load-process.js';
import { withCliServer } from './serve-priority.js';
import { measure } from './measure.js';
import { formatNumber, formatRatio, median } from './stats.js';
import type { Table } from './table.js';

/** Options of {@link forecastLimitTable}. */
export interface ForecastLimitOptions {
  shape: BoltShape;
  /** Intra-op threads of the raw session and of the server's plan. */
  threads: number;
  /**
   * The `--replicas N` plans served beside the default (`--forecast-replicas 4,16`: on a many-core host, whether
   * forecasters want replicas as token classifiers do). @default [threads]
   */
  replicaPlans?: readonly number[];
  cellMs: number;
  /** Affinity CPUs, for the busy mark. */
  cpus: number;
  log: (line: string) => void;
}

const LENGTH = 64;
const HORIZON = 12;

function manifest(modelId: string): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'forecast' },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args: ['--model_name=fc', `--model_id=${modelId}`, '--task=time_series_forecast'] } } },
  };
}

/** Series in the load's mix for the limit: cut into batches of each size, all handed over at once. */
const MIX = 32;

/** Raw limit of one configuration at one batch size. */
interface LimitPoint {
  batch: number;
  config: string;
  rate: number;
  /** Median ms of one run of `batch` series. */
  ms: number;
  cpuUs: number;
}

/**
 * `model`'s readings from a server's `/metrics`: `inferkit_batch_size` sum and count (items per merged model
 * call), and `inferkit_model_compute_seconds_total` (its worker threads' time on runs; NaN when it reports none).
 */
export async function modelMetrics(port: number, model: string): Promise<{ sum: number; count: number; compute: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (name: string, missing = 0) => Number(new RegExp(`^${name}\\{model="${model}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? missing);
  return { sum: value('inferkit_batch_size_sum'), count: value('inferkit_batch_size_count'), compute: value('inferkit_model_compute_seconds_total', Number.NaN) };
}

/** Share of the wall time `sessions` sessions spent on runs between two {@link modelMetrics} readings `seconds` apart. */
export function sessionsBusy(before: { compute: number }, after: { compute: number }, seconds: number, sessions: number): number {
  return (after.compute - before.compute) / seconds / sessions;
}

/**
 * The raw limit of the Chronos-Bolt-shaped graph: the load's mix of 32 series, cut into the context
 * chunks inferkit builds (batches of 1, 8, 16 or 32 series), on one session with every thread
 * (spinning off, as the server) and on one 1-thread session per thread in worker threads taking the
 * chunks side by side (what the server's replicas run). All chunks are handed over at once.
 */
async function boltLimit(o: ForecastLimitOptions, file: string): Promise<LimitPoint[]> {
  const configs = [
    { config: 'spin off', open: () => createLocalSession(file, { intraOpThreads: o.threads }) },
    ...(o.threads > 1 ? [{ config: `${o.threads}×1 replicas`, open: () => createSession(file, { worker: true, replicas: o.threads, intraOpThreads: 1 }) }] : []),
  ];
  const series = benchSeries(MIX, LENGTH, 5).map((x) => Float32Array.from(x));
  const points: LimitPoint[] = [];
  for (const { config, open } of configs) {
    const session = await open();
    for (const batch of [1, 8, 16, 32]) {
      const chunks = planContextChunks(series, { contextLength: o.shape.contextLength, patchSize: o.shape.patchSize, batchSize: batch });
      // Worker sessions take the buffers they are given: each run gets a copy.
      const run = () => Promise.all(chunks.map((c) => session.run({ context: float32Tensor(c.data.slice(), [c.indices.length, c.time]) })));
      const cpu0 = process.cpuUsage();
      const m = await measure(run, { warmup: 2, runs: 500, budgetMs: o.cellMs, minRuns: 3 });
      const cpu = process.cpuUsage(cpu0);
      points.push({ batch, config, rate: (MIX * 1000) / m.median, ms: (m.median * batch) / MIX, cpuUs: (cpu.user + cpu.system) / ((m.samples.length + 2) * MIX) });
      o.log(`  forecast raw batch ${batch} ${config}: ${formatNumber((MIX * 1000) / m.median)} series/s`);
    }
    await session.release();
  }
  return points;
}

/** Per batch size and config, the better of two limit passes. */
function betterPasses(a: readonly LimitPoint[], b: readonly LimitPoint[]): LimitPoint[] {
  return a.map((x) => {
    const y = b.find((p) => p.batch === x.batch && p.config === x.config) ?? x;
    return { batch: x.batch, config: x.config, rate: Math.max(x.rate, y.rate), ms: Math.min(x.ms, y.ms), cpuUs: Math.min(x.cpuUs, y.cpuUs) };
  });
}

/** Theta's limit: its own predict on ready Float32Arrays, in-process on one thread. */
async function thetaLimit(o: ForecastLimitOptions): Promise<LimitPoint[]> {
  const baseline = theta({ name: 'fc' });
  const points: LimitPoint[] = [];
  for (const batch of [1, 8, 32]) {
    const series = benchSeries(batch, LENGTH, 5).map((x) => Float32Array.from(x));
    const cpu0 = process.cpuUsage();
    const m = await measure(() => baseline.predict(series, HORIZON), { warmup: 2, runs: 500, budgetMs: o.cellMs, minRuns: 3 });
    const cpu = process.cpuUsage(cpu0);
    points.push({ batch, config: 'predict', rate: (batch * 1000) / m.median, ms: m.median, cpuUs: (cpu.user + cpu.system) / ((m.samples.length + 2) * batch) });
  }
  return points;
}

/** One server cell: concurrency 32 (throughput, cores, merged calls, health p99) and concurrency 1 (p50). */
interface Cell {
  rate: number;
  perCall: number;
  /** Share of the c=32 cell's wall time the sessions spent on runs (NaN: the model reports none, e.g. Theta). */
  busy: number;
  serverCores: number;
  serverCpuUs: number;
  liveP99: number;
  p50: number;
  shape: string;
  split: number;
}

async function measureServer(o: ForecastLimitOptions, dir: string, cfg: { kind: 'bolt' | 'theta'; replicas: number | undefined }): Promise<Cell> {
  // As `inferkit serve` runs it: the event loop at nice +10 once loaded (the token tables' servers too).
  const isvc = manifest(cfg.kind === 'bolt' ? dir : 'theta');
  return withCliServer(isvc, defaultLoaders(), { threads: o.threads, ...(cfg.replicas !== undefined ? { replicas: cfg.replicas } : {}) }, async (server) => {
    const plan = server.inference.models[0];
    const split = plan?.replicaThreads ?? [o.threads];
    const shape = cfg.kind === 'theta' ? `${o.threads} workers` : split.length > 1 ? `${split.length} replicas × ${split[0]}${plan?.latencyThreads !== undefined ? ` + latency session × ${plan.latencyThreads}` : ''}` : `1 session × ${split[0]}`;
    const bodies = benchSeries(16, LENGTH, 9).map((x) => JSON.stringify(benchForecastRequest('fc', [x], HORIZON)));
    const job = { port: server.port, path: '/v1/timeseries/forecast', bodies, ms: o.cellMs };
    const one = await runLoadInChild({ ...job, concurrency: 1, probeLive: false });
    // A second of the saturating load first: the c=1 cell never ran the merged calls' shapes.
    await runLoadInChild({ ...job, ms: 1000, concurrency: 32, probeLive: false });
    const calls0 = await modelMetrics(server.port, 'fc');
    // Throughput unprobed, as in the token tables: a probe every 10 ms is as many requests again for the event loop.
    const many = await runLoadInChild({ ...job, concurrency: 32, probeLive: false });
    const calls1 = await modelMetrics(server.port, 'fc');
    // The same load again, probed every 10 ms on its own connection: how long a health probe waits meanwhile.
    const probed = await runLoadInChild({ ...job, concurrency: 32, probeLive: true });
    return {
      rate: many.requests / many.seconds,
      perCall: (calls1.sum - calls0.sum) / Math.max(1, calls1.count - calls0.count),
      busy: sessionsBusy(calls0, calls1, many.seconds, split.length),
      serverCores: many.serverCores,
      serverCpuUs: (many.serverCores * many.seconds * 1e6) / many.requests,
      liveP99: p99(probed.liveMs),
      p50: median(one.latenciesMs),
      shape,
      split: split.length,
    };
  });
}

/**
 * The forecast route against its in-process limit, one single-series request per call: the
 * Chronos-Bolt-shaped graph (limit: raw ORT on the context chunks inferkit builds, best of batch size
 * and of one all-threads session or 1-thread replicas side by side), served on replicas and with
 * `--replicas 1`, and the Theta baseline (limit: its own `predict` on ready Float32Arrays).
 */
export async function forecastLimitTable(o: ForecastLimitOptions): Promise<Table> {
  const loadBefore = loadavg()[0];
  const dir = await cachedBoltRepo(o.shape);
  const rows: string[][] = [];
  const file = join(dir, 'onnx', 'model.onnx');
  // The limit is measured before the server rows and again after them, each cell keeping its better pass
  // (the limit is the best the machine did): drift over the run cannot flatter the ratio.
  const first = { bolt: await boltLimit(o, file), theta: await thetaLimit(o) };
  const plans = o.replicaPlans ?? [o.threads];
  const servers = [
    { kind: 'bolt' as const, label: 'Chronos-Bolt-shaped (default)', replicas: undefined as number | undefined },
    ...plans.map((n) => ({ kind: 'bolt' as const, label: `Chronos-Bolt-shaped, --replicas ${n}`, replicas: n as number | undefined })),
    { kind: 'theta' as const, label: 'Theta', replicas: undefined },
  ];
  // Chronos rows run A B B A (A B C C B A, …) and are averaged: in a fixed order the later row gained 3–16% (RESULTS.md
  // round 5).
  const bolt = servers.slice(0, -1).map((_, i) => i);
  const order = [...bolt, ...[...bolt].reverse(), servers.length - 1];
  const cells = new Map<number, Cell[]>();
  for (const i of order) {
    cells.set(i, [...(cells.get(i) ?? []), await measureServer(o, dir, servers[i])]);
  }
  const second = { bolt: await boltLimit(o, file), theta: await thetaLimit(o) };
  const limits = { bolt: betterPasses(first.bolt, second.bolt), theta: betterPasses(first.theta, second.theta) };
  servers.forEach(({ kind, label }, i) => {
    const limit = limits[kind];
    const best = limit.reduce((a, b) => (b.rate > a.rate ? b : a));
    const leanest = limit.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
    const got = cells.get(i) ?? [];
    const mean = (f: (c: Cell) => number) => got.reduce((a, c) => a + f(c), 0) / got.length;
    const rate = mean((c) => c.rate);
    const { shape, split } = got[0];
    const b1 = (config: string) => limit.find((l) => l.batch === 1 && l.config === config)?.ms;
    const b1All = kind === 'theta' ? b1('predict') : b1('spin off');
    const b1Replica = kind === 'bolt' && split > 1 ? b1(`${o.threads}×1 replicas`) : undefined;
    o.log(`  forecast ${label}: limit ${formatNumber(best.rate)} series/s, server c=32 ${got.map((c) => formatNumber(c.rate)).join(' / ')}`);
    rows.push([
      `${label} (${shape})`,
      `${formatNumber(best.rate)} (b${best.batch}${kind === 'bolt' ? `, ${best.config}` : ''})`,
      got.length > 1 ? `${formatNumber(rate)} (${got.map((c) => formatNumber(c.rate)).join(', ')})` : formatNumber(rate),
      formatRatio(rate, best.rate),
      formatNumber(mean((c) => c.perCall)),
      formatBusy(mean((c) => c.busy)),
      formatNumber(mean((c) => c.serverCores)),
      formatNumber(mean((c) => c.serverCpuUs)),
      `${formatNumber(leanest.cpuUs)} (b${leanest.batch}${kind === 'bolt' ? `, ${leanest.config}` : ''})`,
      formatNumber(Math.max(...got.map((c) => c.liveP99))),
      formatNumber(mean((c) => c.p50)),
      `${b1All === undefined ? '–' : formatNumber(b1All)} / ${b1Replica === undefined ? '–' : formatNumber(b1Replica)}`,
    ]);
  });
  const loadAfter = loadavg()[0];
  const busy = loadBefore > 0.5 * o.cpus;
  const s = o.shape;
  const raw = (config: string) => limits.bolt.filter((l) => l.config === config).map((l) => `b${l.batch} ${formatNumber(l.rate)}`).join(', ');
  return {
    title: `Forecast route vs the in-process limit, one ${LENGTH}-point series per request, horizon ${HORIZON}, ${o.threads} threads${busy ? ' — BUSY MACHINE' : ''}`,
    headers: ['model (sessions × threads)', 'limit series/s (best batch, config)', 'server c=32 series/s (mean of passes)', 'server / limit', 'series per merged call (c=32)', 'sessions busy (c=32)', 'server cores (c=32)', 'server CPU µs/series', 'limit CPU µs/series (leanest)', '/v2/health/live p99 ms', 'server c=1 p50 ms', 'limit batch-1 ms (all threads / 1 replica)'],
    rows,
    notes: [
      `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} on ${o.cpus} CPUs${busy ? ': busy machine, numbers noisy' : ''}.`,
      `Chronos-Bolt-shaped graph: context ${s.contextLength}, prediction ${s.predictionLength}, patch ${s.patchSize}, d ${s.dModel}, ${s.layers} layers, served through defaultLoaders (one session with all threads by default, i.e. --replicas 1; with --replicas N one 1-thread session replica per thread in worker threads, plus a latency session with all threads kept at load only if faster on a 512-step series; spinning off; the runs formed by the model's run queue from every waiting series, a lone call one run per idle replica at least). Limit = raw ORT on the context chunks inferkit builds for the load's mix of ${MIX} series, batches of 1/8/16/32, all handed over at once, measured before and after the server rows (the better of the two per cell): one session with ${o.threads} threads, spinning off ${raw('spin off')}${o.threads > 1 ? `; ${o.threads} one-thread sessions in worker threads side by side ${raw(`${o.threads}×1 replicas`)}` : ''} series/s. Theta: the limit is its own predict in-process on one thread (no ONNX), also the better of two passes; the server runs it in worker threads (its share of the threads), series cut into chunks of 4–16 (up to 4 per worker).`,
      `Server: POST /v1/timeseries/forecast, dynamic batching at its defaults (series of concurrent requests merged; series per merged call from /metrics inferkit_batch_size during the c=32 cell; sessions busy = their worker threads' wall time on runs from inferkit_model_compute_seconds_total / (wall × sessions), – for Theta, whose workers report none), the event loop at nice +10 once loaded as inferkit serve runs it, load generator in a child process (lean keep-alive sockets, as in the token tables), ${o.cellMs} ms per cell after a 1 s warm-up at c=32; the throughput cell unprobed (a probe every 10 ms is as many requests again for the event loop), /v2/health/live p99 from a second c=32 cell probed every 10 ms. The two Chronos-Bolt rows are measured in the order A B B A (a fresh server each time) and averaged, the passes in brackets: in a fixed order the later row gained 3–16%; cores, CPU µs and p50 are means, health p99 the worse pass.`,
    ],
  };
}

/** A {@link sessionsBusy} share as a percentage; "–" when the model reports no compute time. */
export function formatBusy(share: number): string {
  return Number.isNaN(share) ? '–' : `${(share * 100).toFixed(0)}%`;
}
