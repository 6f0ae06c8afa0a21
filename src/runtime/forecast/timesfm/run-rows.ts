import { InferkitError } from '../../../errors.js';
import { float32Tensor, int64Tensor, type OrtSession } from '../../ort.js';
import { RunQueue, submitFailingWithReason } from '../../run-queue/run-queue.js';
import type { PreparedRow } from './prepare-series.js';

/** How a TimesFM session's runs are made (see {@link timesFmRunQueue}). */
export interface RowQueueOptions {
  /** Rows per ONNX run at most. */
  batchSize: number;
  /** Graph outputs to read, each `rowValues` floats per row. */
  outputs: readonly string[];
  rowValues: number;
  /** Called as each run is handed over, with its rows and time steps. */
  onRun?: (rows: number, time: number) => void;
}

/** One row waiting for a run, with its frequency index (TimesFM 2.0's `freq` input; absent = no such input). */
export interface QueuedRow {
  row: PreparedRow;
  freq?: number;
}

/** A row's outputs: per output name, its `rowValues` floats. */
export type RowOutputs = Record<string, Float32Array>;

/**
 * The one run queue of a TimesFM session: every call's prepared rows wait together, and each run takes the rows
 * nearest in length when the session can take it (see RunQueue: a lone call is cut into even runs of at most
 * `batchSize`, one per idle replica at least), its rows left-padded (value 0, padding 1) to the longest.
 */
export function timesFmRunQueue(session: OrtSession, options: RowQueueOptions): RunQueue<QueuedRow, RowOutputs> {
  return new RunQueue<QueuedRow, RowOutputs>({
    maxRunSize: options.batchSize,
    parallelRuns: () => session.parallelRuns ?? 1,
    size: (q) => q.row.time,
    start: (run) => runOnce(session, run, options),
  });
}

/**
 * Runs `rows` (with `freq`, one frequency index per row, where the graph takes one) through `queue`. Returns, per
 * output name, one Float32Array of `rowValues` per row in input order. An aborted `signal` fails with its reason.
 */
export async function runRows(queue: RunQueue<QueuedRow, RowOutputs>, rows: readonly PreparedRow[], outputs: readonly string[], freq: readonly number[] | undefined, signal: AbortSignal | undefined): Promise<Record<string, Float32Array[]>> {
  const got = await submitFailingWithReason(
    queue,
    rows.map((row, i) => (freq ? { row, freq: freq[i] } : { row })),
    signal ? { signal } : {},
  );
  return Object.fromEntries(outputs.map((name) => [name, got.map((o) => o[name])]));
}

async function runOnce(session: OrtSession, run: readonly QueuedRow[], options: RowQueueOptions): Promise<RowOutputs[]> {
  const time = Math.max(...run.map((q) => q.row.time));
  const values = new Float32Array(run.length * time);
  const padding = new Float32Array(run.length * time).fill(1);
  run.forEach(({ row }, r) => {
    values.set(row.values, r * time + time - row.time);
    padding.set(row.padding, r * time + time - row.time);
  });
  options.onRun?.(run.length, time);
  const withFreq = run.some((q) => q.freq !== undefined);
  const feeds = {
    patches: float32Tensor(values, [run.length, time]),
    padding: float32Tensor(padding, [run.length, time]),
    ...(withFreq ? { freq: int64Tensor(BigInt64Array.from(run, (q) => BigInt(q.freq ?? 0)), [run.length]) } : {}),
  };
  let out: Record<string, { data: unknown }>;
  try {
    out = await session.run(feeds);
  } catch (cause) {
    throw new InferkitError('inference_failed', `TimesFM run failed: ${(cause as Error).message}`, { cause });
  }
  const n = options.rowValues;
  const data: Record<string, Float32Array> = {};
  for (const name of options.outputs) {
    const d = out[name]?.data;
    if (!(d instanceof Float32Array) || d.length !== run.length * n) {
      throw new InferkitError('inference_failed', `TimesFM output ${name}: expected ${run.length} rows of ${n} float32 values`);
    }
    data[name] = d;
  }
  return run.map((_, r) => Object.fromEntries(options.outputs.map((name) => [name, data[name].slice(r * n, (r + 1) * n)])));
}
