import type { ForecastResponse, TimeSeriesForecast, TimeSeriesInput, Usage } from '../contract/forecast.js';
import type { Forecaster } from '../contract/predictor.js';
import { InferkitError, isInferkitError } from '../errors.js';
import type { BatchForecastResult, BatchProgress, SeriesFailure, SeriesWarning } from './batch-result.js';

/** What one model's batch run needs: the forecast options and how to send them. */
export interface RunBatchOptions {
  horizon: number;
  quantiles?: readonly number[];
  chunkSize?: number;
  concurrency?: number;
  model?: string;
  onProgress?: (progress: BatchProgress) => void;
  signal?: AbortSignal;
}

interface ChunkResult {
  forecasts: TimeSeriesForecast[];
  failures: SeriesFailure[];
  warnings?: SeriesWarning[];
}

/** A failure entry for a series from an error thrown at it. */
export function failure(name: string, e: unknown): SeriesFailure {
  const message = e instanceof Error ? e.message : String(e);
  const code = isInferkitError(e) ? e.code : 'inference_failed';
  const param = isInferkitError(e) ? e.param ?? null : null;
  return { name, error: { code, message, param, type: 'request_error' } };
}

/**
 * True for a field of the call that every chunk carries alike (`options`, `options.horizon`, `model`),
 * named as the forecast request names them; any other field may be one series' (`inputs[3].series`,
 * or a custom service's own names), so its chunk is still split.
 */
function isCallField(param: string | null | undefined): boolean {
  return typeof param === 'string' && (param === 'options' || param.startsWith('options.') || param.startsWith('options[') || param === 'model');
}

/**
 * A rejection of the call's own fields: every chunk would get it, so none is split or sent again. The field
 * is the error's `param` (a remote service's HttpError takes it from the body's `error.param`).
 */
function isCallRejection(e: unknown): boolean {
  return isInferkitError(e) && e.code === 'invalid_request' && isCallField(e.param);
}

/**
 * A model the service does not have, or a key it refuses: every chunk would get it too, but a rolling
 * deploy can answer one of them by mistake, so it counts only when a second request gets it as well.
 */
function isServiceRejection(e: unknown): boolean {
  return isInferkitError(e) && (e.code === 'model_not_found' || e.code === 'unauthorized');
}

/** Request-level rejections that one bad series can cause (an input's field, or none named): worth splitting the chunk to isolate it. */
function isSplittable(e: unknown): boolean {
  return isInferkitError(e) && e.code === 'invalid_request' && !isCallRejection(e);
}

/**
 * One model over many inputs (see `batchForecast`); `rejected` are series that failed before any request (counted in progress).
 * Forecasts many series through any Forecaster (in-kernel or remote): chunks of `chunkSize` series per
 * request, `concurrency` requests at once, progress after each request. Per-series errors are collected;
 * a chunk rejected as a whole for an invalid series (or with no field named) is split in halves until the bad
 * series are isolated; a chunk rejected for the call's own fields (`options.horizon`, `model`) is not split,
 * and the chunks not yet sent fail with the same error without a request, as they do once a second request
 * gets a model the service does not have or a refused key; a chunk that fails otherwise (network,
 * server fault) reports each of its series failed with the reason.
 */
export async function runBatch(
  inputs: TimeSeriesInput[],
  forecaster: Forecaster,
  options: RunBatchOptions,
  rejected: readonly SeriesFailure[] = [],
): Promise<BatchForecastResult> {
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 64));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const { signal } = options;
  const chunks: TimeSeriesInput[][] = [];
  for (let i = 0; i < inputs.length; i += chunkSize) {
    chunks.push(inputs.slice(i, i + chunkSize));
  }
  const results: ChunkResult[] = new Array(chunks.length);
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const progress: BatchProgress = { done: rejected.length, total: inputs.length + rejected.length, failed: rejected.length };
  let requests = 0;
  // Set by the first rejection of the call itself (by the second of the service): later chunks fail with it unsent.
  let callRejection: unknown;
  let serviceRejections = 0;
  options.onProgress?.({ ...progress });

  const send = async (chunk: TimeSeriesInput[]): Promise<ChunkResult> => {
    signal?.throwIfAborted();
    if (callRejection !== undefined) {
      return { forecasts: [], failures: chunk.map((s) => failure(s.name, callRejection)) };
    }
    requests++;
    let response: ForecastResponse;
    try {
      response = await forecaster.forecast(
        {
          model: options.model ?? forecaster.name,
          inputs: chunk,
          options: { horizon: options.horizon, ...(options.quantiles && options.quantiles.length > 0 ? { quantiles: [...options.quantiles] } : {}) },
        },
        { signal },
      );
    } catch (e) {
      signal?.throwIfAborted();
      if (isCallRejection(e) || (isServiceRejection(e) && ++serviceRejections >= 2)) {
        callRejection ??= e;
      } else if (isSplittable(e) && chunk.length > 1) {
        return split(chunk);
      }
      return { forecasts: [], failures: chunk.map((s) => failure(s.name, e)) };
    }
    if (response.usage) {
      usage.prompt_tokens += response.usage.prompt_tokens;
      usage.completion_tokens += response.usage.completion_tokens;
      usage.total_tokens += response.usage.total_tokens;
    }
    if (response.outputs.length !== chunk.length) {
      if (response.status === 'error' && chunk.length > 1 && !isCallField(response.error?.param)) {
        return split(chunk);
      }
      const err = response.error ?? { code: 'model_error', message: `expected ${chunk.length} outputs, got ${response.outputs.length}`, type: 'response_error' };
      return { forecasts: [], failures: chunk.map((s) => ({ name: s.name, error: err })) };
    }
    const out: ChunkResult = { forecasts: [], failures: [] };
    response.outputs.forEach((o, i) => {
      if (o.status === 'error' || o.content.length === 0) {
        const error = o.error ?? { code: 'model_error', message: `no forecast (status ${o.status})`, type: 'response_error' };
        out.failures.push({ name: chunk[i].name, error });
      } else {
        out.forecasts.push(...o.content);
        for (const warning of o.warnings ?? []) {
          (out.warnings ??= []).push({ name: chunk[i].name, warning });
        }
      }
    });
    return out;
  };
  const split = async (chunk: TimeSeriesInput[]): Promise<ChunkResult> => {
    const half = Math.ceil(chunk.length / 2);
    const a = await send(chunk.slice(0, half));
    const b = await send(chunk.slice(half));
    return { forecasts: [...a.forecasts, ...b.forecasts], failures: [...a.failures, ...b.failures], warnings: [...(a.warnings ?? []), ...(b.warnings ?? [])] };
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < chunks.length) {
      const k = next++;
      const r = await send(chunks[k]);
      results[k] = r;
      progress.done += chunks[k].length;
      progress.failed += r.failures.length;
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  if (results.some((r) => r === undefined)) {
    throw new InferkitError('internal', 'batch forecast ended with unsettled chunks');
  }
  const forecasts = results.flatMap((r) => r.forecasts);
  const failures = [...rejected, ...results.flatMap((r) => r.failures)];
  const status = failures.length === 0 ? 'completed' : forecasts.length === 0 ? 'error' : 'partial';
  const warnings = results.flatMap((r) => r.warnings ?? []);
  return { status, inputs, forecasts, failures, warnings, usage, requests };
}
