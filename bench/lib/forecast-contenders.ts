import * as ort from 'onnxruntime-node';
import { join } from 'node:path';
import type { ForecastRequestInput } from '../../src/contract/forecast.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { planContextChunks } from '../../src/runtime/forecast/context-batch.js';
import type { ForecastModel } from '../../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../src/runtime/forecast/load-chronos-bolt.js';
import type { BoltShape } from './graph-cache.js';

/** Series per ONNX run, the same for the raw session and inferkit. */
export const BOLT_BATCH = 64;

/** A bolt-like repo opened twice: a raw onnxruntime-node session and inferkit's ForecastModel. */
export interface BoltContenders {
  raw: ort.InferenceSession;
  model: ForecastModel;
  /** The raw limit for a batch: the chunks inferkit would build, pre-built, run back to back. */
  rawRunner(series: readonly number[][]): () => Promise<void>;
  /** inferkit's runtime call (`model.predict` on Float32Arrays, no protocol). */
  predictRunner(series: readonly number[][], horizon: number): () => Promise<unknown>;
  /** inferkit end to end: `localForecaster(model).forecast(request)` (parse, predict, interpolate, JSON-ready response). */
  forecastRunner(request: ForecastRequestInput): () => Promise<unknown>;
  dispose(): Promise<void>;
}

/** Opens both on `dir` (a bolt-like repo of `shape`) with `threads` intra-op threads each. */
export async function openBoltContenders(dir: string, shape: BoltShape, threads = 1): Promise<BoltContenders> {
  const raw = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
  });
  const model = await loadChronosBolt(dir, { name: 'bolt', batchSize: BOLT_BATCH, session: { intraOpThreads: threads } });
  const forecaster = localForecaster(model);
  return {
    raw,
    model,
    rawRunner(series) {
      const chunks = planContextChunks(
        series.map((s) => Float32Array.from(s)),
        { contextLength: shape.contextLength, patchSize: shape.patchSize, batchSize: BOLT_BATCH },
      );
      const feeds = chunks.map((c) => ({ context: new ort.Tensor('float32', c.data, [c.indices.length, c.time]) }));
      return async () => {
        for (const f of feeds) {
          await raw.run(f);
        }
      };
    },
    predictRunner(series, horizon) {
      const batch = series.map((s) => Float32Array.from(s));
      return () => model.predict(batch, horizon);
    },
    forecastRunner(request) {
      return () => forecaster.forecast(request);
    },
    async dispose() {
      await raw.release();
      await model.dispose();
    },
  };
}
