import { pathToFileURL } from 'node:url';
import type { BenchOptions, BenchResult } from './lib/bench-result.js';
import { RssSampler } from './lib/rss.js';
import { baselineScaling, boltScaling, type ForecastScalingOptions } from './lib/scaling-forecast.js';
import { textLengthScaling } from './lib/scaling-text.js';
import { renderTable } from './lib/table.js';

/**
 * How cost grows: forecasting vs number of series (1 → 10k) and vs series length (64 → 4,096) on
 * the bolt-like graph and the Theta baseline; token classification vs text length (8 → 512
 * tokens). Every table has a per-unit cost column, so linear growth shows as a flat column.
 */
export async function runScalingBench(options: ForecastScalingOptions = {}): Promise<BenchResult> {
  const rss = new RssSampler().start();
  try {
    const text = await textLengthScaling(options);
    const bolt = await boltScaling(options);
    const baseline = await baselineScaling(options);
    return { tables: [text, ...bolt, ...baseline], peakRssBytes: rss.stop().peakBytes };
  } finally {
    rss.stop();
  }
}

function cliOptions(argv: readonly string[]): ForecastScalingOptions & BenchOptions {
  const threads = argv.includes('--threads') ? Number(argv[argv.indexOf('--threads') + 1]) : undefined;
  return { quick: argv.includes('--quick'), long: argv.includes('--long'), threads, log: (l) => process.stderr.write(`${l}\n`) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runScalingBench(cliOptions(process.argv.slice(2))).then(
    (r) => process.stdout.write(`${r.tables.map(renderTable).join('\n\n')}\n`),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
