import type { Frequency } from '../../contract/enums.js';
import type { ForecastTask, ModelForecast } from '../forecast/forecast-model.js';
import { evenSizes, slicesOf } from '../even-sizes.js';
import type { BaselinePayload } from './baseline-messages.js';

/** Most series (or tasks) of one chunk: a cancelled call stops after at most this many per worker. */
const MAX_CHUNK = 16;
/** Fewest series (or tasks) of one chunk when a call has more: fewer messages for cheap models. */
const MIN_CHUNK = 4;

/**
 * How many chunks `n` items become for `workers` threads: up to 4 per worker (so a long call
 * balances across them), at most {@link MAX_CHUNK} items each, but not below {@link MIN_CHUNK}
 * items each — a message to a worker costs about what a few cheap series (Theta) do.
 */
function chunkSizes(n: number, workers: number): number[] {
  return evenSizes(n, Math.max(Math.ceil(n / MAX_CHUNK), Math.min(4 * workers, Math.ceil(n / MIN_CHUNK))));
}

/** `batch` cut into `predict` chunks, each with copies of its series (the caller keeps its arrays) and its frequencies. */
export function seriesChunks(batch: readonly Float32Array[], horizon: number, frequencies: readonly Frequency[] | undefined, workers: number): BaselinePayload[] {
  const sizes = chunkSizes(batch.length, workers);
  const freq = frequencies && slicesOf(frequencies, sizes);
  return slicesOf(batch, sizes).map((part, k) => ({ kind: 'predict', series: part.map((s) => Float32Array.from(s)), horizon, ...(freq ? { frequencies: freq[k] } : {}) }));
}

/**
 * `tasks` cut into `predict-tasks` chunks of whole tasks (a task's targets and covariates stay
 * together), with copies of every array and each chunk's slice of the per-target `frequencies`;
 * `first[k]` is chunk k's first task index in the call.
 */
export function taskChunks(
  tasks: readonly ForecastTask[],
  horizon: number,
  frequencies: readonly Frequency[] | undefined,
  workers: number,
): { chunks: BaselinePayload[]; first: number[] } {
  const sizes = chunkSizes(tasks.length, workers);
  const rowSizes = slicesOf(tasks, sizes).map((part) => part.reduce((a, t) => a + t.targets.length, 0));
  const freq = frequencies && slicesOf(frequencies, rowSizes);
  const copy = (x: Float32Array): Float32Array => Float32Array.from(x);
  const chunks = slicesOf(tasks, sizes).map(
    (part, k): BaselinePayload => ({
      kind: 'predict-tasks',
      tasks: part.map((t) => ({ targets: t.targets.map(copy), pastCovariates: t.pastCovariates.map(copy), futureCovariates: t.futureCovariates.map((c) => ({ history: copy(c.history), future: copy(c.future) })) })),
      horizon,
      ...(freq ? { frequencies: freq[k] } : {}),
    }),
  );
  let start = 0;
  return { chunks, first: sizes.map((n) => (start += n) - n) };
}

/** The chunks' answers joined in order; with `first` (task chunks), each task warning's index shifted to the call's. */
export function joinForecasts(outs: readonly ModelForecast[], first?: readonly number[]): ModelForecast {
  const values = outs.flatMap((o) => o.values);
  const means = outs.map((o) => o.mean);
  const warnings = outs.flatMap((o, k) => (o.taskWarnings ?? []).map((w) => ({ ...w, task: w.task + (first?.[k] ?? 0) })));
  return {
    levels: outs[0].levels,
    values,
    ...(means.every((m): m is Float32Array[] => m !== undefined) ? { mean: means.flat() } : {}),
    ...(warnings.length > 0 ? { taskWarnings: warnings } : {}),
  };
}
