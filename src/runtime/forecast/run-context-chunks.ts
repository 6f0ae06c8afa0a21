import { InferkitError } from '../../errors.js';
import { float32Tensor, type OrtSession } from '../ort.js';
import type { ContextChunk } from './context-batch.js';
import { runOnSession } from './session-model/run-on-session.js';

/** How {@link runContextChunks} runs a Chronos-Bolt graph. */
export interface ContextRunOptions {
  /** Values per row of `quantile_preds` (quantiles × prediction length). */
  rowValues: number;
  /** Cancels between runs (the signal's reason is thrown). */
  signal?: AbortSignal;
  /** Called as each run is handed to the session, with its rows and time steps. */
  onRun?: (rows: number, time: number) => void;
}

/**
 * Runs `chunks` through a Chronos-Bolt session (input `context`, output `quantile_preds`) and hands
 * each chunk's output to `onChunk`, in chunk order. Runs ahead like the token classifier: up to
 * `parallelRuns + 1` runs are handed over at once, so session replicas run chunks side by side and a
 * worker session goes from run to run without waiting for this thread; an abort stops the rest. A
 * failure surfaces when its chunk's turn comes, after the runs already handed over have finished.
 */
export async function runContextChunks(session: OrtSession, chunks: readonly ContextChunk[], options: ContextRunOptions, onChunk: (chunk: ContextChunk, out: Float32Array) => void): Promise<void> {
  await runOnSession(
    session,
    chunks,
    (chunk) => {
      options.onRun?.(chunk.indices.length, chunk.time);
      return runChunk(session, chunk, options.rowValues);
    },
    onChunk,
    options.signal,
  );
}

/** One Chronos-Bolt run: `chunk`'s rows through the session; its `quantile_preds`, `rowValues` per row (`inference_failed` otherwise). */
export async function runChunk(session: OrtSession, chunk: ContextChunk, rowValues: number): Promise<Float32Array> {
  const rows = chunk.indices.length;
  let out: Float32Array;
  try {
    const result = await session.run({ context: float32Tensor(chunk.data, [rows, chunk.time]) });
    out = result.quantile_preds.data as Float32Array;
  } catch (cause) {
    throw new InferkitError('inference_failed', `Chronos-Bolt run failed: ${(cause as Error).message}`, { cause });
  }
  if (out.length !== rows * rowValues) {
    throw new InferkitError('inference_failed', `quantile_preds has ${out.length} values, expected ${rows} rows of ${rowValues}`);
  }
  return out;
}
