/**
 * Cost of Chronos-Bolt's rollout beyond its native horizon: `quantiles` (the official pipeline's,
 * inferkit's default: each step after the first runs one copy of every series per quantile level)
 * vs `median` (one copy). Bolt-shaped random graph (context 512, horizon 64, 9 levels, patch 16,
 * d 128, 2 layers), 64 series of 512 points, forecast() with the full response.
 * Run: `npx tsx bench/rollout.ts [--threads N]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ForecastRequest, ForecastRollout } from '../src/contract/forecast.js';
import { writeChronosFixtureRepo } from '../src/onnx/model-repo.js';
import { forecast } from '../src/protocol/forecast/forecast.js';
import type { ForecastModel } from '../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../src/runtime/forecast/load-chronos-bolt.js';

/** One row: a horizon, its model rows per request and median seconds per rollout mode. */
export interface RolloutBenchRow {
  horizon: number;
  rows: Record<ForecastRollout, number>;
  seconds: Record<ForecastRollout, number>;
}

/** Times both rollouts at horizons 64 (native), 128 and 256; `repeats` timed runs each (median). */
export async function runRolloutBench(opts: { series?: number; threads?: number; repeats?: number } = {}): Promise<RolloutBenchRow[]> {
  const { series: n = 64, threads = 1, repeats = 3 } = opts;
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-rollout-bench-'));
  try {
    await writeChronosFixtureRepo(join(dir, 'bolt'), { kind: 'bolt-like', contextLength: 512, predictionLength: 64, patchSize: 16, dModel: 128, heads: 4, layers: 2, seed: 1 });
    const inner = await loadChronosBolt(join(dir, 'bolt'), { name: 'bench', session: { intraOpThreads: threads } });
    let rows = 0;
    const model: ForecastModel = { ...inner, predict: (b, h, o) => ((rows += b.length), inner.predict(b, h, o)) };
    const series = Array.from({ length: n }, (_, i) => Array.from({ length: 512 }, (_, t) => 100 + 10 * Math.sin((t + i) / 6) + t * 0.05));
    const out: RolloutBenchRow[] = [];
    for (const horizon of [64, 128, 256]) {
      const row: RolloutBenchRow = { horizon, rows: { quantiles: 0, median: 0 }, seconds: { quantiles: 0, median: 0 } };
      for (const rollout of ['median', 'quantiles'] as const) {
        const request: ForecastRequest = {
          model: 'bench',
          inputs: series.map((s, i) => ({ type: 'univariate_time_series', name: `s${i}`, series: s, frequency: 'hour' })),
          options: { horizon, quantiles: [0.1, 0.5, 0.9], rollout },
        };
        const times: number[] = [];
        for (let r = 0; r < repeats; r++) {
          rows = 0;
          const t0 = performance.now();
          await forecast(model, request);
          times.push((performance.now() - t0) / 1000);
        }
        row.rows[rollout] = rows;
        row.seconds[rollout] = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
      }
      out.push(row);
    }
    await inner.dispose();
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--threads');
  const rows = await runRolloutBench({ threads: at > 0 ? Number(process.argv[at + 1]) : 1 });
  console.log('| horizon | model rows median | model rows quantiles | s median | s quantiles | quantiles / median |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.horizon} | ${r.rows.median} | ${r.rows.quantiles} | ${r.seconds.median.toFixed(3)} | ${r.seconds.quantiles.toFixed(3)} | ${(r.seconds.quantiles / r.seconds.median).toFixed(2)}× |`);
  }
}
