import { evenSizes, slicesOf } from '../even-sizes.js';

/** One model call's input: row-major float32 [rows, time] and the batch indices of its rows. */
export interface ContextChunk {
  /** Batch index of each row. */
  indices: number[];
  /** Time length of every row (a multiple of the patch size). */
  time: number;
  /** Row-major [indices.length × time], NaN = missing or left padding. */
  data: Float32Array;
}

/** Options of {@link planContextChunks}. */
export interface ContextChunkOptions {
  /** Longest context; longer series keep their last `contextLength` steps. */
  contextLength: number;
  /** Rows are padded to a multiple of this. @default 1 */
  patchSize?: number;
  /** Rows per chunk. @default 64 */
  batchSize?: number;
  /**
   * Sort series by padded length before chunking, so a chunk pads its rows only to similar lengths
   * (the results are put back in input order). @default true
   */
  groupByLength?: boolean;
  /**
   * At least this many chunks (when there are that many series), all of even size (`batchSize` still
   * caps them): one per session replica, so the replicas run a batch side by side. Given, the chunks
   * are evened out (65 series at most 64 a chunk: 33 + 32, not 64 + 1). @default none (chunks of exactly `batchSize`, the last one shorter)
   */
  minChunks?: number;
}

/** Length a series is fed at: cut to `contextLength`, rounded up to the patch size (never padded to the full context). */
export function paddedLength(length: number, contextLength: number, patchSize = 1): number {
  const used = Math.min(length, contextLength);
  return Math.max(patchSize, Math.ceil(used / patchSize) * patchSize);
}

/**
 * Splits a batch of series into model calls. Each series is cut to its most recent
 * `contextLength` steps; each chunk's rows are left-padded with NaN to the chunk's longest padded
 * length (a multiple of `patchSize`, never the full context unless a series is that long).
 */
export function planContextChunks(batch: readonly Float32Array[], options: ContextChunkOptions): ContextChunk[] {
  const P = options.patchSize ?? 1;
  const order = batch.map((_, i) => i);
  const len = batch.map((s) => paddedLength(s.length, options.contextLength, P));
  if (options.groupByLength ?? true) {
    order.sort((a, b) => len[a] - len[b] || a - b);
  }
  return slicesOf(order, chunkSizes(batch.length, Math.max(1, options.batchSize ?? 64), options.minChunks)).map((indices) => {
    const time = Math.max(...indices.map((i) => len[i]));
    const data = new Float32Array(indices.length * time).fill(Number.NaN);
    indices.forEach((bi, row) => {
      const s = batch[bi];
      const used = Math.min(s.length, options.contextLength);
      data.set(s.subarray(s.length - used), row * time + (time - used));
    });
    return { indices, time, data };
  });
}

/**
 * Rows per chunk: `cap` each (the last one shorter) without `minChunks`; with it, at least that many
 * chunks (at most one per row) and at least enough for `cap`, sizes differing by one at most.
 */
function chunkSizes(rows: number, cap: number, minChunks: number | undefined): number[] {
  if (minChunks === undefined) {
    return Array.from({ length: Math.ceil(rows / cap) }, (_, k) => Math.min(cap, rows - k * cap));
  }
  return evenSizes(rows, Math.max(Math.ceil(rows / cap), Math.floor(minChunks)));
}
