import { InferkitError } from '../../../errors.js';
import { float32Tensor, int64Tensor, type OrtSession } from '../../ort.js';
import { replicaRuns, runOnSession } from '../session-model/run-on-session.js';
import type { PreparedRow } from './prepare-series.js';

/** Options of {@link runRows}. */
export interface RunRowsOptions {
  /** Rows per ONNX run. */
  batchSize: number;
  /** Graph outputs to read, each `rowValues` floats per row. */
  outputs: readonly string[];
  rowValues: number;
  /** One frequency index per row, fed as `freq` int64 [rows] (TimesFM 2.0); absent = no such input. */
  freq?: readonly number[];
  signal?: AbortSignal;
  /** Called as each run is handed over, with its rows and time steps. */
  onRun?: (rows: number, time: number) => void;
}

/**
 * Runs prepared rows through a TimesFM session: rows sorted by length and cut into runs of `batchSize` (on session
 * replicas, into at least one run per idle replica), each
 * run's rows left-padded (value 0, padding 1) to its longest; runs handed over ahead as the Chronos-Bolt runner
 * does. Returns, per output name, one Float32Array of `rowValues` per row in input order.
 */
export async function runRows(session: OrtSession, rows: readonly PreparedRow[], options: RunRowsOptions): Promise<Record<string, Float32Array[]>> {
  const order = rows.map((_, i) => i).sort((a, b) => rows[a].time - rows[b].time || a - b);
  // Session replicas: at least one run per idle replica (per replica when none is idle), so a call runs side by side.
  const replicas = replicaRuns(session);
  const size = replicas === undefined ? options.batchSize : Math.max(1, Math.min(options.batchSize, Math.ceil(rows.length / replicas)));
  const runs: number[][] = [];
  for (let at = 0; at < order.length; at += size) {
    runs.push(order.slice(at, at + size));
  }
  const result: Record<string, Float32Array[]> = Object.fromEntries(options.outputs.map((o) => [o, new Array<Float32Array>(rows.length)]));
  await runOnSession(
    session,
    runs,
    (run) => runOnce(session, rows, run, options),
    (run, out) => {
      for (const name of options.outputs) {
        run.forEach((ri, r) => {
          result[name][ri] = out[name].slice(r * options.rowValues, (r + 1) * options.rowValues);
        });
      }
    },
    options.signal,
  );
  return result;
}

async function runOnce(session: OrtSession, rows: readonly PreparedRow[], run: readonly number[], options: RunRowsOptions): Promise<Record<string, Float32Array>> {
  const time = Math.max(...run.map((ri) => rows[ri].time));
  const values = new Float32Array(run.length * time);
  const padding = new Float32Array(run.length * time).fill(1);
  run.forEach((ri, r) => {
    const row = rows[ri];
    values.set(row.values, r * time + time - row.time);
    padding.set(row.padding, r * time + time - row.time);
  });
  options.onRun?.(run.length, time);
  const feeds = {
    patches: float32Tensor(values, [run.length, time]),
    padding: float32Tensor(padding, [run.length, time]),
    ...(options.freq ? { freq: int64Tensor(BigInt64Array.from(run, (ri) => BigInt(options.freq?.[ri] ?? 0)), [run.length]) } : {}),
  };
  let out: Record<string, { data: unknown }>;
  try {
    out = await session.run(feeds);
  } catch (cause) {
    throw new InferkitError('inference_failed', `TimesFM run failed: ${(cause as Error).message}`, { cause });
  }
  const got: Record<string, Float32Array> = {};
  for (const name of options.outputs) {
    const data = out[name]?.data;
    if (!(data instanceof Float32Array) || data.length !== run.length * options.rowValues) {
      throw new InferkitError('inference_failed', `TimesFM output ${name}: expected ${run.length} rows of ${options.rowValues} float32 values`);
    }
    got[name] = data;
  }
  return got;
}
