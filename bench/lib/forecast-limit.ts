import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { planContextChunks } from '../../src/runtime/forecast/context-batch.js';
import { theta } from '../../src/runtime/forecast/theta.js';
import { createLocalSession, float32Tensor } from '../../src/runtime/ort.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve } from '../../src/server/serve.js';
import { benchForecastRequest, benchSeries } from './bench-series.js';
import { cachedBoltRepo, type BoltShape } from './graph-cache.js';
import { p99 } from './load-client.js';
import { runLoadInChild } from './load-process.js';
import { measure } from './measure.js';
import { formatNumber, formatRatio, median } from './stats.js';
import type { Table } from './table.js';

/** Options of {@link forecastLimitTable}. */
export interface ForecastLimitOptions {
  shape: BoltShape;
  /** Intra-op threads of the raw session and of the server's plan. */
  threads: number;
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

/**
 * The forecast route against its in-process limit, one single-series request per call: the
 * Chronos-Bolt-shaped graph (limit: raw ORT on the context chunks inferkit builds, best of 1/8/32
 * series) and the Theta baseline (limit: its own `predict` on ready Float32Arrays).
 */
export async function forecastLimitTable(o: ForecastLimitOptions): Promise<Table> {
  const loadBefore = loadavg()[0];
  const dir = await cachedBoltRepo(o.shape);
  const rows: string[][] = [];
  for (const kind of ['bolt', 'theta'] as const) {
    const limit: Array<{ batch: number; rate: number; ms: number; cpuUs: number }> = [];
    const session = kind === 'bolt' ? await createLocalSession(join(dir, 'onnx', 'model.onnx'), { intraOpThreads: o.threads }) : undefined;
    const baseline = theta({ name: 'fc' });
    for (const batch of [1, 8, 32]) {
      const series = benchSeries(batch, LENGTH, 5).map((s) => Float32Array.from(s));
      const chunks = planContextChunks(series, { contextLength: o.shape.contextLength, patchSize: o.shape.patchSize, batchSize: 64 });
      const run = session
        ? async () => {
            for (const c of chunks) {
              await session.run({ context: float32Tensor(c.data, [c.indices.length, c.time]) });
            }
          }
        : () => baseline.predict(series, HORIZON);
      const cpu0 = process.cpuUsage();
      const m = await measure(run, { warmup: 2, runs: 500, budgetMs: o.cellMs, minRuns: 3 });
      const cpu = process.cpuUsage(cpu0);
      limit.push({ batch, rate: (batch * 1000) / m.median, ms: m.median, cpuUs: (cpu.user + cpu.system) / ((m.samples.length + 2) * batch) });
    }
    await session?.release();
    const best = limit.reduce((a, b) => (b.rate > a.rate ? b : a));
    const leanest = limit.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
    const b1 = limit[0];
    const server = await serve([manifest(kind === 'bolt' ? dir : 'theta')], { port: 0, loaders: defaultLoaders(), inference: { threads: o.threads } });
    try {
      const [state] = await server.loaded();
      if (!state.ready) {
        throw new Error(`${kind} did not load: ${state.reason ?? ''}`);
      }
      const bodies = benchSeries(16, LENGTH, 9).map((s) => JSON.stringify(benchForecastRequest('fc', [s], HORIZON)));
      const job = { port: server.port, path: '/v1/timeseries/forecast', bodies, ms: o.cellMs };
      const one = await runLoadInChild({ ...job, concurrency: 1, probeLive: false });
      const many = await runLoadInChild({ ...job, concurrency: 32, probeLive: true });
      const rate = many.requests / many.seconds;
      const p50 = median(one.latenciesMs);
      const serverCpuUs = (many.serverCores * many.seconds * 1e6) / many.requests;
      o.log(`  forecast ${kind}: limit ${formatNumber(best.rate)} series/s, server c=32 ${formatNumber(rate)} on ${formatNumber(many.serverCores)} cores, c=1 p50 ${formatNumber(p50)} ms`);
      rows.push([
        kind === 'bolt' ? 'Chronos-Bolt-shaped' : 'Theta',
        `${formatNumber(best.rate)} (b${best.batch})`,
        formatNumber(rate),
        formatRatio(rate, best.rate),
        formatNumber(many.serverCores),
        formatNumber(serverCpuUs),
        `${formatNumber(leanest.cpuUs)} (b${leanest.batch})`,
        formatNumber(p99(many.liveMs)),
        formatNumber(p50),
        formatNumber(b1.ms),
      ]);
    } finally {
      await server.close();
    }
  }
  const loadAfter = loadavg()[0];
  const busy = loadBefore > 0.5 * o.cpus;
  const s = o.shape;
  return {
    title: `Forecast route vs the in-process limit, one ${LENGTH}-point series per request, horizon ${HORIZON}, ${o.threads} threads${busy ? ' — BUSY MACHINE' : ''}`,
    headers: ['model', 'limit series/s (best batch)', 'server c=32 series/s', 'server / limit', 'server cores (c=32)', 'server CPU µs/series', 'limit CPU µs/series (leanest)', '/v2/health/live p99 ms', 'server c=1 p50 ms', 'limit batch-1 ms'],
    rows,
    notes: [
      `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} on ${o.cpus} CPUs${busy ? ': busy machine, numbers noisy' : ''}.`,
      `Chronos-Bolt-shaped graph: context ${s.contextLength}, prediction ${s.predictionLength}, patch ${s.patchSize}, d ${s.dModel}, ${s.layers} layers, served through defaultLoaders (session in a worker thread, spinning off); limit = raw ORT on the same context chunks, spinning off. Theta: the limit is its own predict in-process on one thread (no ONNX); the server runs it in worker threads (its share of the threads), series cut into chunks of at most 16.`,
      `Server: POST /v1/timeseries/forecast, dynamic batching at its defaults (series of concurrent requests merged), load generator in a child process, ${o.cellMs} ms per cell.`,
    ],
  };
}
