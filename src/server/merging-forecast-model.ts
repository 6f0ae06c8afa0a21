import type { Frequency } from '../contract/enums.js';
import { InferkitError } from '../errors.js';
import type { ForecastModel, ModelForecast, PredictOptions } from '../runtime/forecast/forecast-model.js';
import { Batcher, type BatcherOptions, type EmitOutputs } from './batcher.js';

/** One series of one `predict` call, with its frequency. */
interface SeriesItem {
  series: Float32Array;
  frequency: Frequency | undefined;
}

/** One series' forecast, as cut out of a merged call's result. */
interface SeriesForecast {
  levels: readonly number[];
  values: Float32Array;
  mean: Float32Array | undefined;
}

/** Distinct (horizon, frequencies) keys kept before idle batchers are dropped. */
const MAX_IDLE_KEYS = 64;

/**
 * Wraps `model` so that concurrent `predict` calls with the same `horizon` (and both with or both
 * without `frequencies`) are merged into one call of the underlying model: up to `maxBatchSize`
 * series, the first call waiting at most `maxWaitMs` (see {@link Batcher}). Each caller gets
 * exactly its own series' rows back, so answers equal unmerged ones for any model whose forecast
 * of a series does not depend on the other series of the batch (Chronos-Bolt, the baselines).
 * A merged call that fails is retried call by call, so one caller's bad input fails only that
 * caller. A call whose `signal` fires while it waits leaves the queue (its series never run); a
 * merged call already running is aborted only once all its callers are gone. `maxWaitMs: 0` or `maxBatchSize ≤ 1` → every call goes straight to `model`.
 * `onBatch(series, calls)` observes every underlying call either way.
 */
export function mergingForecastModel(model: ForecastModel, options: BatcherOptions = {}): ForecastModel {
  const batchers = new Map<string, Batcher<SeriesItem, SeriesForecast>>();

  const batcherFor = (horizon: number, withFrequencies: boolean): Batcher<SeriesItem, SeriesForecast> => {
    const key = `${horizon}/${withFrequencies ? 'f' : '-'}`;
    let batcher = batchers.get(key);
    if (batcher === undefined) {
      if (batchers.size >= MAX_IDLE_KEYS) {
        for (const [k, b] of batchers) {
          if (b.idle) {
            batchers.delete(k);
          }
        }
      }
      const run = (items: SeriesItem[], signal?: AbortSignal, emit?: EmitOutputs<SeriesForecast>) => predictRows(model, items, horizon, withFrequencies, signal, emit);
      batcher = new Batcher(run, { ...options, isolateFailures: true });
      batchers.set(key, batcher);
    }
    return batcher;
  };

  return {
    name: model.name,
    nativeHorizon: model.nativeHorizon,
    quantiles: model.quantiles,
    ...(model.patchSize !== undefined ? { patchSize: model.patchSize } : {}),
    ...(model.contextLength !== undefined ? { contextLength: model.contextLength } : {}),
    ...(model.rollout !== undefined ? { rollout: model.rollout } : {}),
    // Grouped calls (Chronos-2: rows of a group attend to each other) go straight to the model, unmerged.
    ...(model.predictTasks !== undefined ? { predictTasks: model.predictTasks.bind(model) } : {}),
    async predict(batch: readonly Float32Array[], horizon: number, opts: PredictOptions = {}): Promise<ModelForecast> {
      const batcher = batcherFor(horizon, opts.frequencies !== undefined);
      if (!batcher.enabled || batch.length === 0) {
        const out = await model.predict(batch, horizon, opts);
        options.onBatch?.(batch.length, 1);
        return out;
      }
      opts.signal?.throwIfAborted();
      const frequencies = opts.frequencies;
      const items = batch.map((series, i) => ({ series, frequency: frequencies?.[i] }));
      // A caller whose client went away leaves the queue before the model call (no work for nobody).
      const rows = await batcher.submit(items, opts.signal);
      opts.signal?.throwIfAborted();
      const levels = rows[0].levels;
      const values = rows.map((r) => r.values);
      const mean = rows.map((r) => r.mean);
      return mean.every((m): m is Float32Array => m !== undefined) ? { levels, values, mean } : { levels, values };
    },
    dispose: () => model.dispose(),
  };
}

/** Rows of `forecast` (series `k` of it), one per series. */
const rowsOf = (forecast: ModelForecast, n: number): SeriesForecast[] =>
  Array.from({ length: n }, (_, k) => ({ levels: forecast.levels, values: forecast.values[k], mean: forecast.mean?.[k] }));

/**
 * One underlying call for merged series; its result cut into one row per series. Rows a model hands
 * over early (`onChunk`, one per ORT run) are emitted, so their requests are answered as their run ends.
 */
async function predictRows(model: ForecastModel, items: SeriesItem[], horizon: number, withFrequencies: boolean, signal?: AbortSignal, emit?: EmitOutputs<SeriesForecast>): Promise<SeriesForecast[]> {
  const batch = items.map((it) => it.series);
  const frequencies = withFrequencies ? items.map((it) => it.frequency as Frequency) : undefined;
  const onChunk = emit ? (indices: readonly number[], f: ModelForecast) => emit(indices, rowsOf(f, indices.length)) : undefined;
  const out = await model.predict(batch, horizon, { ...(frequencies === undefined ? {} : { frequencies }), ...(signal ? { signal } : {}), ...(onChunk ? { onChunk } : {}) });
  if (out.values.length !== items.length || (out.mean !== undefined && out.mean.length !== items.length)) {
    throw new InferkitError('internal', `model "${model.name}" returned ${out.values.length} forecasts for ${items.length} series`);
  }
  return rowsOf(out, items.length);
}
