import type { ForecastRollout } from '../../contract/forecast.js';
import { float32Tensor, type OrtFeeds, type SessionOptions } from '../ort.js';
import { RunQueue, submitFailingWithReason } from '../run-queue/run-queue.js';
import type { ChronosConfig } from './chronos-config.js';
import { paddedLength, planContextChunks } from './context-batch.js';
import type { ForecastModel } from './forecast-model.js';
import { runChunk, runContextChunks } from './run-context-chunks.js';
import { ascendingLevels, positiveInteger } from './session-model/config-checks.js';
import { openForecastSession } from './session-model/open-forecast-session.js';
import { replicaRuns } from './session-model/run-on-session.js';
import { sessionForecastModel } from './session-model/session-forecast-model.js';

/** Options of {@link createChronosBolt} (and of `loadChronosBolt`). */
export interface ChronosBoltOptions {
  /** Name requests are checked against. @default the model folder's name or hub id */
  name?: string;
  /** Series per ONNX run. @default 64 */
  batchSize?: number;
  /** Sort series by length before chunking to cut left padding. @default true */
  groupByLength?: boolean;
  /** ONNX Runtime session options (threads, execution provider). @default one session in this thread with every CPU the process may use (`availableCpus()`), spinning off */
  session?: SessionOptions;
  /**
   * Rollout beyond `prediction_length`: `quantiles` rolls out every quantile path and reduces the
   * pooled forecasts to the model's levels, as the official ChronosBoltPipeline (each step after
   * the first runs `levels` × the series); `median` appends only the 0.5 path (cheaper, narrower
   * intervals later on). A request's `options.rollout` overrides it. @default 'quantiles'
   */
  rollout?: ForecastRollout;
  /** Called as each ONNX run is handed to the session, with its series and time steps (to observe how calls are cut). */
  onRun?: (rows: number, time: number) => void;
}

/** Steps of the series a latency session is timed on (see {@link latencyProbe}). */
const LATENCY_PROBE_STEPS = 512;

/**
 * A Chronos-Bolt ONNX model as a {@link ForecastModel}: `model` is the `.onnx` path or bytes with
 * input `context` float32 [batch, time] (NaN = missing / left padding) and output `quantile_preds`
 * float32 [batch, quantiles, prediction_length]. Series are cut to `context_length`, left-padded
 * with NaN to a multiple of `input_patch_size`, and run `batchSize` at a time. On session replicas
 * (`session.replicas` / `replicaThreads` with `worker`), a call's series are cut into even chunks, one
 * per idle replica at least, run side by side (up to `parallelRuns + 1` runs handed over at once); a
 * latency session beside them (`latencyThreads`) is timed at load and kept only when it is faster.
 */
export async function createChronosBolt(
  model: string | Uint8Array,
  config: ChronosConfig,
  options: ChronosBoltOptions & { name: string },
): Promise<ForecastModel> {
  const levels = ascendingLevels(config.quantiles, 'chronos_config.quantiles');
  const batchSize = positiveInteger(options.batchSize ?? 64, 'batchSize');
  const session = await openForecastSession(model, options.session, {
    family: 'Chronos-Bolt',
    inputs: ['context'],
    outputs: ['quantile_preds'],
    mismatch: (_, s) =>
      `not a Chronos-Bolt ONNX graph: expected input "context" and output "quantile_preds", found inputs [${s.inputNames.join(', ')}] and outputs [${s.outputNames.join(', ')}]`,
    latencyProbe: () => latencyProbe(config),
  });
  const H = config.prediction_length;
  const Q = levels.length;
  const C = config.context_length;
  const P = config.input_patch_size;
  // Every call on the session shares one run queue (unless `groupByLength: false`): runs are formed from all the
  // waiting series, nearest in padded length, when the session can take one. Overlapping calls (a server's merged
  // requests) share runs, and session replicas take them as they free up (a lone call: one run per idle replica at least).
  const queue =
    options.groupByLength === false
      ? undefined
      : new RunQueue<Float32Array, Float32Array>({
          maxRunSize: batchSize,
          parallelRuns: () => session.parallelRuns ?? 1,
          size: (s) => paddedLength(s.length, C, P),
          start: async (series) => {
            // One chunk of the run's series, in their order, left-padded to the longest.
            const [chunk] = planContextChunks(series, { contextLength: C, patchSize: P, batchSize: series.length, groupByLength: false });
            options.onRun?.(series.length, chunk.time);
            const out = await runChunk(session, chunk, Q * H);
            return series.map((_, r) => out.subarray(r * Q * H, (r + 1) * Q * H));
          },
        });
  return sessionForecastModel(session, {
    name: options.name,
    nativeHorizon: H,
    quantiles: levels,
    patchSize: config.input_patch_size,
    contextLength: config.context_length,
    rollout: options.rollout ?? 'quantiles',
    horizonField: 'prediction_length',
    sharesRunQueue: queue !== undefined,
    async predict(current, batch, horizon, opts) {
      const values: Float32Array[] = new Array<Float32Array>(batch.length);
      // A row of `quantile_preds` (Q × H) cut to the call's horizon.
      const cut = (row: Float32Array): Float32Array => {
        const v = new Float32Array(Q * horizon);
        for (let q = 0; q < Q; q++) {
          v.set(row.subarray(q * H, q * H + horizon), q * horizon);
        }
        return v;
      };
      if (queue !== undefined) {
        const onChunk = (indices: readonly number[], rows: readonly Float32Array[]): void => {
          indices.forEach((bi, k) => {
            values[bi] = cut(rows[k]);
          });
          opts.onChunk?.(indices, { levels, values: indices.map((bi) => values[bi]) });
        };
        await submitFailingWithReason(queue, batch, { ...(opts.signal ? { signal: opts.signal } : {}), onChunk });
        return { levels, values };
      }
      // In input order (`groupByLength: false`): the call's own chunks, one even chunk per idle replica at least
      // on session replicas (per replica when none is idle), so the call runs side by side on them.
      const minChunks = replicaRuns(current);
      const chunks = planContextChunks(batch, {
        contextLength: config.context_length,
        patchSize: config.input_patch_size,
        batchSize,
        groupByLength: options.groupByLength,
        ...(minChunks !== undefined ? { minChunks } : {}),
      });
      const run = { rowValues: Q * H, ...(opts.signal ? { signal: opts.signal } : {}), ...(options.onRun ? { onRun: options.onRun } : {}) };
      await runContextChunks(current, chunks, run, (chunk, out) => {
        chunk.indices.forEach((bi, row) => {
          values[bi] = cut(out.subarray(row * Q * H, (row + 1) * Q * H));
        });
        opts.onChunk?.(chunk.indices, { levels, values: chunk.indices.map((bi) => values[bi]) });
      });
      return { levels, values };
    },
  });
}

/**
 * What a replica pool's latency session is timed on at load: one series of 512 steps (or the whole
 * context when shorter). On the Chronos-Bolt-small shape on 2 CPUs, two threads run it 1.45× faster than
 * one (and a 2,048-step one 1.5×), while a 64-step series is no faster: the session is kept for the
 * contexts the model is made for.
 */
function latencyProbe(config: ChronosConfig): OrtFeeds {
  const time = paddedLength(LATENCY_PROBE_STEPS, config.context_length, config.input_patch_size);
  return { context: float32Tensor(Float32Array.from({ length: time }, (_, t) => Math.sin(t / 7) * 10 + t / 50), [1, time]) };
}
