/**
 * A process to profile: `node --import tsx bench/lib/profile-target.ts WHAT ITERATIONS OUT.cpuprofile`.
 * It warms up (one iteration), then records a V8 CPU profile of the timed iterations only through
 * `node:inspector` (the same format as `node --cpu-prof`, without module loading and tsx's
 * compilation, which otherwise dominate a short run). Jobs:
 * `token` (inferkit classify + predictV1 on the small BERT, 32 texts per call), `forecast`
 * (localForecaster on the tiny bolt-like graph, 512 series), `batch` (batchForecast of 2,000
 * series from a DataFrame with seasonal naive). Bounded loops, nothing printed but a summary line.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { benchForecastRequest, benchSeries } from './bench-series.js';
import { benchTexts } from './bench-text.js';
import { BERT_SMALL, BOLT_TINY, cachedBertRepo, cachedBoltRepo } from './graph-cache.js';

/** Prepares a job and returns one iteration of it. Imports are dynamic so each job loads only its modules. */
type Job = () => Promise<() => Promise<unknown>>;

const token: Job = async () => {
  const { loadTokenClassifier } = await import('../../src/runtime/token-classification/load-token-classifier.js');
  const c = await loadTokenClassifier(await cachedBertRepo(BERT_SMALL), { modelName: 'p', session: { intraOpThreads: 1 } });
  const texts = benchTexts(32, 24, 5);
  return async () => {
    await c.classify(texts);
    await c.predictV1({ instances: texts });
  };
};

const forecast: Job = async () => {
  const { loadChronosBolt } = await import('../../src/runtime/forecast/load-chronos-bolt.js');
  const { localForecaster } = await import('../../src/protocol/forecast/local-forecaster.js');
  const model = await loadChronosBolt(await cachedBoltRepo(BOLT_TINY), { name: 'bolt', session: { intraOpThreads: 1 } });
  const request = benchForecastRequest('bolt', benchSeries(512, 256, 1), 64, [0.1, 0.5, 0.9]);
  const f = localForecaster(model);
  return () => f.forecast(request);
};

const batch: Job = async () => {
  const { batchForecast } = await import('../../src/data/batch-forecast.js');
  const { localForecaster } = await import('../../src/protocol/forecast/local-forecaster.js');
  const { seasonalNaive } = await import('../../src/runtime/forecast/seasonal-naive.js');
  const { benchFrame } = await import('../batch-forecast.js');
  const frame = benchFrame(2000);
  const f = localForecaster(seasonalNaive({ name: 'snaive' }));
  return () => batchForecast(frame, f, { horizon: 12, quantiles: [0.1, 0.5, 0.9], idColumn: 'id', frequency: 'month' });
};

async function profileJob(job: Job, iterations: number, out: string): Promise<number> {
  const once = await job();
  await once();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    await once();
  }
  const ms = performance.now() - t0;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  await writeFile(out, JSON.stringify(profile));
  return ms;
}

const [what, count, out] = process.argv.slice(2);
const jobs: Record<string, Job> = { token, forecast, batch };
const job = what ? jobs[what] : undefined;
if (!job || !out) {
  process.stderr.write(`usage: profile-target.ts ${Object.keys(jobs).join('|')} ITERATIONS OUT.cpuprofile\n`);
  process.exitCode = 2;
} else {
  const iterations = Math.max(1, Number(count) || 1);
  profileJob(job, iterations, out).then(
    (ms) => {
      process.stdout.write(`${JSON.stringify({ what, iterations, ms })}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
