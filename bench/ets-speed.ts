/**
 * AutoETS fit speed: selection by AICc over the whole family on 1,000 synthetic monthly series
 * (lengths 48–240, level × trend × seasonal pattern × noise, all positive, seeded) on one core.
 * Target: under 10 s. Run: `npx tsx bench/ets-speed.ts`.
 */
import { pathToFileURL } from 'node:url';
import { normalGenerator } from '../src/runtime/forecast/ets/random.js';
import { selectEts } from '../src/runtime/forecast/ets/select-ets.js';

/** 1,000 reproducible monthly series. */
export function syntheticMonthly(count = 1000, seed = 7): Float64Array[] {
  const draw = normalGenerator(seed);
  const out: Float64Array[] = [];
  for (let i = 0; i < count; i++) {
    const n = 48 + (Math.floor(Math.abs(draw()) * 1e6) % 193);
    const level = 100 + 50 * Math.abs(draw());
    const slope = 0.3 * draw();
    const amp = 0.05 + 0.2 * Math.abs(draw());
    const noise = 0.02 + 0.05 * Math.abs(draw());
    const phase = Math.abs(draw()) * 6;
    out.push(Float64Array.from({ length: n }, (_, t) => Math.max(1, (level + slope * t) * (1 + amp * Math.sin((2 * Math.PI * t) / 12 + phase)) * (1 + noise * draw()))));
  }
  return out;
}

/** Seconds (wall and this process's user CPU, which a busy shared machine inflates less) AutoETS takes to select and fit a model for every series; and the models chosen. */
export function runEtsSpeedBench(options: { quick?: boolean; count?: number } = {}): { seconds: number; cpuSeconds: number; series: number; values: number; models: Record<string, number> } {
  const series = syntheticMonthly(options.count ?? (options.quick === true ? 200 : 1000));
  const models: Record<string, number> = {};
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (const y of series) {
    const name = selectEts(y, { season: 12 }).model;
    models[name] = (models[name] ?? 0) + 1;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = process.cpuUsage(c0).user / 1e6;
  return { seconds, cpuSeconds, series: series.length, values: series.reduce((a, y) => a + y.length, 0), models };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = runEtsSpeedBench({ count: Number(process.argv[2] ?? 1000) });
  console.log(`AutoETS on ${r.series} monthly series (${r.values} values): ${r.seconds.toFixed(2)} s wall, ${r.cpuSeconds.toFixed(2)} s CPU (${((1000 * r.cpuSeconds) / r.series).toFixed(2)} ms CPU/series)`);
  console.log(JSON.stringify(r.models));
}
