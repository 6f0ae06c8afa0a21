/**
 * gpu-bench's measuring part: one graph on each execution provider, per batch the median ms per run after
 * warm-up and how far every output lies from the CPU's (largest |difference|, and that over the largest |CPU
 * value| so forecasts of order 100 and logits of order 1 read alike). A time budget skips what is left once spent.
 */
import { cpus } from 'node:os';
import * as ort from 'onnxruntime-node';

/** One graph to measure. */
export interface BenchModel {
  name: string;
  /** Graph bytes, or the path of a graph with external data. */
  bytes: Uint8Array | string;
  /** Every input the graph may have for `batch` rows; each session takes the ones it names. */
  feeds: (batch: number) => Record<string, ort.Tensor>;
  batches: number[];
  /** What a row of the batch is, for the throughput column (`series`, `sentences`). @default 'items' */
  unit?: string;
}

/** One measured (or failed) model × provider × batch. */
export interface Row {
  model: string;
  provider: string;
  batch: number;
  ms: number | null;
  perSecond: number | null;
  speedup: number | null;
  maxAbsDiff: number | null;
  /** maxAbsDiff over the largest |CPU output|. */
  relDiff: number | null;
  unit?: string;
  /** Session creation, s (on the batch-0 row of a provider). */
  sessionS?: number;
  error?: string;
}

/** Options of {@link measureModel}. */
export interface MeasureOptions {
  providers: readonly string[];
  /** Time of timed runs per batch after the first 3, ms. @default 6000 */
  runBudgetMs?: number;
  /** `performance.now()` after which the rest is skipped (recorded as such). @default Infinity */
  deadline?: number;
  /** Session options added for one provider (e.g. verbose logging, which prints where each node runs). */
  extraOptions?: (provider: string) => ort.InferenceSession.SessionOptions;
  log?: (line: string) => void;
}

interface Timed {
  ms: number;
  outs: Float32Array[];
}

async function timeRuns(session: ort.InferenceSession, feeds: Record<string, ort.Tensor>, budgetMs: number): Promise<Timed> {
  const own = Object.fromEntries(session.inputNames.map((n) => [n, feeds[n]]));
  let outs: Float32Array[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await session.run(own);
    outs = session.outputNames.map((n) => r[n].data as Float32Array);
  }
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 3 || (times.length < 30 && performance.now() - start < budgetMs)) {
    const t = performance.now();
    await session.run(own);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], outs };
}

/** Largest |a − b| over all outputs, and that over the largest |a| (NaN where the two disagree on a non-finite value). */
export function outputDiff(ref: readonly Float32Array[], got: readonly Float32Array[]): { maxAbs: number; rel: number } {
  let maxAbs = 0;
  let scale = 0;
  for (let k = 0; k < ref.length; k++) {
    const [a, b] = [ref[k], got[k]];
    if (b === undefined || a.length !== b.length) {
      return { maxAbs: NaN, rel: NaN };
    }
    for (let i = 0; i < a.length; i++) {
      if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) {
        if (!Object.is(a[i], b[i])) {
          return { maxAbs: NaN, rel: NaN };
        }
        continue;
      }
      maxAbs = Math.max(maxAbs, Math.abs(a[i] - b[i]));
      scale = Math.max(scale, Math.abs(a[i]));
    }
  }
  return { maxAbs, rel: scale > 0 ? maxAbs / scale : maxAbs };
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 400);

/** Measures `model` on each provider in turn (the CPU first: it is the reference); returns its rows. */
export async function measureModel(model: BenchModel, opts: MeasureOptions): Promise<Row[]> {
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const deadline = opts.deadline ?? Infinity;
  const rows: Row[] = [];
  const blank = { ms: null, perSecond: null, speedup: null, maxAbsDiff: null, relDiff: null, unit: model.unit };
  const cpuRef = new Map<number, Timed>();
  for (const provider of opts.providers) {
    if (performance.now() > deadline) {
      rows.push({ model: model.name, provider, batch: 0, ...blank, error: 'skipped: time budget spent' });
      continue;
    }
    let session: ort.InferenceSession;
    const t = performance.now();
    try {
      // An `intraOpNumThreads: undefined` key is rejected ('must be a number'): leave it out for GPU providers.
      const so: ort.InferenceSession.SessionOptions = { executionProviders: [provider], graphOptimizationLevel: 'all', ...(provider === 'cpu' ? { intraOpNumThreads: cpus().length } : {}), ...opts.extraOptions?.(provider) };
      session = typeof model.bytes === 'string' ? await ort.InferenceSession.create(model.bytes, so) : await ort.InferenceSession.create(model.bytes, so);
    } catch (err) {
      log(`${model.name} on ${provider}: ${firstLine(err)}`);
      rows.push({ model: model.name, provider, batch: 0, ...blank, error: firstLine(err) });
      continue;
    }
    const sessionS = (performance.now() - t) / 1000;
    log(`${model.name} on ${provider}: session in ${sessionS.toFixed(1)} s`);
    rows.push({ model: model.name, provider, batch: 0, ...blank, sessionS });
    for (const batch of model.batches) {
      if (performance.now() > deadline) {
        rows.push({ model: model.name, provider, batch, ...blank, error: 'skipped: time budget spent' });
        continue;
      }
      try {
        const r = await timeRuns(session, model.feeds(batch), opts.runBudgetMs ?? 6000);
        if (provider === 'cpu') {
          cpuRef.set(batch, r);
        }
        const ref = cpuRef.get(batch);
        const d = ref && provider !== 'cpu' ? outputDiff(ref.outs, r.outs) : undefined;
        rows.push({ ...blank, model: model.name, provider, batch, ms: r.ms, perSecond: (batch * 1000) / r.ms, speedup: ref ? ref.ms / r.ms : null, maxAbsDiff: d?.maxAbs ?? null, relDiff: d?.rel ?? null });
        log(`  batch ${batch}: ${r.ms.toFixed(2)} ms${d ? ` (max |diff| ${d.maxAbs.toExponential(1)}, relative ${d.rel.toExponential(1)})` : ''}`);
      } catch (err) {
        log(`  batch ${batch}: ${firstLine(err)}`);
        rows.push({ model: model.name, provider, batch, ...blank, error: firstLine(err) });
      }
    }
    await session.release();
  }
  return rows;
}

/** The rows as a markdown table under `head`. */
export function resultLines(head: string, rows: readonly Row[]): string[] {
  const lines = [head, '', '| model | provider | batch | ms / run | rows/s | speed-up vs CPU | max abs diff vs CPU | relative to max |CPU| | note |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |'];
  const exp = (x: number | null): string => (x === null ? '' : Number.isNaN(x) ? 'NaN' : x.toExponential(1));
  for (const r of rows) {
    const note = r.error ?? (r.sessionS !== undefined ? `session created in ${r.sessionS.toFixed(1)} s` : '');
    const rate = r.perSecond === null ? '' : `${r.perSecond.toFixed(1)}${r.unit ? ` ${r.unit}` : ''}`;
    lines.push(`| ${r.model} | ${r.provider} | ${r.batch || ''} | ${r.ms?.toFixed(2) ?? ''} | ${rate} | ${r.speedup ? `${r.speedup.toFixed(2)}×` : ''} | ${exp(r.maxAbsDiff)} | ${exp(r.relDiff)} | ${note} |`);
  }
  return lines;
}
