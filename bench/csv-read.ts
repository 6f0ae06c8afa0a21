/**
 * `readCsv` of a long-format file (`id,timestamp,value`, 1,000 daily series × 1,000 days = 1 M rows, ~40 MB):
 * wall and CPU seconds and the peak RSS. Target: ≤ 5 s for 1 M rows, streamed. Run: `npx tsx bench/csv-read.ts`
 * (`--quick`: 100 k rows).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readCsv } from '../src/data/csv.js';

/** CSV text of `series` daily series of `days` rows each (timestamps with an offset, values with 3 decimals). */
export function longCsv(series: number, days: number): string {
  const parts = ['id,timestamp,value\n'];
  const day0 = Date.UTC(2020, 0, 1);
  for (let s = 0; s < series; s++) {
    const lines: string[] = [];
    for (let d = 0; d < days; d++) {
      const date = new Date(day0 + d * 86_400_000).toISOString().slice(0, 10);
      lines.push(`s${s},${date}T00:00:00+01:00,${(100 + 10 * Math.sin(d / 7 + s)).toFixed(3)}`);
    }
    parts.push(`${lines.join('\n')}\n`);
  }
  return parts.join('');
}

/** Reads a generated file of `series × days` rows with readCsv; returns the timings, size and peak RSS. */
export async function runCsvReadBench(options: { quick?: boolean } = {}): Promise<{ rows: number; megabytes: number; seconds: number; cpuSeconds: number; peakRssMiB: number }> {
  const series = options.quick === true ? 100 : 1000;
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-csv-bench-'));
  try {
    const path = join(dir, 'long.csv');
    await writeFile(path, longCsv(series, 1000));
    const bytes = (await stat(path)).size;
    global.gc?.();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const frame = await readCsv(path);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (frame.length !== series * 1000 || typeof frame.column('value')[0] !== 'number') {
      throw new TypeError(`readCsv read ${frame.length} rows, value ${typeof frame.column('value')[0]}`);
    }
    return { rows: frame.length, megabytes: bytes / 1e6, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMiB: peak / 2 ** 20 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await runCsvReadBench({ quick: process.argv.includes('--quick') })));
}
