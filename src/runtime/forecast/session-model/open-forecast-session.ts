import { InferkitError } from '../../../errors.js';
import { createSession, withMachineThreads, type OrtFeeds, type OrtSession, type SessionOptions } from '../../ort.js';

/** What a forecast family's graph must have (see {@link openForecastSession}). */
export interface ForecastGraphSpec {
  /** The family's name in errors (`Chronos-Bolt`, `TimesFM`, …). */
  family: string;
  /** Input names the family feeds. */
  inputs: readonly string[];
  /** Output names the family reads. */
  outputs: readonly string[];
  /** The `model_load_failed` message for a graph that lacks some of them (`missing`: inputs first, then outputs). */
  mismatch(missing: readonly string[], session: OrtSession): string;
  /** Feeds a replica pool's latency session is timed on at load (`tuneLatency`); absent = the pool keeps its default. */
  latencyProbe?: () => OrtFeeds;
}

/**
 * Opens the session a forecast model runs on — in this thread or a worker pool, with every CPU the process may
 * use unless `options` says otherwise — and checks that it is the family's graph. The session is released
 * before any error is thrown. Errors: `model_load_failed` for a graph without the family's inputs and outputs
 * or a failed latency probe; ONNX Runtime's for a graph it cannot open.
 */
export async function openForecastSession(model: string | Uint8Array, options: SessionOptions | undefined, graph: ForecastGraphSpec): Promise<OrtSession> {
  const session = await createSession(model, withMachineThreads(options));
  const missing = graph.inputs.filter((n) => !session.inputNames.includes(n)).concat(graph.outputs.filter((n) => !session.outputNames.includes(n)));
  if (missing.length > 0) {
    await session.release();
    throw new InferkitError('model_load_failed', graph.mismatch(missing, session));
  }
  const probe = graph.latencyProbe;
  if (probe) {
    try {
      // A replica pool keeps its latency session only where it beats a replica on a lone series.
      await session.tuneLatency?.(probe);
    } catch (cause) {
      await session.release();
      throw new InferkitError('model_load_failed', `${graph.family} probe run failed: ${(cause as Error).message}`, { cause });
    }
  }
  return session;
}
