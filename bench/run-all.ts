import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ACCURACY_ADAPTER, DEFAULT_ADAPTER, FORECAST_ADAPTER, type BenchAdapter } from './lib/colleague-adapters.js';
import { benchCacheDir } from './lib/graph-cache.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { normalizeResult } from './lib/normalize-result.js';
import { writeSection } from './lib/results-doc.js';
import { RssSampler } from './lib/rss.js';
import { formatMiB } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));

/** One benchmark run-all knows: a module in bench/ and the function it exports. */
interface BenchEntry {
  name: string;
  title: string;
  /** File under bench/ (without extension). */
  file: string;
  /** Exported function names tried in order; the first function found is called. */
  exports: string[];
  /** How to call it and render its result. @default DEFAULT_ADAPTER */
  adapter?: BenchAdapter;
}

const BENCHES: BenchEntry[] = [
  { name: 'token-classification', title: 'Token classification in the kernel (raw ORT vs inferkit vs transformers.js)', file: 'token-classification', exports: ['runTokenClassificationBench'] },
  { name: 'forecast', title: 'Forecast in the kernel (raw ORT vs inferkit)', file: 'forecast', exports: ['runForecastBench'], adapter: FORECAST_ADAPTER },
  { name: 'accuracy', title: 'Forecast accuracy of the baselines (rolling-origin backtest)', file: 'accuracy', exports: ['runAccuracyBench'], adapter: ACCURACY_ADAPTER },
  // Cost of the pipeline's all-quantile rollout beyond the native horizon vs the median path.
  {
    name: 'rollout',
    title: 'Chronos-Bolt rollout beyond the native horizon: all quantile paths (default) vs median path',
    file: 'rollout',
    exports: ['runRolloutBench'],
    adapter: {
      calls: (o) => [{ threads: o.threads, ...(o.quick ? { series: 16, repeats: 1 } : {}) }],
      render: (rows) =>
        (rows as Array<{ horizon: number; rows: Record<string, number>; seconds: Record<string, number> }>).map((r) => ({
          horizon: r.horizon,
          'model rows (quantiles)': r.rows.quantiles,
          'model rows (median)': r.rows.median,
          's (quantiles)': r.seconds.quantiles,
          's (median)': r.seconds.median,
          'quantiles / median time': r.seconds.median > 0 ? `${(r.seconds.quantiles / r.seconds.median).toFixed(2)}×` : '',
        })),
    },
  },
  { name: 'ets-speed', title: 'AutoETS fit speed (1,000 monthly series, one core; target < 10 s)', file: 'ets-speed', exports: ['runEtsSpeedBench'] },
  { name: 'server', title: 'Server V1/V2/forecast vs in-kernel, at several concurrencies', file: 'server', exports: ['runServerBench'] },
  // Always all the CPUs the process may use (the point of this one), whatever --threads says.
  { name: 'server-limit', title: 'Serving vs the in-process limit (worker threads, all CPUs, fp32 and int8)', file: 'server-limit', exports: ['runServerLimitBench'], adapter: { calls: (o) => [{ quick: o.quick, log: o.log }] } },
  { name: 'batch-forecast', title: 'Batch forecast of many series from a DataFrame', file: 'batch-forecast', exports: ['runBatchForecastBench'] },
  {
    name: 'checkpoint-build',
    title: 'Graphs built from safetensors: Chronos-Bolt built vs torch export (speed), base-sized build time and peak RSS',
    file: 'checkpoint-build',
    exports: ['runCheckpointBuildBench'],
    adapter: { calls: (o) => [{ quick: o.quick, threads: o.threads, cacheDir: o.cacheDir, log: o.log }] },
  },
  {
    name: 'token-checkpoint-build',
    title: 'Token classifiers built from safetensors: BERT built vs torch export (speed), BERT-base build time and peak RSS, built vs generated graph, int8 vs fp32',
    file: 'token-checkpoint-build',
    exports: ['runTokenCheckpointBench'],
    adapter: { calls: (o) => [{ quick: o.quick, threads: o.threads, log: o.log }] },
  },
  {
    name: 'deberta-checkpoint-build',
    title: 'DeBERTa-v3-base-shaped token classifier built from safetensors: build time and peak RSS (fp32, int8), int8 vs fp32',
    file: 'deberta-checkpoint-build',
    exports: ['runDebertaCheckpointBench'],
    adapter: { calls: (o) => [{ quick: o.quick, threads: o.threads, log: o.log }] },
  },
  {
    name: 'csv-read',
    title: 'readCsv of a long CSV (1 M rows, 1,000 daily series; target ≤ 5 s)',
    file: 'csv-read',
    exports: ['runCsvReadBench'],
    adapter: { calls: (o) => [{ quick: o.quick }], render: (v) => [v] },
  },
  {
    name: 'cli-startup',
    title: 'CLI start-up: whole-process CPU of `inferkit --version` and `inferkit validate` (target ≤ 0.25 s)',
    file: 'cli-startup',
    exports: ['runCliStartupBench'],
    adapter: { calls: (o) => [{ quick: o.quick }] },
  },
  {
    name: 'timesfm',
    title: 'TimesFM 2.0 and 2.5 built from safetensors (scaled: real width, 4 layers, context 512): build time, series/s at batch 32 vs the limit, short series vs context padding',
    file: 'timesfm',
    exports: ['runTimesFmFamilyBench'],
    adapter: { calls: (o) => (['timesfm-2.0', 'timesfm-2.5'] as const).map((family) => ({ family, quick: o.quick, threads: o.threads })) },
  },
  { name: 'scaling', title: 'Scaling: how cost grows with series count, series length and text length', file: 'scaling', exports: ['runScalingBench'] },
  { name: 'profile', title: 'Profile of the hot paths (node --cpu-prof)', file: 'lib/profile-hot-paths', exports: ['runProfileBench'] },
];

/** Parsed command line of `npm run bench -- …`. */
interface RunAllOptions {
  quick: boolean;
  only: string[];
  skip: string[];
  threads: number;
  out: string;
  long: boolean;
}

function parseArgs(argv: readonly string[]): RunAllOptions {
  const opts: RunAllOptions = { quick: false, only: [], skip: [], threads: 1, out: join(here, 'RESULTS.md'), long: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) {
        throw new Error(`${a} needs a value`);
      }
      return v;
    };
    if (a === '--quick') {
      opts.quick = true;
    } else if (a === '--long') {
      opts.long = true;
    } else if (a === '--only') {
      opts.only.push(...value().split(','));
    } else if (a === '--skip') {
      opts.skip.push(...value().split(','));
    } else if (a === '--threads') {
      opts.threads = Number(value());
    } else if (a === '--out') {
      opts.out = value();
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(
        `npm run bench -- [--quick] [--only NAME[,NAME]] [--skip NAME] [--threads N] [--long] [--out FILE]\nbenchmarks: ${BENCHES.map((b) => b.name).join(', ')}\n`,
      );
      process.exit(0);
    } else {
      throw new Error(`unknown option ${a} (try --help)`);
    }
  }
  const unknown = [...opts.only, ...opts.skip].filter((n) => !BENCHES.some((b) => b.name === n));
  if (unknown.length > 0) {
    throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  }
  if (!Number.isInteger(opts.threads) || opts.threads < 1) {
    throw new Error('--threads must be a positive integer');
  }
  return opts;
}

type Outcome = { status: 'ok'; blocks: string[]; peak: number; seconds: number } | { status: 'not available' | 'failed'; reason: string; seconds: number };

async function runOne(entry: BenchEntry, opts: RunAllOptions, log: (l: string) => void): Promise<Outcome> {
  const t0 = performance.now();
  const seconds = () => Math.round((performance.now() - t0) / 100) / 10;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(join(here, `${entry.file}.ts`)).href)) as Record<string, unknown>;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const missing = err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(`${entry.file}.ts`);
    return { status: missing ? 'not available' : 'failed', reason: missing ? `bench/${entry.file}.ts does not exist yet` : String(err.message).split('\n')[0], seconds: seconds() };
  }
  const name = entry.exports.find((n) => typeof mod[n] === 'function');
  if (!name) {
    return { status: 'not available', reason: `bench/${entry.file}.ts exports none of ${entry.exports.join(', ')}`, seconds: seconds() };
  }
  const fn = mod[name] as (o: Record<string, unknown>) => Promise<unknown>;
  const rss = new RssSampler().start();
  try {
    const adapter = entry.adapter ?? DEFAULT_ADAPTER;
    const blocks: string[] = [];
    let peak = 0;
    for (const call of adapter.calls({ quick: opts.quick, threads: opts.threads, long: opts.long, log, cacheDir: benchCacheDir() })) {
      const value = await fn(call);
      const normalized = normalizeResult(adapter.render ? adapter.render(value, call) : value);
      blocks.push(...normalized.blocks);
      peak = Math.max(peak, normalized.peakRssBytes ?? 0);
    }
    return { status: 'ok', blocks, peak: Math.max(peak, rss.stop().peakBytes), seconds: seconds() };
  } catch (e) {
    return { status: 'failed', reason: ((e as Error).stack ?? String(e)).split('\n').slice(0, 3).join(' / '), seconds: seconds() };
  } finally {
    rss.stop();
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const log = (l: string) => process.stderr.write(`  ${l}\n`);
  const machine = machineInfo();
  const selected = BENCHES.filter((b) => (opts.only.length === 0 || opts.only.includes(b.name)) && !opts.skip.includes(b.name));
  process.stderr.write(`inferkit bench: ${selected.map((b) => b.name).join(', ')}${opts.quick ? ' (quick)' : ''}\n${machineLine(machine)}\n`);
  for (const entry of selected) {
    process.stderr.write(`▶ ${entry.name}\n`);
    const loadAverage = machineInfo().loadAverage;
    const outcome = await runOne(entry, opts, log);
    if (outcome.status !== 'ok') {
      // The last good section stays: a bench that cannot run here does not erase what it measured elsewhere.
      process.stderr.write(`  ${outcome.status}: ${outcome.reason} (its section in ${opts.out} is left as it was)\n`);
      process.exitCode = outcome.status === 'failed' ? 1 : process.exitCode;
      continue;
    }
    process.stderr.write(`  done in ${outcome.seconds} s\n`);
    // This bench's section is replaced right away (the others are kept), so an interrupted run keeps what it measured.
    const run = { name: entry.name, title: entry.title, measured: new Date(), machine: machineLine(machine, false), loadAverage };
    await writeSection(
      opts.out,
      { ...run, threads: opts.threads, quick: opts.quick, seconds: outcome.seconds, blocks: outcome.blocks, peak: formatMiB(outcome.peak) },
      BENCHES.map((b) => b.name),
    );
  }
  process.stderr.write(`updated ${opts.out}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exitCode = 1;
});
