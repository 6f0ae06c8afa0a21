/**
 * Server vs in-kernel token classification on a BERT-base-shaped graph (generated once into
 * ~/.cache/inferkit-bench): sentences/s and p50/p99 request latency at concurrency 1, 8, 32 for V1
 * and V2 with 1 and 8 texts per request, with dynamic batching on and off, against in-kernel
 * `predictTokenIds` at batch 1, 8 and 32 measured in the same process. Real HTTP on 127.0.0.1 with
 * keep-alive connections, client and server in one process (as a notebook calling a local server).
 * Run: `npx tsx bench/server.ts [--quick] [--layers N] [--cell-ms MS] [--threads N]`.
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { InferenceService } from '../src/contract/inference-service.js';
import { loadTokenClassifier } from '../src/runtime/token-classification/load-token-classifier.js';
import type { TokenClassifier } from '../src/runtime/token-classification/token-classifier.js';
import { servedTokenClassifier } from '../src/server/default-loaders.js';
import type { ModelLoaders } from '../src/server/model-loader.js';
import { serve, type RunningServer } from '../src/server/serve.js';
import { benchText, benchWords } from './lib/bench-text.js';
import type { BenchOptions, BenchResult } from './lib/bench-result.js';
import { BERT_BASE, BERT_SMALL, cachedBertRepo } from './lib/graph-cache.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { measure } from './lib/measure.js';
import { withPeakRss } from './lib/rss.js';
import { formatNumber, formatRatio, median, percentile } from './lib/stats.js';
import { renderTable } from './lib/table.js';

/** Options of {@link runServerBench}. */
export interface ServerBenchOptions extends BenchOptions {
  /** Encoder layers of the BERT-base-shaped graph (768 hidden, 12 heads). @default 12 (quick: the 2-layer small graph) */
  layers?: number;
  /** Time per measured cell, ms (at least `concurrency` requests are made). @default 3000 (quick 600) */
  cellMs?: number;
  /** @default [1, 8, 32] */
  concurrencies?: number[];
  /** Texts per request. @default [1, 8] */
  textsPerRequest?: number[];
  /** Server batching limits when batching is on. @default 32 texts, 2 ms */
  maxBatchSize?: number;
  maxWaitMs?: number;
}

/** One measured server cell. */
export interface ServerCell {
  protocol: 'v1' | 'v2';
  texts: number;
  concurrency: number;
  batching: boolean;
  sentencesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** In-kernel batch-32 sentences/s measured right before this cell (drift on a shared machine hits both alike). */
  kernelB32: number;
}

const WORDS = [6, 14, 9, 20, 11, 8, 16, 12];

function benchTexts(count: number, seed: number): string[] {
  const pool = benchWords();
  return Array.from({ length: count }, (_, i) => benchText(WORDS[i % WORDS.length], seed * 7919 + i, pool));
}

function manifest(name: string, v2: boolean): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, ...(v2 ? { protocolVersion: 'v2' as const } : {}), args: [`--model_name=${name}`, '--model_id=bench/bert'] } } },
  };
}

function post(agent: Agent, port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `concurrency` clients send requests back to back for `cellMs`; every answer must be 200. */
async function runCell(server: RunningServer, protocol: 'v1' | 'v2', texts: number, concurrency: number, cellMs: number): Promise<Omit<ServerCell, 'batching' | 'kernelB32'>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const path = protocol === 'v1' ? '/v1/models/bert:predict' : '/v2/models/bert2/infer';
  const bodies = Array.from({ length: 16 }, (_, i) => {
    const t = benchTexts(texts, 100 + i);
    return JSON.stringify(protocol === 'v1' ? { instances: t } : { inputs: [{ name: 'text', shape: [t.length], datatype: 'BYTES', data: t }] });
  });
  const latencies: number[] = [];
  let sent = 0;
  const client = async (id: number, until: number, record: boolean) => {
    for (let n = 0; n < 100_000; n++) {
      if (performance.now() >= until && n > 0) {
        return;
      }
      const t0 = performance.now();
      const status = await post(agent, server.port, path, bodies[(id + n) % bodies.length]);
      if (status !== 200) {
        throw new Error(`${path} answered ${status}`);
      }
      if (record) {
        latencies.push(performance.now() - t0);
        sent += 1;
      }
    }
  };
  // Warm-up: a few requests (not a full round, which at concurrency 32 × 8 texts is 256 sentences).
  await Promise.all(Array.from({ length: Math.min(concurrency, 4) }, (_, i) => client(i, 0, false)));
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, i) => client(i, t0 + cellMs, true)));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { protocol, texts, concurrency, sentencesPerSecond: (sent * texts) / seconds, p50Ms: median(latencies), p99Ms: percentile(latencies, 99), requests: sent };
}

/** Runs the benchmark and returns its markdown table. */
export async function runServerBench(options: ServerBenchOptions = {}): Promise<BenchResult & { cells: ServerCell[] }> {
  const log = options.log ?? (() => undefined);
  const shape = options.quick ? BERT_SMALL : { ...BERT_BASE, layers: options.layers ?? BERT_BASE.layers };
  const cellMs = options.cellMs ?? (options.quick ? 600 : 3000);
  const concurrencies = options.concurrencies ?? [1, 8, 32];
  const perRequest = options.textsPerRequest ?? [1, 8];
  const threads = options.threads ?? 1;
  const cells: ServerCell[] = [];
  const { value: kernel, rss } = await withPeakRss(async () => {
    log(`server: graph ${JSON.stringify(shape)}, ${threads} intra-op thread(s), ${cellMs} ms per cell`);
    const dir = await cachedBertRepo(shape);
    const model: TokenClassifier = await loadTokenClassifier(dir, { modelName: 'bert', session: { intraOpThreads: threads } });
    // One session shared by every service of both servers, so all contenders run the same weights.
    const loaders: ModelLoaders = { token_classification: async () => ({ ...servedTokenClassifier(model), dispose: async () => undefined }) };
    const kernelRates: Record<number, number> = {};
    for (const b of [1, 8, 32]) {
      const texts = benchTexts(b, 7);
      const m = await measure(() => model.predictTokenIds(texts), { warmup: 1, runs: 50, budgetMs: Math.max(cellMs, 1000), minRuns: 3 });
      kernelRates[b] = (b * 1000) / m.median;
      log(`  in-kernel batch ${b}: ${formatNumber(kernelRates[b])} sentences/s`);
    }
    const b32 = benchTexts(32, 7);
    for (const batching of [false, true]) {
      const server = await serve([manifest('bert', false), manifest('bert2', true)], {
        port: 0,
        loaders,
        maxBatchSize: options.maxBatchSize ?? 32,
        maxWaitMs: batching ? (options.maxWaitMs ?? 2) : 0,
      });
      try {
        await server.loaded();
        for (const protocol of ['v1', 'v2'] as const) {
          for (const texts of perRequest) {
            for (const c of concurrencies) {
              const ref = await measure(() => model.predictTokenIds(b32), { warmup: 0, runs: 2 });
              const cell = { ...(await runCell(server, protocol, texts, c, cellMs)), batching, kernelB32: (32 * 1000) / ref.median };
              cells.push(cell);
              log(`  ${protocol} ${texts} text(s)/req c=${c} batching=${batching}: ${formatNumber(cell.sentencesPerSecond)} sent/s, p50 ${formatNumber(cell.p50Ms)} ms`);
            }
          }
        }
      } finally {
        await server.close();
      }
    }
    await model.dispose();
    return kernelRates;
  });
  const rows = [...cells]
    .sort((a, b) => a.protocol.localeCompare(b.protocol) || a.texts - b.texts || a.concurrency - b.concurrency || Number(a.batching) - Number(b.batching))
    .map((c) => [
      c.protocol.toUpperCase(),
      String(c.texts),
      String(c.concurrency),
      c.batching ? 'on' : 'off',
      formatNumber(c.sentencesPerSecond),
      formatNumber(c.p50Ms),
      formatNumber(c.p99Ms),
      formatNumber(c.kernelB32),
      formatRatio(c.sentencesPerSecond, c.kernelB32),
    ]);
  const table = {
    title: `Server vs in-kernel, ${shape.layers}-layer BERT-base-shaped graph (${shape.hidden} hidden), ${threads} intra-op thread(s)`,
    headers: ['protocol', 'texts/req', 'concurrency', 'batching', 'sentences/s', 'p50 ms', 'p99 ms', 'in-kernel b32 sent/s', 'server / in-kernel b32'],
    rows,
    notes: [
      `In-kernel predictTokenIds, same session, same process, before the server cells: batch 1 ${formatNumber(kernel[1])}, batch 8 ${formatNumber(kernel[8])}, batch 32 ${formatNumber(kernel[32])} sentences/s. The ratio column divides by a batch-32 run (median of 2) taken right before each cell.`,
      `Texts of 6–20 words (8–22 tokens); ${cellMs} ms per cell after a warm-up; keep-alive HTTP on 127.0.0.1, client in the same process.`,
      `Batching on: maxBatchSize ${options.maxBatchSize ?? 32} texts, maxWaitMs ${options.maxWaitMs ?? 2}; off: each request is its own model call (concurrent calls share the session).`,
      `Machine: ${machineLine(machineInfo())}.`,
    ],
  };
  return { tables: [table], peakRssBytes: rss.peakBytes, cells };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const num = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  runServerBench({ quick: argv.includes('--quick'), layers: num('--layers'), cellMs: num('--cell-ms'), threads: num('--threads'), log: (l) => process.stderr.write(`${l}\n`) })
    .then((r) => process.stdout.write(`${r.tables.map(renderTable).join('\n\n')}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
