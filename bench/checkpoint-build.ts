/**
 * Graphs built from checkpoints (issue 24, Chronos-Bolt):
 * 1. speed — the graph inferkit builds from the conformance checkpoint's `model.safetensors` vs the torch
 *    export of the same weights (`onnx/model.onnx` in ../shared/conformance/chronos-bolt/model): raw
 *    `InferenceSession.run`, same batches, same threads, runs interleaved, load average noted (target ≥ 0.95×);
 * 2. build — a chronos-bolt-base-sized checkpoint (~205 M random F32 weights, generated once into the bench
 *    cache) built into a graph by `resolveModelGraph` in a fresh process: wall time and the process's peak RSS
 *    vs the weights' size (targets ≤ 30 s, ≤ 2.5×), then a second load (cached graph) and one forecast run.
 * Run: `npx tsx bench/checkpoint-build.ts [--quick] [--threads N]`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveModelGraph } from '../src/checkpoint/resolve-model-graph.js';
import { FORECAST_ONNX_GRAPHS, FORECAST_SIDE_FILES } from '../src/hub/file-spec.js';
import { createLocalSession, float32Tensor } from '../src/runtime/ort.js';
import { BOLT_BASE, BOLT_QUICK, writeBoltCheckpoint } from './lib/bolt-checkpoint.js';
import { benchCacheDir } from './lib/graph-cache.js';
import { formatSummary, median, summarize } from './lib/stats.js';
import type { Table } from './lib/table.js';

/** Options of {@link runCheckpointBuildBench}. */
export interface CheckpointBuildBenchOptions {
  /** Small shapes, few runs. @default false */
  quick?: boolean;
  /** Intra-op threads of both sessions. @default 1 */
  threads?: number;
  /** Bench cache (the generated checkpoint). @default benchCacheDir() */
  cacheDir?: string;
  log?: (line: string) => void;
}

const CONFORMANCE_MODEL = process.env.INFERKIT_CHRONOS_CONFORMANCE ? join(process.env.INFERKIT_CHRONOS_CONFORMANCE, 'model') : join(process.cwd(), '../shared/conformance/chronos-bolt/model');
const GRAPH = { task: 'forecast' as const, onnxGraphs: FORECAST_ONNX_GRAPHS, files: FORECAST_SIDE_FILES };

/** Runs both parts; returns their tables. */
export async function runCheckpointBuildBench(options: CheckpointBuildBenchOptions = {}): Promise<Table[]> {
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const tables: Table[] = [];
  if (existsSync(join(CONFORMANCE_MODEL, 'model.safetensors'))) {
    tables.push(await speedVsExport(options.threads ?? 1, options.quick === true, log));
  } else {
    log(`no conformance checkpoint at ${CONFORMANCE_MODEL}: speed comparison skipped`);
  }
  tables.push(buildBase(options.quick === true, options.cacheDir ?? benchCacheDir(), log));
  return tables;
}

/** Built graph vs the torch export of the same weights: series/s per batch, interleaved runs. */
async function speedVsExport(threads: number, quick: boolean, log: (l: string) => void): Promise<Table> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'inferkit-ckpt-bench-'));
  try {
    const built = await resolveModelGraph(CONFORMANCE_MODEL, { ...GRAPH, cacheDir, preferCheckpoint: true });
    const opts = { intraOpThreads: threads };
    const a = await createLocalSession(built.graphPath, opts);
    const b = await createLocalSession(join(CONFORMANCE_MODEL, 'onnx', 'model.onnx'), opts);
    const loadBefore = loadavg()[0];
    const rows: string[][] = [];
    const shapes: [number, number][] = quick ? [[1, 512], [64, 512]] : [[1, 64], [1, 512], [16, 512], [64, 512], [256, 512], [64, 128]];
    for (const [batch, time] of shapes) {
      const x = Float32Array.from({ length: batch * time }, (_, i) => 100 + 10 * Math.sin(i / 7) + ((i * 7919) % 13));
      const feeds = { context: float32Tensor(x, [batch, time]) };
      const once = async (s: typeof a): Promise<number> => {
        const t = performance.now();
        await s.run(feeds);
        return performance.now() - t;
      };
      const budget = quick ? 1500 : 6000;
      for (let i = 0; i < 3; i++) {
        await once(a);
        await once(b);
      }
      const ta: number[] = [];
      const tb: number[] = [];
      for (const start = performance.now(); (ta.length < 5 || performance.now() - start < budget) && ta.length < 200; ) {
        // Alternate which goes first, so neither always runs on a warmer cache.
        if (ta.length % 2 === 0) {
          ta.push(await once(a));
          tb.push(await once(b));
        } else {
          tb.push(await once(b));
          ta.push(await once(a));
        }
      }
      const [ma, mb] = [median(ta), median(tb)];
      rows.push([`${batch} × ${time}`, formatSummary(summarize(ta)), formatSummary(summarize(tb)), (batch / (ma / 1000)).toFixed(0), (batch / (mb / 1000)).toFixed(0), `${(mb / ma).toFixed(2)}×`, String(ta.length)]);
      log(`  ${batch}×${time}: built ${ma.toFixed(2)} ms, export ${mb.toFixed(2)} ms`);
    }
    await a.release();
    await b.release();
    return {
      title: `Built graph vs the torch export of the same weights (conformance Chronos-Bolt, d_model 64, 2+2 layers; ${threads} intra-op thread(s))`,
      headers: ['batch × time', 'built ms', 'export ms', 'built series/s', 'export series/s', 'built / export speed', 'runs each'],
      rows,
      notes: [
        'Raw InferenceSession.run on identical tensors (graphOptimizationLevel all, cpu), the two sessions alternating run by run (which one goes first alternates too); medians (min–max).',
        `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadavg()[0].toFixed(2)} on ${threads} thread(s): on a shared machine trust the ratio more than the milliseconds.`,
      ],
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

interface ChildReport {
  ms: number;
  /** CPU seconds (user + system) the process spent in resolveModelGraph. */
  cpuS: number;
  cached: boolean;
  maxRssBytes: number;
  startRssBytes: number;
  runMs?: number;
}

/** A chronos-bolt-base-sized checkpoint built in a fresh process (peak RSS = that process's), then loaded again. */
function buildBase(quick: boolean, benchCache: string, log: (l: string) => void): Table {
  const shape = quick ? BOLT_QUICK : BOLT_BASE;
  const dir = join(benchCache, `chronos-bolt-${quick ? 'quick' : 'base'}-random-v1`);
  log(`  generating (once) ${dir}`);
  const weights = writeBoltCheckpoint(dir, shape);
  const graphCache = mkdtempSync(join(tmpdir(), 'inferkit-ckpt-build-'));
  try {
    const child = (): ChildReport => {
      const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', dir, graphCache, String(shape.contextLength)], { encoding: 'utf8', maxBuffer: 1 << 20 });
      return JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildReport;
    };
    const first = child();
    const second = child();
    const gib = (n: number): string => `${(n / 2 ** 30).toFixed(2)} GiB`;
    log(`  build ${(first.ms / 1000).toFixed(1)} s (${first.cpuS.toFixed(1)} CPU s), load ${loadavg()[0].toFixed(1)}, peak RSS ${gib(first.maxRssBytes)} (${(first.maxRssBytes / weights).toFixed(2)}× weights)`);
    return {
      title: `Building a Chronos-Bolt graph from safetensors: ${quick ? 'quick shape' : 'chronos-bolt-base shape'} (d_model ${shape.dModel}, ${shape.layers}+${shape.layers} layers, d_ff ${shape.dFF}, ${(weights / 4 / 1e6).toFixed(0)} M parameters)`,
      headers: ['load', 'resolveModelGraph s', 'CPU s', 'process peak RSS', 'peak RSS / weights', 'RSS before', 'one run, 1 × context (ms)'],
      rows: [first, second].map((r, i) => [
        i === 0 ? 'first (build + write)' : 'second (cached graph)',
        (r.ms / 1000).toFixed(2),
        r.cpuS.toFixed(2),
        gib(r.maxRssBytes),
        `${(r.maxRssBytes / weights).toFixed(2)}×`,
        gib(r.startRssBytes),
        r.runMs === undefined ? '' : r.runMs.toFixed(0),
      ]),
      notes: [
        `Weights ${gib(weights)} F32 (random, generated once into the bench cache); targets: build ≤ 30 s, peak RSS ≤ 2.5× the weights.`,
        `Load average (1 min) at the end: ${loadavg()[0].toFixed(2)} on ${cpus().length} cores — wall seconds grow with it; CPU seconds are what the build costs.`,
        'Each load runs in a fresh Node process (tsx): peak RSS is that process\'s getrusage maxrss, the Node/tsx baseline included (RSS before = at the start of the child).',
        `The one run opens the built graph (1 thread) and forecasts one ${shape.contextLength}-step series, after the load is timed.`,
      ],
    };
  } finally {
    rmSync(graphCache, { recursive: true, force: true });
  }
}

/** Child: resolve (build or reuse) the graph, report time and peak RSS, then run it once. */
async function child(dir: string, graphCache: string, context: number): Promise<void> {
  const startRssBytes = process.memoryUsage.rss();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await resolveModelGraph(dir, { ...GRAPH, cacheDir: graphCache });
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  const s = await createLocalSession(r.graphPath, { intraOpThreads: 1 });
  const x = Float32Array.from({ length: context }, (_, i) => 100 + 10 * Math.sin(i / 7));
  const t2 = performance.now();
  const out = await s.run({ context: float32Tensor(x, [1, context]) });
  const runMs = performance.now() - t2;
  if (!(out.quantile_preds.data as Float32Array).every(Number.isFinite)) {
    throw new Error('the built graph gave non-finite forecasts');
  }
  await s.release();
  process.stdout.write(`${JSON.stringify({ ms, cpuS, cached: r.cached === true, maxRssBytes, startRssBytes, runMs } satisfies ChildReport)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    await child(argv[1], argv[2], Number(argv[3]));
  } else {
    const threads = argv.includes('--threads') ? Number(argv[argv.indexOf('--threads') + 1]) : 1;
    const tables = await runCheckpointBuildBench({ quick: argv.includes('--quick'), threads });
    const { renderTable } = await import('./lib/table.js');
    process.stdout.write(`${tables.map(renderTable).join('\n\n')}\n`);
  }
}
