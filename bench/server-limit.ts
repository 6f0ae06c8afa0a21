/**
 * Serving vs the limit: `inferkit serve` (sessions in worker threads, the server's own thread plan)
 * against the best in-process onnxruntime-node throughput on the same machine (all the CPUs the process
 * may use, best of batch 1/8/32, spinning off and on), for the fp32 graph and its dynamic-int8
 * `onnx/model_quantized.onnx`, V1 and V2. Also: cores used (process CPU time / wall, worker threads
 * included), `/v2/health/live` p99 during the saturating load, and concurrency-1 p50 against one raw
 * batch-1 run; and the forecast route (Chronos-Bolt-shaped graph, Theta) against its own limit. The load average is recorded before and after each table; tables started on a loaded
 * machine are marked busy.
 * Run: `npx tsx bench/server-limit.ts [--quick] [--layers N] [--cell-ms MS] [--threads N]`.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InferenceService } from '../src/contract/inference-service.js';
import { availableCpus } from '../src/runtime/cpu-budget.js';
import { createLocalSession } from '../src/runtime/ort.js';
import { defaultLoaders } from '../src/server/default-loaders.js';
import { serve } from '../src/server/serve.js';
import type { BenchOptions, BenchResult } from './lib/bench-result.js';
import { benchText, benchWords } from './lib/bench-text.js';
import { forecastLimitTable } from './lib/forecast-limit.js';
import { BERT_BASE, BERT_SMALL, BOLT_SMALL, BOLT_TINY, cachedBertRepo, ensureQuantizedBert } from './lib/graph-cache.js';
import { p99 } from './lib/load-client.js';
import { runLoadInChild } from './lib/load-process.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { measure } from './lib/measure.js';
import { formatNumber, formatRatio, median } from './lib/stats.js';
import { renderTable, type Table } from './lib/table.js';
import { openTextContenders } from './lib/text-contenders.js';

/** Options of {@link runServerLimitBench}. */
export interface ServerLimitBenchOptions extends BenchOptions {
  /** Encoder layers of the BERT-base-shaped graph. @default 12 (quick: the 2-layer small graph) */
  layers?: number;
  /** Time per server cell and per raw batch size, ms. @default 3000 (quick 800) */
  cellMs?: number;
}

const WORDS = [6, 14, 9, 20, 11, 8, 16, 12];
const texts = (n: number, seed: number): string[] => Array.from({ length: n }, (_, i) => benchText(WORDS[i % WORDS.length], seed * 7919 + i, benchWords()));

function manifest(dir: string, variant: 'fp32' | 'int8', protocol: 'v1' | 'v2'): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'bert', ...(variant === 'int8' ? { annotations: { 'serving.inferkit.dev/onnx-variant': 'quantized' } } : {}) },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, ...(protocol === 'v2' ? { protocolVersion: 'v2' as const } : {}), args: ['--model_name=bert', `--model_id=${dir}`, '--task=token_classification'] } } },
  };
}

/** Runs the benchmark: one table per graph variant. */
export async function runServerLimitBench(options: ServerLimitBenchOptions = {}): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const shape = options.quick ? BERT_SMALL : { ...BERT_BASE, layers: options.layers ?? BERT_BASE.layers };
  const cellMs = options.cellMs ?? (options.quick ? 800 : 3000);
  const budget = availableCpus();
  const cpus = options.threads ?? budget.cpus;
  const dir = await cachedBertRepo(shape);
  await ensureQuantizedBert(dir, shape);
  const contenders = await openTextContenders(dir, { threads: 1, peer: false });
  const tables: Table[] = [];
  try {
    for (const variant of ['fp32', 'int8'] as const) {
      const loadBefore = loadavg()[0];
      const file = join(dir, 'onnx', variant === 'int8' ? 'model_quantized.onnx' : 'model.onnx');
      const limit: Array<{ batch: number; spinning: boolean; rate: number; ms: number; cpuUs: number }> = [];
      for (const spinning of [false, true]) {
        const session = await createLocalSession(file, { intraOpThreads: cpus, spinning });
        // The same 32-text mix the server gets, sorted by length and cut into batches of `batch`: the
        // least padding any batching of these texts can have (the server also sorts what it merges), so
        // nothing that pads less can beat this limit.
        const mix = texts(32, 3).sort((a, b) => a.split(' ').length - b.split(' ').length);
        for (const batch of [1, 8, 32]) {
          const feeds = Array.from({ length: mix.length / batch }, (_, k) => contenders.feeds(mix.slice(k * batch, (k + 1) * batch)));
          const runAll = async (): Promise<void> => {
            for (const f of feeds) {
              await session.run(f);
            }
          };
          const cpu0 = process.cpuUsage();
          const m = await measure(runAll, { warmup: 2, runs: 200, budgetMs: cellMs, minRuns: 3 });
          const cpu = process.cpuUsage(cpu0);
          // CPU time per sentence resists a busy machine better than wall time (warm-up calls counted too).
          const cpuUs = (cpu.user + cpu.system) / ((m.samples.length + 2) * mix.length);
          limit.push({ batch, spinning, rate: (mix.length * 1000) / m.median, ms: (m.median * batch) / mix.length, cpuUs });
          log(`  ${variant} raw batch ${batch} spinning ${spinning ? 'on' : 'off'}: ${formatNumber((mix.length * 1000) / m.median)} sentences/s`);
        }
        await session.release();
      }
      const best = limit.reduce((a, b) => (b.rate > a.rate ? b : a));
      const b1 = limit.find((l) => l.batch === 1 && !l.spinning);
      const leanest = limit.filter((l) => !l.spinning).reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
      const rows: string[][] = [];
      for (const protocol of ['v1', 'v2'] as const) {
        const server = await serve([manifest(dir, variant, protocol)], { port: 0, loaders: defaultLoaders(), inference: { threads: cpus } });
        try {
          const [state] = await server.loaded();
          if (!state.ready) {
            throw new Error(`${variant} ${protocol} did not load: ${state.reason ?? ''}`);
          }
          const path = protocol === 'v1' ? '/v1/models/bert:predict' : '/v2/models/bert/infer';
          const bodies = texts(16, 11).map((t) => JSON.stringify(protocol === 'v1' ? { instances: [t] } : { inputs: [{ name: 'text', shape: [1], datatype: 'BYTES', data: [t] }] }));
          const job = { port: server.port, path, bodies, ms: cellMs };
          const one = await runLoadInChild({ ...job, concurrency: 1, probeLive: false });
          const many = await runLoadInChild({ ...job, concurrency: 32, probeLive: true });
          const rate = many.requests / many.seconds;
          const p50 = median(one.latenciesMs);
          const serverCpuUs = (many.serverCores * many.seconds * 1e6) / many.requests;
          log(`  ${variant} ${protocol}: c=32 ${formatNumber(rate)} sentences/s on ${formatNumber(many.serverCores)} server cores (client ${formatNumber(many.clientCores)}), live p99 ${formatNumber(p99(many.liveMs))} ms; c=1 p50 ${formatNumber(p50)} ms`);
          rows.push([
            `${variant} ${protocol.toUpperCase()}`,
            `${formatNumber(best.rate)} (b${best.batch}, spin ${best.spinning ? 'on' : 'off'})`,
            formatNumber(rate),
            formatRatio(rate, best.rate),
            formatNumber(many.serverCores),
            formatNumber(many.clientCores),
            formatNumber(serverCpuUs),
            `${formatNumber(leanest.cpuUs)} (b${leanest.batch})`,
            formatRatio(leanest.cpuUs, serverCpuUs),
            formatNumber(p99(many.liveMs)),
            formatNumber(p50),
            formatNumber(b1?.ms ?? Number.NaN),
            formatNumber(p50 - (b1?.ms ?? Number.NaN)),
          ]);
        } finally {
          await server.close();
        }
      }
      const loadAfter = loadavg()[0];
      const busy = loadBefore > 0.5 * budget.affinity;
      const raw = (spinning: boolean) => limit.filter((l) => l.spinning === spinning).map((l) => `b${l.batch} ${formatNumber(l.rate)}`).join(', ');
      tables.push({
        title: `Server vs the in-process limit, ${variant}, ${shape.layers}-layer BERT-shaped graph (${shape.hidden} hidden), ${cpus} threads${busy ? ' — BUSY MACHINE' : ''}`,
        headers: ['graph / protocol', 'limit sent/s (best batch)', 'server c=32 sent/s', 'server / limit', 'server cores (c=32)', 'client cores', 'server CPU µs/sent', 'raw CPU µs/sent (leanest batch)', 'raw / server CPU', '/v2/health/live p99 ms', 'server c=1 p50 ms', 'raw b1 ms', 'c=1 p50 − b1 ms'],
        rows,
        notes: [
          `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} on ${budget.affinity} CPUs${busy ? ': the machine was busy (other processes held cores), so absolute numbers and ratios are noisy' : ''}.`,
          `Limit = raw onnxruntime-node InferenceSession.run on pre-tokenized tensors of the load's 32-text mix sorted by length and cut into batches of 1, 8 or 32 (the least padding any batching can have), ${cpus} intra-op threads, median per batch size: spinning off ${raw(false)}; spinning on ${raw(true)} sentences/s. The server runs with spinning off (its default).`,
          `Server = inferkit serve (defaultLoaders, sessions in a worker thread, ${cpus} threads planned, dynamic batching at its defaults) with one single-text request per call; ${cellMs} ms per cell, keep-alive HTTP on 127.0.0.1, load generator in a child process (bench/lib/load-process.ts). Server cores = the server process's CPU time (main + worker threads) / wall during the c=32 cell; client cores = the load generator's. /v2/health/live probed every 10 ms on its own connection during that cell.`,
          `CPU µs per sentence: the server process's CPU time (all threads) during the c=32 cell / sentences answered, against raw ORT's CPU time per sentence at its leanest batch (spinning off). On a shared machine this is steadier than sentences/s: it does not count time the process spent waiting for a core.`,
          `Machine: ${machineLine(machineInfo())}.`,
        ],
      });
    }
  } finally {
    await contenders.dispose();
  }
  tables.push(await forecastLimitTable({ shape: options.quick ? BOLT_TINY : BOLT_SMALL, threads: cpus, cellMs, cpus: budget.affinity, log }));
  return { tables };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const num = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  runServerLimitBench({ quick: argv.includes('--quick'), layers: num('--layers'), cellMs: num('--cell-ms'), threads: num('--threads'), log: (l) => process.stderr.write(`${l}\n`) })
    .then((r) => process.stdout.write(`${r.tables.map(renderTable).join('\n\n')}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
