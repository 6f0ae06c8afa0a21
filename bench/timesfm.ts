/**
 * TimesFM 2.0 built from its checkpoint: build time, cached reload, and series/s at batch 32 (horizon 128)
 * of `model.predict` vs the limit (`session.run` of the same graph on identical feeds built before the clock),
 * interleaved. Also short series (64 values): inferkit pads a run only to its longest row, the reference to the
 * whole context (the same graph fed 512-step rows stands in for it). Shape: the real model's width (1280,
 * 16 heads × 80) with 4 of its 50 layers and context 512 — the 500 M-parameter model (2 GB) does not fit the
 * shared 2-core box's budget; `--quick` halves the width. Run: `npx tsx bench/timesfm.ts [--quick] [--threads N]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseTimesFmConfig, TimesFm20ConfigSchema } from '../src/checkpoint/families/timesfm/config.js';
import { resolveModelGraph } from '../src/checkpoint/resolve-model-graph.js';
import { createSession, float32Tensor, int64Tensor, type OrtFeeds } from '../src/runtime/ort.js';
import { createTimesFm20 } from '../src/runtime/forecast/timesfm/create-timesfm.js';
import { prepare20 } from '../src/runtime/forecast/timesfm/prepare-series.js';
import { measureInterleaved } from './lib/measure.js';
import { TIMESFM_20_BENCH, timesFm20Parameters, writeTimesFm20Checkpoint, type TimesFm20Shape } from './lib/timesfm-checkpoint.js';

/** What {@link runTimesFmBench} measured. */
export interface TimesFmBenchResult {
  shape: TimesFm20Shape;
  parameters: number;
  buildSeconds: number;
  cachedLoadMs: number;
  /** Peak RSS of the process after the build, MiB. */
  peakRssMiB: number;
  /** series/s, batch 32, by series length: inferkit predict and the limit. */
  rows: Array<{ length: number; inferkit: number; limit: number; label: string }>;
}

const BATCH = 32;

function feedsFor(series: Float32Array[], time: number, c: Parameters<typeof prepare20>[1]): OrtFeeds {
  const values = new Float32Array(series.length * time);
  const padding = new Float32Array(series.length * time).fill(1);
  series.forEach((s, r) => {
    const row = prepare20(Float64Array.from(s), c);
    values.set(row.values, r * time + time - row.time);
    padding.set(row.padding, r * time + time - row.time);
  });
  return { patches: float32Tensor(values, [series.length, time]), padding: float32Tensor(padding, [series.length, time]), freq: int64Tensor(new BigInt64Array(series.length), [series.length]) };
}

/** Builds the scaled checkpoint's graph in a temp cache and times it; `runs` interleaved rounds per row. */
export async function runTimesFmBench(opts: { quick?: boolean; threads?: number; runs?: number } = {}): Promise<TimesFmBenchResult> {
  const shape = opts.quick ? { ...TIMESFM_20_BENCH, hidden: 640, heads: 8, intermediate: 640, layers: 2 } : TIMESFM_20_BENCH;
  const root = await mkdtemp(join(tmpdir(), 'inferkit-timesfm-bench-'));
  try {
    writeTimesFm20Checkpoint(join(root, 'model'), shape);
    const t0 = performance.now();
    const built = await resolveModelGraph(join(root, 'model'), { task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'cache') });
    const buildSeconds = (performance.now() - t0) / 1000;
    const peakRssMiB = process.resourceUsage().maxRSS / 1024;
    const t1 = performance.now();
    await resolveModelGraph(join(root, 'model'), { task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'cache') });
    const cachedLoadMs = performance.now() - t1;
    const config = parseTimesFmConfig(TimesFm20ConfigSchema, (await import(join(root, 'model', 'config.json'), { with: { type: 'json' } })).default, 'bench');
    const session = { intraOpThreads: opts.threads ?? 2 };
    const model = await createTimesFm20(built.graphPath, config, { name: 'bench', batchSize: BATCH, session });
    const raw = await createSession(built.graphPath, session);
    const rows: TimesFmBenchResult['rows'] = [];
    try {
      for (const [length, time, label] of [[512, 512, 'context 512 (limit: same rows)'], [64, 512, 'length 64 (limit: padded to 512, as the reference)']] as const) {
        const series = Array.from({ length: BATCH }, (_, i) => Float32Array.from({ length }, (_, t) => 50 + 10 * Math.sin((t + i) / 5) + t * 0.02));
        const feeds = feedsFor(series, time, config);
        const m = await measureInterleaved({ inferkit: () => model.predict(series, 128), limit: () => raw.run(feeds) }, { warmup: 2, runs: opts.runs ?? 11 });
        rows.push({ length, label, inferkit: (BATCH * 1000) / m.inferkit.median, limit: (BATCH * 1000) / m.limit.median });
      }
    } finally {
      await model.dispose();
      await raw.release();
    }
    return { shape, parameters: timesFm20Parameters(shape), buildSeconds, cachedLoadMs, peakRssMiB, rows };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Markdown lines of a result. */
export function timesFmBenchLines(r: TimesFmBenchResult): string[] {
  const s = r.shape;
  return [
    `TimesFM 2.0 scaled: hidden ${s.hidden}, ${s.layers} layers, ${s.heads}×${s.headDim} heads, context ${s.context} — ${(r.parameters / 1e6).toFixed(1)} M parameters (${((r.parameters * 4) / 2 ** 20).toFixed(0)} MiB float32)`,
    `build from model.safetensors: ${r.buildSeconds.toFixed(2)} s, process peak RSS ${r.peakRssMiB.toFixed(0)} MiB; cached reload ${r.cachedLoadMs.toFixed(0)} ms`,
    '| series (batch 32, horizon 128) | inferkit series/s | limit series/s | inferkit / limit |',
    '|---|---|---|---|',
    ...r.rows.map((row) => `| ${row.label} | ${row.inferkit.toFixed(1)} | ${row.limit.toFixed(1)} | ${(row.inferkit / row.limit).toFixed(2)}× |`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): string | undefined => process.argv.find((_, i) => process.argv[i - 1] === name);
  const result = await runTimesFmBench({ quick: process.argv.includes('--quick'), threads: Number(arg('--threads') ?? 2) });
  process.stdout.write(`${timesFmBenchLines(result).join('\n')}\n`);
}
