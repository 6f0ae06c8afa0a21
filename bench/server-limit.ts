/**
 * Serving vs the limit: `inferkit serve` (sessions in worker threads, the server's own thread plan)
 * against the best in-process onnxruntime-node throughput on the same machine (all the CPUs the process
 * may use, best of batch 1/8/32 over one session spinning off or on and one 1-thread session per CPU in
 * worker threads side by side), for the fp32 graph and its dynamic-int8
 * `onnx/model_quantized.onnx`, V1 and V2. Also: cores used (process CPU time / wall, worker threads
 * included), `/v2/health/live` p99 during the saturating load, and concurrency-1 p50 against one raw
 * batch-1 run; and the forecast route (Chronos-Bolt-shaped graph, Theta) against its own limit. The load average is recorded before and after each table; tables started on a loaded
 * machine are marked busy.
 * With `--family` (repeatable or a comma list of bert, distilbert, roberta, xlm-r, deberta-v3, electra): one table of
 * those families instead, each served from a random base-sized safetensors checkpoint (./server-limit-families.ts).
 * Run: `npx tsx bench/server-limit.ts [--quick] [--layers N] [--cell-ms MS] [--threads N] [--forecast-only] [--forecast-replicas 4,16] [--family F]`.
 */
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { InferenceService } from '../src/contract/inference-service.js';
import { availableCpus } from '../src/runtime/cpu-budget.js';
import { mappedWeights } from '../src/runtime/shared-weights/mapped-weights.js';
import { processMemory } from '../src/runtime/shared-weights/process-memory.js';
import { createSession, tensorOf, type OrtFeeds, type OrtSession } from '../src/runtime/ort.js';
import { defaultLoaders } from '../src/server/default-loaders.js';
import type { ModelState } from '../src/server/model-registry.js';
import type { RunningServer } from '../src/server/serve.js';
import { planInference } from '../src/server/inference-plan.js';
import { runtimeConfig } from '../src/manifest/runtime-config.js';
import { evenSizes, slicesOf } from '../src/runtime/even-sizes.js';
import { runTokenLogits } from '../src/runtime/token-classification/run-token-logits.js';
import type { BenchOptions, BenchResult } from './lib/bench-result.js';
import { benchText, benchWords } from './lib/bench-text.js';
import { modelMetrics, forecastLimitTable, formatBusy, sessionsBusy } from './lib/forecast-limit.js';
import { BERT_BASE, BERT_SMALL, BOLT_SMALL, BOLT_TINY, cachedBertRepo, ensureQuantizedBert } from './lib/graph-cache.js';
import { p99 } from './lib/load-client.js';
import { runLoadInChild } from './lib/load-process.js';
import { withCliServer } from './lib/serve-priority.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { measure } from './lib/measure.js';
import { formatNumber, formatRatio, median } from './lib/stats.js';
import { renderTable, type Table } from './lib/table.js';
import { openTextContenders } from './lib/text-contenders.js';
import { parseFamilies, type ServedFamily } from './lib/family-checkpoints.js';

/** Options of {@link runServerLimitBench}. */
export interface ServerLimitBenchOptions extends BenchOptions {
  /** Encoder layers of the BERT-base-shaped graph. @default 12 (quick: the 2-layer small graph) */
  layers?: number;
  /** Time per server cell and per raw batch size, ms. @default 3000 (quick 800) */
  cellMs?: number;
  /** Only the forecast route's table (`--forecast-only`). @default false */
  forecastOnly?: boolean;
  /** The forecast route's `--replicas N` plans beside its default (`--forecast-replicas 4,16`). @default [threads] */
  forecastReplicas?: number[];
  /**
   * Instead of the generated-BERT tables: one table of these families, each a random base-sized checkpoint built
   * from safetensors by the server (`--family bert,roberta …`; see ./server-limit-families.ts). @default none
   */
  families?: readonly ServedFamily[];
}

const WORDS = [6, 14, 9, 20, 11, 8, 16, 12];
/** `n` bench texts of the load's word counts (6–20 words; `scale` times as many), the same for the same `seed`. */
export const texts = (n: number, seed: number, scale = 1): string[] => Array.from({ length: n }, (_, i) => benchText(WORDS[i % WORDS.length] * scale, seed * 7919 + i, benchWords()));

/** The KServe manifest the server rows serve: model `bert`, `--model_id=<dir>`, token classification. */
export function manifest(dir: string, variant: 'fp32' | 'int8', protocol: 'v1' | 'v2'): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'bert', ...(variant === 'int8' ? { annotations: { 'serving.inferkit.dev/onnx-variant': 'quantized' } } : {}) },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, ...(protocol === 'v2' ? { protocolVersion: 'v2' as const } : {}), args: ['--model_name=bert', `--model_id=${dir}`, '--task=token_classification'] } } },
  };
}

/** The same tensors on fresh buffers (a worker session takes the buffers it is given). */
function copyFeeds(feeds: Record<string, { type: string; dims: readonly number[]; data: unknown }>): OrtFeeds {
  const out: OrtFeeds = {};
  for (const [name, t] of Object.entries(feeds)) {
    out[name] = tensorOf(t.type, (t.data as BigInt64Array).slice(), [...t.dims]);
  }
  return out;
}

/** One in-process limit cell: a batch size on one configuration. */
export interface LimitCell {
  batch: number;
  config: string;
  rate: number;
  ms: number;
  cpuUs: number;
}

/** One token server cell: concurrency 1 (p50), then 32 (throughput, cores, main-thread time), 32 again probing health (p99). */
export interface TokenCell {
  rate: number;
  /** The limit's best cell measured right before and right after the c=32 cell, averaged (NaN when not asked): the same moment of a drifting machine. */
  limitAround: number;
  /** Sentences/s at the moderate concurrency measureTokenServer was asked for (NaN when not). */
  rateModerate: number;
  p50: number;
  serverCores: number;
  clientCores: number;
  serverCpuUs: number;
  mainMsPerRequest: number;
  liveP99: number;
  split: number[];
  latency: number | undefined;
  /** Raw batch-1 median ms on the c=1 load's texts, measured right before that cell: one session with all threads, and one 1-thread session. */
  b1All: number;
  b1One: number;
  /** Texts per merged model call during the c=32 cell (`inferkit_batch_size` from /metrics). */
  perCall: number;
  /** Share of the c=32 cell's wall time the session replicas spent on runs (`inferkit_model_compute_seconds_total`). */
  busy: number;
  /** The process's RSS and PSS growth from before the server started to the end of the c=32 cell (the served model's memory). */
  rssBytes: number;
  pssBytes: number;
  /** The model's RSS and PSS growth at load, as `inferkit serve` prints it (its state's `memory`: sessions opened and warmed up alone); NaN when absent. */
  loadRssBytes: number;
  loadPssBytes: number;
}

/**
 * inferkit's own run path in this process, without HTTP: `runTokenLogits` (sorted by length, runs of at
 * most 8 texts, run-ahead) on the replicas the server plans (`split`), fed one overlapping call per replica,
 * together holding the load's 32 texts: what the server's merged calls give its replicas at concurrency 32. Its gap to
 * the limit is the batch composition (a merge sees only the texts queued at that moment); the server's gap
 * to it is HTTP, JSON, tokenizing and the load generator.
 */
async function mergedPipeline(file: string, split: readonly number[], seqs: readonly number[][], numLabels: number, cellMs: number): Promise<number> {
  const pool = await createSession(file, { worker: true, replicaThreads: split });
  const plan = { maxBatchSize: 8, sortByLength: true, padId: 0, tokenTypeIds: true, inputIdsName: 'input_ids', attentionMaskName: 'attention_mask', tokenTypeIdsName: 'token_type_ids', logitsName: 'logits', numLabels };
  const calls = slicesOf(seqs, evenSizes(seqs.length, split.length));
  try {
    const m = await measure(() => Promise.all(calls.map((c) => runTokenLogits(pool, c, plan))), { warmup: 2, runs: 200, budgetMs: cellMs, minRuns: 3 });
    return (seqs.length * 1000) / m.median;
  } finally {
    await pool.release();
  }
}

/**
 * The in-process limit's cells on the graph `file`: `mix` (sorted by length) cut into batches of 1, 8 and 32 (the
 * least padding any batching of these texts can have), fed through `feedsOf`, on three configurations: one session
 * with `cpus` intra-op threads spinning off, the same spinning on, and one 1-thread session per CPU, each in its own
 * worker thread, taking the batches side by side. The best cell is the limit. `only` narrows the batch sizes and
 * configurations (by name).
 */
export async function measureLimit(
  file: string,
  cpus: number,
  mix: readonly string[],
  feedsOf: (texts: readonly string[]) => OrtFeeds,
  cellMs: number,
  log: (line: string) => void,
  only: { batches?: readonly number[]; configs?: readonly string[] } = {},
): Promise<LimitCell[]> {
  const limit: LimitCell[] = [];
  for (const { config, open } of limitConfigs(file, cpus).filter((c) => only.configs === undefined || only.configs.includes(c.config))) {
    const session = await open();
    for (const batch of only.batches ?? [1, 8, 32]) {
      const cell = await limitCell(session, config, batch, mix, feedsOf, cellMs);
      limit.push(cell);
      log(`raw batch ${batch} ${config}: ${formatNumber(cell.rate)} sentences/s`);
    }
    await session.release();
  }
  return limit;
}

/** The limit's configurations on the graph `file` (see {@link measureLimit}): a name and how to open its session. */
export function limitConfigs(file: string, cpus: number): Array<{ config: string; open: () => Promise<OrtSession> }> {
  return [
    { config: 'spin off', open: () => createSession(file, { intraOpThreads: cpus }) },
    { config: 'spin on', open: () => createSession(file, { intraOpThreads: cpus, spinning: true }) },
    ...(cpus > 1 ? [{ config: `${cpus}×1 replicas`, open: () => createSession(file, { worker: true, replicas: cpus, intraOpThreads: 1 }) }] : []),
    // Replicas of a float graph share one mapped copy unpacked (shared-weights/); prepacked, each holds its own copy and runs faster.
    ...(cpus > 1 ? [{ config: `${cpus}×1 replicas prepacked`, open: () => createSession(file, { worker: true, replicas: cpus, intraOpThreads: 1, prepacking: true }) }] : []),
  ];
}

/**
 * The best of `cells` (a limit pass on `file` with `cpus` threads), measured again on demand on a session of its own:
 * the limit right before and right after a server cell, at the same moment of a drifting machine. `release` closes it.
 */
export async function leadLimit(file: string, cpus: number, cells: readonly LimitCell[], mix: readonly string[], feedsOf: (texts: readonly string[]) => OrtFeeds, cellMs: number): Promise<{ lead: LimitCell; now: () => Promise<number>; release: () => Promise<void> }> {
  const lead = cells.reduce((a, b) => (b.rate > a.rate ? b : a));
  const config = limitConfigs(file, cpus).find((c) => c.config === lead.config);
  if (config === undefined) {
    throw new Error(`no limit configuration ${lead.config} on ${cpus} threads`);
  }
  const session = await config.open();
  return { lead, now: async () => (await limitCell(session, lead.config, lead.batch, mix, feedsOf, cellMs)).rate, release: () => session.release() };
}

/** One limit cell: `mix` cut into batches of `batch`, all handed to `session` (of the configuration `config`) at once, for `cellMs`. */
export async function limitCell(session: OrtSession, config: string, batch: number, mix: readonly string[], feedsOf: (texts: readonly string[]) => OrtFeeds, cellMs: number): Promise<LimitCell> {
  const feeds = Array.from({ length: mix.length / batch }, (_, k) => feedsOf(mix.slice(k * batch, (k + 1) * batch)));
  // Worker sessions take the feeds' buffers: each run gets a copy. All runs are handed over at
  // once; replicas take them as they free up (one session runs them in turn).
  const runAll = async (): Promise<void> => {
    await Promise.all(feeds.map((f) => session.run(copyFeeds(f))));
  };
  const cpu0 = process.cpuUsage();
  const m = await measure(runAll, { warmup: 2, runs: 200, budgetMs: cellMs, minRuns: 3 });
  const cpu = process.cpuUsage(cpu0);
  // CPU time per sentence resists a busy machine better than wall time (warm-up calls counted too).
  const cpuUs = (cpu.user + cpu.system) / ((m.samples.length + 2) * mix.length);
  return { batch, config, rate: (mix.length * 1000) / m.median, ms: (m.median * batch) / mix.length, cpuUs };
}

/** Per cell the better of two limit passes (before and after the server rows): drift over the run cannot flatter a ratio. */
export function betterPass(first: readonly LimitCell[], second: readonly LimitCell[]): LimitCell[] {
  return first.map((a) => {
    const b = second.find((x) => x.batch === a.batch && x.config === a.config) ?? a;
    return { batch: a.batch, config: a.config, rate: Math.max(a.rate, b.rate), ms: Math.min(a.ms, b.ms), cpuUs: Math.min(a.cpuUs, b.cpuUs) };
  });
}

/** Raw sessions a lone request's batch-1 latency is compared with (in this thread, spinning off, as the server). */
export interface RawB1 {
  /** One session with every thread (what the latency session or --replicas 1 runs). */
  all: OrtSession;
  /** One 1-thread session (what a lone request runs on when the latency session was dropped at load). */
  one: OrtSession;
  feeds: (texts: readonly string[]) => OrtFeeds;
}

/** Median ms of one batch-1 run on `session`, cycling through `texts` as the c=1 load does. */
async function rawBatch1(session: OrtSession, feeds: readonly OrtFeeds[], budgetMs: number): Promise<number> {
  let k = 0;
  const m = await measure(() => session.run(feeds[k++ % feeds.length]), { warmup: feeds.length, runs: 400, budgetMs, minRuns: 2 * feeds.length });
  return m.median;
}

/**
 * One fresh `inferkit serve` of `isvc` (model `bert`): raw batch-1 medians on the load's texts, then the c=1 load,
 * then the c=32 load (with /metrics, event-loop time and memory growth around it), then, with `moderate`, a load at that concurrency.
 */
export async function measureTokenServer(isvc: InferenceService, protocol: 'v1' | 'v2', replicas: number | undefined, cpus: number, cellMs: number, raw: RawB1, prepack = false, moderate = 0, limitNow?: () => Promise<number>): Promise<TokenCell> {
  const memory0 = processMemory();
  return withTokenServer(isvc, protocol, { threads: cpus, ...(replicas !== undefined ? { replicas } : {}) }, prepack, cellMs, async (server, state, job, loadTexts) => {
    // The raw batch-1 latency on the same texts, right before the c=1 cell (the server idles meanwhile):
    // the comparison sees the same lengths and the same moment of a drifting machine.
    const rawFeeds = loadTexts.map((t) => raw.feeds([t]));
    const b1All = await rawBatch1(raw.all, rawFeeds, Math.min(cellMs, 1500));
    const b1One = await rawBatch1(raw.one, rawFeeds, Math.min(cellMs, 1500));
    const one = await runLoadInChild({ ...job, concurrency: 1, probeLive: false });
    const limitBefore = limitNow !== undefined ? await limitNow() : Number.NaN;
    const calls0 = await modelMetrics(server.port, 'bert');
    const elu0 = performance.eventLoopUtilization();
    // Throughput unprobed: a probe every 10 ms is as many requests again for the event loop as the load's at
    // BERT-base speed, and cost 5-9% of the served rate (a cluster probes every few seconds).
    const many = await runLoadInChild({ ...job, concurrency: 32, probeLive: false });
    const elu = performance.eventLoopUtilization(elu0);
    const memory1 = processMemory();
    const calls1 = await modelMetrics(server.port, 'bert');
    const limitAfter = limitNow !== undefined ? await limitNow() : Number.NaN;
    // The same saturating load again, with /v2/health/live probed every 10 ms: how long a probe waits meanwhile.
    const probed = await runLoadInChild({ ...job, concurrency: 32, probeLive: true });
    // After the c=32 cell's figures are taken: a moderate load, where the queue holds fewer texts to choose runs from.
    const some = moderate > 0 ? await runLoadInChild({ ...job, concurrency: moderate, probeLive: false }) : undefined;
    return {
      rate: many.requests / many.seconds,
      limitAround: (limitBefore + limitAfter) / 2,
      rateModerate: some !== undefined ? some.requests / some.seconds : Number.NaN,
      p50: median(one.latenciesMs),
      serverCores: many.serverCores,
      clientCores: many.clientCores,
      serverCpuUs: (many.serverCores * many.seconds * 1e6) / many.requests,
      mainMsPerRequest: (elu.utilization * many.seconds * 1000) / many.requests,
      liveP99: p99(probed.liveMs),
      split: server.inference.models[0]?.replicaThreads ?? [cpus],
      latency: server.inference.models[0]?.latencyThreads,
      b1All,
      b1One,
      perCall: (calls1.sum - calls0.sum) / Math.max(1, calls1.count - calls0.count),
      busy: sessionsBusy(calls0, calls1, many.seconds, (server.inference.models[0]?.replicaThreads ?? [cpus]).length),
      rssBytes: memory1.rssBytes - memory0.rssBytes,
      pssBytes: (memory1.pssBytes ?? Number.NaN) - (memory0.pssBytes ?? Number.NaN),
      loadRssBytes: state.memory?.rssGrowthBytes ?? Number.NaN,
      loadPssBytes: state.memory?.pssGrowthBytes ?? Number.NaN,
    };
  });
}

/** The load's request to a token server: path, one body per load text, the cell's length. */
interface TokenJob {
  port: number;
  path: string;
  bodies: string[];
  ms: number;
}

/**
 * Starts `inferkit serve` of `isvc` in this process as the CLI runs it (the event loop at nice +10 once loaded), runs
 * `body` on it with the load's request job, and closes it. This process takes its priority back after each server,
 * so the next one's sessions start at it.
 */
async function withTokenServer<T>(
  isvc: InferenceService,
  protocol: 'v1' | 'v2',
  inference: { threads: number; replicas?: number },
  prepack: boolean,
  cellMs: number,
  body: (server: RunningServer, state: ModelState, job: TokenJob, loadTexts: string[]) => Promise<T>,
): Promise<T> {
  const loaders = defaultLoaders(prepack ? { session: { prepacking: true } } : {});
  return withCliServer(isvc, loaders, inference, async (server, state) => {
    const path = protocol === 'v1' ? '/v1/models/bert:predict' : '/v2/models/bert/infer';
    const loadTexts = texts(16, 11);
    const bodies = loadTexts.map((t) => JSON.stringify(protocol === 'v1' ? { instances: [t] } : { inputs: [{ name: 'text', shape: [1], datatype: 'BYTES', data: [t] }] }));
    return body(server, state, { port: server.port, path, bodies, ms: cellMs }, loadTexts);
  });
}

/**
 * The served c=32 rate alone (V1, unprobed, after a 1 s warm-up) of `isvc` planned on `threads`, and `limitNow()`
 * measured right before and right after it (their mean: the same moment of a drifting machine).
 */
export async function measureServedRate(isvc: InferenceService, threads: number, cellMs: number, limitNow: () => Promise<number>): Promise<{ rate: number; limitAround: number }> {
  return withTokenServer(isvc, 'v1', { threads }, false, cellMs, async (_server, _state, job) => {
    await runLoadInChild({ ...job, ms: 1000, concurrency: 32, probeLive: false });
    const before = await limitNow();
    const many = await runLoadInChild({ ...job, concurrency: 32, probeLive: false });
    const after = await limitNow();
    return { rate: many.requests / many.seconds, limitAround: (before + after) / 2 };
  });
}

/** `RSS / PSS GiB (RSS× / PSS× the weights)`; PSS `–` where the OS does not tell it. */
export function memoryCell(rss: number, pss: number, weights: number): string {
  const gib = (n: number) => (n / 2 ** 30).toFixed(2);
  if (Number.isNaN(rss)) {
    return '–';
  }
  return Number.isNaN(pss) ? `${gib(rss)} / – (${formatRatio(rss, weights)})` : `${gib(rss)} / ${gib(pss)} (${formatRatio(rss, weights)} / ${formatRatio(pss, weights)})`;
}

/** Runs the benchmark: one table per graph variant. */
export async function runServerLimitBench(options: ServerLimitBenchOptions = {}): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const shape = options.quick ? BERT_SMALL : { ...BERT_BASE, layers: options.layers ?? BERT_BASE.layers };
  const cellMs = options.cellMs ?? (options.quick ? 800 : 3000);
  const budget = availableCpus();
  const cpus = options.threads ?? budget.cpus;
  const forecast = () =>
    forecastLimitTable({ shape: options.quick ? BOLT_TINY : BOLT_SMALL, threads: cpus, cellMs, cpus: budget.affinity, log, ...(options.forecastReplicas !== undefined ? { replicaPlans: options.forecastReplicas } : {}) });
  if (options.forecastOnly === true) {
    return { tables: [await forecast()] };
  }
  if (options.families !== undefined && options.families.length > 0) {
    // Imported here: that module uses this one's measuring functions.
    const { familyLimitTable } = await import('./server-limit-families.js');
    return { tables: [await familyLimitTable(options.families, { quick: options.quick === true, layers: options.layers, cellMs, cpus, log })] };
  }
  const dir = await cachedBertRepo(shape);
  await ensureQuantizedBert(dir, shape);
  const contenders = await openTextContenders(dir, { threads: 1, peer: false });
  const tables: Table[] = [];
  try {
    for (const variant of ['fp32', 'int8'] as const) {
      const loadBefore = loadavg()[0];
      const file = join(dir, 'onnx', variant === 'int8' ? 'model_quantized.onnx' : 'model.onnx');
      const weightBytes = mappedWeights(file)?.bytes ?? statSync(file).size;
      const measureLimitPass = async (): Promise<{ limit: LimitCell[] }> => ({ limit: await measureLimit(file, cpus, mix, contenders.feeds, cellMs, (l) => log(`  ${variant} ${l}`)) });
      // The limit is measured before the server rows and again after them; each cell keeps its better
      // pass (the limit is the best the machine did), so drift over the run cannot flatter the ratio.
      const mix = texts(32, 3).sort((a, b) => a.split(' ').length - b.split(' ').length);
      const first = await measureLimitPass();
      // The load's 16 texts twice: the 32 a concurrency-32 load keeps in the server.
      const loadSeqs = [...texts(16, 11), ...texts(16, 11)].map((t) => Array.from(contenders.feeds([t]).input_ids.data as BigInt64Array, Number));
      const numLabels = Number((await contenders.raw.run(contenders.feeds([mix[0]]))).logits?.dims[2]);
      // The replicas the server plans for this model (one per thread, at most 4 unasked).
      const config = runtimeConfig(manifest(dir, variant, 'v1'));
      const split = planInference([{ isvc: manifest(dir, variant, 'v1'), config, task: 'token_classification' }], { threads: cpus }).models[0]?.replicaThreads ?? [cpus];
      const pipelineRate = async () => (split.length > 1 ? mergedPipeline(file, split, loadSeqs, numLabels, cellMs) : Number.NaN);
      const pipelineFirst = await pipelineRate();
      log(`  ${variant} same-merge pipeline: ${formatNumber(pipelineFirst)} sentences/s`);
      const rows: string[][] = [];
      // The default plan (fp32: one session with every thread; int8: replicas + latency session), and the other plan:
      // fp32 replicas sharing one mapped copy unpacked, or each prepacking its own (--prepack, the plan before issue #25 item 6).
      const servers: Array<{ label: string; protocol: 'v1' | 'v2'; replicas: number | undefined; prepack?: boolean }> = [
        { label: 'V1', protocol: 'v1', replicas: undefined },
        { label: 'V2', protocol: 'v2', replicas: undefined },
        ...(variant === 'int8' || cpus < 2
          ? [{ label: 'V1, --replicas 1', protocol: 'v1' as const, replicas: 1 }]
          : [
              { label: `V1, --replicas ${cpus}`, protocol: 'v1' as const, replicas: cpus },
              { label: `V1, --replicas ${cpus} --prepack`, protocol: 'v1' as const, replicas: cpus, prepack: true },
            ]),
      ];
      const order = servers.length === 4 ? [0, 1, 2, 3, 3, 2, 1, 0] : [0, 1, 2, 2, 1, 0];
      // Rows run A B C C B A, each a fresh server, and are averaged: a trend over the run (load falling
      // after other work, warm-up) otherwise reads as a difference between rows (RESULTS.md round 5).
      const got = new Map<number, TokenCell[]>();
      const lone: RawB1 = { all: await createSession(file, { intraOpThreads: cpus }), one: await createSession(file, { intraOpThreads: 1 }), feeds: contenders.feeds };
      try {
        for (const i of order) {
          const cell = await measureTokenServer(manifest(dir, variant, servers[i].protocol), servers[i].protocol, servers[i].replicas, cpus, cellMs, lone, servers[i].prepack === true);
          log(`  ${variant} ${servers[i].label}: c=32 ${formatNumber(cell.rate)} sentences/s on ${formatNumber(cell.serverCores)} server cores (client ${formatNumber(cell.clientCores)}), live p99 ${formatNumber(cell.liveP99)} ms; c=1 p50 ${formatNumber(cell.p50)} ms`);
          got.set(i, [...(got.get(i) ?? []), cell]);
        }
      } finally {
        await lone.all.release();
        await lone.one.release();
      }
      const second = await measureLimitPass();
      const pipeline = Math.max(pipelineFirst, await pipelineRate());
      const limit = betterPass(first.limit, second.limit);
      const best = limit.reduce((a, b) => (b.rate > a.rate ? b : a));
      const leanest = limit.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
      servers.forEach(({ label }, i) => {
        const cells = got.get(i) ?? [];
        const mean = (f: (c: TokenCell) => number) => cells.reduce((a, c) => a + f(c), 0) / cells.length;
        const { split, latency } = cells[0];
        const rate = mean((c) => c.rate);
        const p50 = mean((c) => c.p50);
        const serverCpuUs = mean((c) => c.serverCpuUs);
        // A lone request runs on the latency session (all threads) when it was kept at load, else on a
        // 1-thread replica (--replicas 1: one session with all threads): p50 is compared with the faster
        // raw batch-1 of the two, measured on the same texts right before each c=1 cell.
        const b1All = mean((c) => c.b1All);
        const b1One = split.length > 1 ? mean((c) => c.b1One) : Number.NaN;
        const overB1 = mean((c) => c.p50 - (split.length > 1 ? Math.min(c.b1All, c.b1One) : c.b1All));
        rows.push([
          `${variant} ${label} (${split.length > 1 ? `${split.length} replicas × ${split[0]}${latency !== undefined ? ` + latency session × ${latency}` : ''}` : `1 session × ${split[0]}`})`,
          `${formatNumber(best.rate)} (b${best.batch}, ${best.config})`,
          `${formatNumber(rate)} (${cells.map((c) => formatNumber(c.rate)).join(', ')})`,
          formatRatio(rate, best.rate),
          formatNumber(mean((c) => c.perCall)),
          formatBusy(mean((c) => c.busy)),
          Number.isNaN(pipeline) ? '–' : `${formatNumber(pipeline)} (${formatRatio(rate, pipeline)})`,
          formatNumber(mean((c) => c.serverCores)),
          formatNumber(mean((c) => c.clientCores)),
          formatNumber(mean((c) => c.mainMsPerRequest)),
          formatNumber(serverCpuUs),
          `${formatNumber(leanest.cpuUs)} (b${leanest.batch}, ${leanest.config})`,
          formatRatio(leanest.cpuUs, serverCpuUs),
          formatNumber(Math.max(...cells.map((c) => c.liveP99))),
          formatNumber(p50),
          `${formatNumber(b1All)} / ${Number.isNaN(b1One) ? '–' : formatNumber(b1One)}`,
          formatNumber(overB1),
          memoryCell(mean((c) => c.loadRssBytes), mean((c) => c.loadPssBytes), weightBytes),
          memoryCell(mean((c) => c.rssBytes), mean((c) => c.pssBytes), weightBytes),
        ]);
      });
      const loadAfter = loadavg()[0];
      const busy = loadBefore > 0.5 * budget.affinity;
      const raw = (config: string) => limit.filter((l) => l.config === config).map((l) => `b${l.batch} ${formatNumber(l.rate)}`).join(', ');
      tables.push({
        title: `Server vs the in-process limit, ${variant}, ${shape.layers}-layer BERT-shaped graph (${shape.hidden} hidden), ${cpus} threads${busy ? ' — BUSY MACHINE' : ''}`,
        headers: ['graph / protocol (sessions × threads)', 'limit sent/s (best batch, config)', 'server c=32 sent/s (mean of passes)', 'server / limit', 'texts per merged call (c=32)', 'replicas busy (c=32)', 'same-merge pipeline sent/s (server / it)', 'server cores (c=32)', 'client cores', 'main thread ms/req', 'server CPU µs/sent', 'raw CPU µs/sent (leanest)', 'raw / server CPU', '/v2/health/live p99 ms', 'server c=1 p50 ms', 'raw b1 ms, same texts (all threads / 1 thread)', 'c=1 p50 − faster b1 ms', 'model memory at load (serve\'s line): RSS / PSS growth GiB (× weights)', 'model memory after c=32: RSS / PSS growth GiB (× weights)'],
        rows,
        notes: [
          `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} on ${budget.affinity} CPUs${busy ? ': the machine was busy (other processes held cores), so absolute numbers and ratios are noisy' : ''}.`,
          `Limit = raw onnxruntime-node runs on pre-tokenized tensors of the load's 32-text mix sorted by length and cut into batches of 1, 8 or 32 (the least padding any batching can have), median per batch size, measured before and after the server rows (the better of the two per cell): one session with ${cpus} intra-op threads, spinning off ${raw('spin off')}; spinning on ${raw('spin on')}${cpus > 1 ? `; ${cpus} one-thread sessions in worker threads taking batches side by side ${raw(`${cpus}×1 replicas`)}` : ''} sentences/s. The server runs with spinning off (its default).`,
          `Server = inferkit serve (defaultLoaders, ${cpus} threads planned: by default an fp32 model is one session with all threads in a worker thread (one prepacked copy of the weights), an int8 one gets one session replica per thread, at most 4, plus a latency session with all threads for lone requests; the last rows: fp32 with --replicas ${cpus} (the replicas and latency session map one packed copy of the weights, made once into the model cache) and with --replicas ${cpus} --prepack (a private packed copy per session: the plan before issue #25 item 6), int8 with --replicas 1; dynamic batching at its defaults, the event loop at nice +10 once loaded as inferkit serve runs it) with one single-text request per call; ${cellMs} ms per cell, keep-alive HTTP on 127.0.0.1, load generator in a child process (bench/lib/load-process.ts: one socket per client writing pre-built requests and reading only the status and framing of each answer, as wrk does, so it takes as little of the machine as it can). Rows run in the order A B C C B A, or A B C D D C B A (a fresh server each time) and are averaged, the passes in brackets: cores, CPU and main-thread time and p50 are means, health p99 the worse pass. Server cores = the server process's CPU time (main + worker threads) / wall during the c=32 cell; client cores = the load generator's; main thread ms/req = the server's event-loop busy time per request (HTTP, JSON, tokenizing, batching); replicas busy = the wall time the sessions' worker threads spent on runs (/metrics inferkit_model_compute_seconds_total) / (wall × replicas): what is left is replicas waiting for their next run, not CPU they lacked (a preempted run counts as busy). /v2/health/live p99: a second c=32 cell right after, probed every 10 ms on its own connection (the throughput cell is unprobed: at that rate the probes cost the event loop as much as the load's requests).`,
          `Same-merge pipeline: inferkit's run path in this process without HTTP (runTokenLogits: sorted by length, runs of at most 8 texts, run-ahead) on the replicas the server plans (${split.join(' + ')} threads), fed one overlapping call per replica, together holding the load's 32 texts, as the server's merged calls are at concurrency 32 (texts per merged call from /metrics inferkit_batch_size); the better of a pass before and after the rows. Limit / pipeline is what the batch composition costs (a merge sees only the texts queued at that moment, the limit sorts all 32); pipeline / server is what HTTP, JSON, tokenizing and the load generator cost.`,
          `CPU µs per sentence: the server process's CPU time (all threads) during the c=32 cell / sentences answered, against raw ORT's leanest CPU time per sentence. On a shared machine this is steadier than sentences/s: it does not count time the process spent waiting for a core. Raw b1 ms: the median of batch-1 runs, one at a time, cycling through the c=1 load's 16 texts, measured right before each c=1 cell (the server idle) on one session with all threads (what the latency session or --replicas 1 runs) and on one 1-thread session (what a lone request runs on when the latency session was dropped at load); the last column is the mean over passes of each pass's p50 minus its faster raw batch-1 (all threads only for --replicas 1).`,
          `Model memory at load: what inferkit serve prints per model and /inferkit/v1/services reports (state.memory): the process's RSS and PSS growth while the model's sessions opened and made their load-time runs, no other model's doing so meanwhile (src/runtime/model-memory/). After c=32: the growth of this process's RSS and PSS (/proc/self/smaps_rollup) from before the server started to the end of its c=32 cell, averaged over passes, against the graph's weights (${(weightBytes / 2 ** 30).toFixed(2)} GiB). A model's sessions map one copy of its weights (src/runtime/shared-weights/): PSS counts it once, RSS once per session that mapped it. Memory a closed server freed but the allocator kept can make a later pass's growth read low.`,
          `Machine: ${machineLine(machineInfo())}.`,
        ],
      });
    }
  } finally {
    await contenders.dispose();
  }
  tables.push(await forecast());
  return { tables };
}

// By the script's name, not import.meta.url: bundled into another bench (bench/gpu/prepare.sh), this module shares its URL.
if (/server-limit\.(ts|mjs)$/.test(process.argv[1] ?? '')) {
  const argv = process.argv.slice(2);
  const num = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  const families = parseFamilies(argv.filter((_, i) => argv[i - 1] === '--family'));
  const replicaList = (args: string[]): number[] | undefined => {
    const i = args.indexOf('--forecast-replicas');
    if (i < 0) {
      return undefined;
    }
    const list = (args[i + 1] ?? '').split(',').map(Number);
    if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new Error(`--forecast-replicas ${args[i + 1] ?? ''}: expected replica counts, e.g. 4,16`);
    }
    return list;
  };
  runServerLimitBench({ quick: argv.includes('--quick'), layers: num('--layers'), cellMs: num('--cell-ms'), threads: num('--threads'), forecastOnly: argv.includes('--forecast-only'), forecastReplicas: replicaList(argv), families, log: (l) => process.stderr.write(`${l}\n`) })
    .then((r) => process.stdout.write(`${r.tables.map(renderTable).join('\n\n')}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
