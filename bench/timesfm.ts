/**
 * TimesFM 2.0 and 2.5 built from their checkpoints: build time, cached reload, and series/s at batch 32
 * (horizon 128) of `model.predict` vs the limit (`session.run` of the same graph on identical feeds built before
 * the clock, cut into the same runs), interleaved. Also short series (64 values): inferkit pads a run only to its
 * longest row, the reference to the whole context (the same graph fed context-long rows stands in for it).
 * Shape: the real models' width (1280, 16 heads × 80) with 4 layers and context 512 — the 500 M-parameter 2.0
 * (2 GB) does not fit the shared 2-core box's budget; `--quick` halves the width and layers.
 * Run: `npx tsx bench/timesfm.ts [--quick] [--threads N]`.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseTimesFmConfig, TimesFm20ConfigSchema, TimesFm25ConfigSchema } from '../src/checkpoint/families/timesfm/config.js';
import { resolveModelGraph } from '../src/checkpoint/resolve-model-graph.js';
import { createSession, float32Tensor, int64Tensor, type OrtFeeds } from '../src/runtime/ort.js';
import type { ForecastModel } from '../src/runtime/forecast/forecast-model.js';
import { createTimesFm20, createTimesFm25 } from '../src/runtime/forecast/timesfm/create-timesfm.js';
import { globalScale, prepare20, prepare25, type PreparedRow } from '../src/runtime/forecast/timesfm/prepare-series.js';
import { measureInterleaved } from './lib/measure.js';
import { parameterCount, TIMESFM_20_BENCH, timesFm20Tensors, timesFm25Tensors, writeTimesFm20Checkpoint, writeTimesFm25Checkpoint, type TimesFm20Shape } from './lib/timesfm-checkpoint.js';

/** What {@link runTimesFmBench} measured for one family. */
export interface TimesFmBenchResult {
  family: 'timesfm-2.0' | 'timesfm-2.5';
  shape: TimesFm20Shape;
  parameters: number;
  buildSeconds: number;
  /** Bytes of the built graph's weights (2.5 keeps only the quantile head's first 128 steps). */
  graphMiB: number;
  cachedLoadMs: number;
  /** Peak RSS of the process so far, MiB. */
  peakRssMiB: number;
  /** series/s, batch 32, by series length: inferkit predict and the limit. */
  rows: Array<{ label: string; inferkit: number; limit: number }>;
}

const BATCH = 32;

/** The graph feeds of `rows` in runs of BATCH rows, each padded to `time`. */
function runFeeds(rows: readonly PreparedRow[], time: number, freq: boolean): OrtFeeds[] {
  const out: OrtFeeds[] = [];
  for (let at = 0; at < rows.length; at += BATCH) {
    const run = rows.slice(at, at + BATCH);
    const values = new Float32Array(run.length * time);
    const padding = new Float32Array(run.length * time).fill(1);
    run.forEach((row, r) => {
      values.set(row.values, r * time + time - row.time);
      padding.set(row.padding, r * time + time - row.time);
    });
    out.push({
      patches: float32Tensor(values, [run.length, time]),
      padding: float32Tensor(padding, [run.length, time]),
      ...(freq ? { freq: int64Tensor(new BigInt64Array(run.length), [run.length]) } : {}),
    });
  }
  return out;
}

/** Builds the scaled checkpoint's graph of `family` in a temp cache and times it; `runs` interleaved rounds per row. */
export async function runTimesFmBench(family: TimesFmBenchResult['family'], opts: { quick?: boolean; threads?: number; runs?: number } = {}): Promise<TimesFmBenchResult> {
  const shape = opts.quick ? { ...TIMESFM_20_BENCH, hidden: 640, heads: 8, intermediate: 640, layers: 2 } : TIMESFM_20_BENCH;
  const v20 = family === 'timesfm-2.0';
  const root = await mkdtemp(join(tmpdir(), 'inferkit-timesfm-bench-'));
  try {
    const dir = join(root, 'model');
    (v20 ? writeTimesFm20Checkpoint : writeTimesFm25Checkpoint)(dir, shape);
    const resolve = (): ReturnType<typeof resolveModelGraph> => resolveModelGraph(dir, { task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'cache') });
    const t0 = performance.now();
    const built = await resolve();
    const buildSeconds = (performance.now() - t0) / 1000;
    const peakRssMiB = process.resourceUsage().maxRSS / 1024;
    const t1 = performance.now();
    await resolve();
    const cachedLoadMs = performance.now() - t1;
    const raw = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as unknown;
    const session = { intraOpThreads: opts.threads ?? 2 };
    const c20 = v20 ? parseTimesFmConfig(TimesFm20ConfigSchema, raw, 'bench') : undefined;
    const c25 = v20 ? undefined : parseTimesFmConfig(TimesFm25ConfigSchema, raw, 'bench');
    const model: ForecastModel = c20
      ? await createTimesFm20(built.graphPath, c20, { name: 'bench', batchSize: BATCH, session })
      : await createTimesFm25(built.graphPath, c25 as NonNullable<typeof c25>, { name: 'bench', batchSize: BATCH, session });
    const limit = await createSession(built.graphPath, session);
    const rows: TimesFmBenchResult['rows'] = [];
    try {
      for (const [length, label] of [[shape.context, `context ${shape.context} (limit: same rows)`], [64, `length 64 (limit: padded to ${shape.context}, as the reference)`]] as const) {
        const series = Array.from({ length: BATCH }, (_, i) => Float32Array.from({ length }, (_, t) => 50 + 10 * Math.sin((t + i) / 5) + t * 0.02 - (i % 2) * 60));
        const x = series.map((s) => Float64Array.from(s));
        const prepared = c20 ? x.map((s) => prepare20(s, c20)) : x.flatMap((s) => [prepare25(s, globalScale(s, shape.context), 32, 1), prepare25(s, globalScale(s, shape.context), 32, -1)]);
        const feeds = runFeeds(prepared, shape.context, v20);
        const m = await measureInterleaved(
          { inferkit: () => model.predict(series, 128), limit: async () => { for (const f of feeds) {await limit.run(f);} } },
          { warmup: 2, runs: opts.runs ?? 11 },
        );
        rows.push({ label, inferkit: (BATCH * 1000) / m.inferkit.median, limit: (BATCH * 1000) / m.limit.median });
      }
    } finally {
      await model.dispose();
      await limit.release();
    }
    const { statSync } = await import('node:fs');
    const graphMiB = statSync(`${built.graphPath}.data`).size / 2 ** 20;
    return { family, shape, parameters: parameterCount((v20 ? timesFm20Tensors : timesFm25Tensors)(shape)), buildSeconds, graphMiB, cachedLoadMs, peakRssMiB, rows };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** run-all's entry: one family's result as table rows (one per series length). */
export async function runTimesFmFamilyBench(opts: { family: TimesFmBenchResult['family']; quick?: boolean; threads?: number }): Promise<Array<Record<string, string | number>>> {
  const r = await runTimesFmBench(opts.family, opts);
  return r.rows.map((row) => ({
    model: `${r.family}, ${(r.parameters / 1e6).toFixed(1)} M params (width ${r.shape.hidden}, ${r.shape.layers} layers)`,
    'build s': Number(r.buildSeconds.toFixed(2)),
    'cached load ms': Math.round(r.cachedLoadMs),
    series: row.label,
    'inferkit series/s': Number(row.inferkit.toFixed(1)),
    'limit series/s': Number(row.limit.toFixed(1)),
    'inferkit / limit': `${(row.inferkit / row.limit).toFixed(2)}×`,
  }));
}

/** Markdown lines of a result. */
export function timesFmBenchLines(r: TimesFmBenchResult): string[] {
  const s = r.shape;
  return [
    `${r.family} scaled: hidden ${s.hidden}, ${s.layers} layers, ${s.heads}×${s.headDim} heads, context ${s.context} — ${(r.parameters / 1e6).toFixed(1)} M parameters (${((r.parameters * 4) / 2 ** 20).toFixed(0)} MiB float32; built graph weights ${r.graphMiB.toFixed(0)} MiB)`,
    `build from model.safetensors: ${r.buildSeconds.toFixed(2)} s, process peak RSS ${r.peakRssMiB.toFixed(0)} MiB; cached reload ${r.cachedLoadMs.toFixed(0)} ms`,
    '| series (batch 32, horizon 128) | inferkit series/s | limit series/s | inferkit / limit |',
    '|---|---|---|---|',
    ...r.rows.map((row) => `| ${row.label} | ${row.inferkit.toFixed(1)} | ${row.limit.toFixed(1)} | ${(row.inferkit / row.limit).toFixed(2)}× |`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): string | undefined => process.argv.find((_, i) => process.argv[i - 1] === name);
  for (const family of ['timesfm-2.0', 'timesfm-2.5'] as const) {
    const result = await runTimesFmBench(family, { quick: process.argv.includes('--quick'), threads: Number(arg('--threads') ?? 2) });
    process.stdout.write(`${timesFmBenchLines(result).join('\n')}\n\n`);
  }
}
