import { InferkitError } from '../../errors.js';
import { int64Tensor, type OrtFeeds, type OrtSession } from '../ort.js';
import { evenSizes, slicesOf } from '../even-sizes.js';
import { runAhead } from '../run-ahead.js';
import { RunQueue } from '../run-queue/run-queue.js';

/** How {@link runTokenLogits} batches. */
export interface BatchPlan {
  /** Texts per ORT run. */
  maxBatchSize: number;
  /** Group texts of similar length into the same run to cut padding. */
  sortByLength: boolean;
  /** Pad id for `input_ids`. */
  padId: number;
  /** The graph takes `token_type_ids` (fed zeros). */
  tokenTypeIds: boolean;
  /** Graph input/output names. */
  inputIdsName: string;
  attentionMaskName: string;
  tokenTypeIdsName: string;
  logitsName: string;
  /** Classes per token (last dimension of the logits). */
  numLabels: number;
  /**
   * The graph reads `attention_mask` as segment numbers (graphs built from a checkpoint, see
   * checkpoint/families/encoder/segments.ts): a run's texts are packed into rows instead of padded (packedRows).
   */
  packsTexts?: boolean;
}

/**
 * Tokens a packed row holds at most, unless one text is longer (then that text's length): attention grows with the
 * row's length squared, the matrix products only with its tokens. On BERT-base at 128, attention's score and
 * context products are ~3% of a row's multiply-adds.
 */
export const PACKED_ROW_TOKENS = 128;

/**
 * Tokens a queued packed run holds at most (4 rows of PACKED_ROW_TOKENS): without padding a larger run costs no more
 * per token, and it spreads each run's fixed cost (a wake-up of the session's threads per operator) over more texts.
 * BERT-base built, 2 threads, in-process: 32 texts in 4 rows 120 sentences/s, 8 in 1 row 108 (bench/RESULTS.md).
 */
export const PACKED_RUN_TOKENS = 4 * PACKED_ROW_TOKENS;
/** Texts a queued packed run holds at most (the default `maxBatchSize` of a classifier whose graph packs). */
export const PACKED_RUN_TEXTS = 64;

/** What one {@link runTokenLogits} call adds to its {@link BatchPlan}. */
export interface TokenRunCall {
  /** Cancels between runs. */
  signal?: AbortSignal;
  /** Called as each run's logits are ready (in run order), with the indices of `sequences` it covered. */
  onChunk?: (indices: readonly number[], logits: readonly Float32Array[]) => void;
}

/**
 * Runs the model on token id sequences, one ORT run per chunk of at most `maxBatchSize` sequences (chunks evened out),
 * right-padded with `padId` and masked (`attention_mask`: int64 [batch, seq], 1 = real token), or, with `packsTexts`,
 * packed several to a row (packedRows).
 * Returns per sequence its own logits, float32 [tokens, numLabels] row-major (pad rows dropped).
 *
 * With `sortByLength`, every call on the same session and plan shares one {@link RunQueue}: the runs are formed
 * from all the calls' waiting sequences, nearest in length, so calls that overlap (the server's merged requests)
 * pad as little as one sorted call of all their texts, and session replicas take runs as they free up.
 */
export async function runTokenLogits(session: OrtSession, sequences: readonly number[][], plan: BatchPlan, call: TokenRunCall = {}): Promise<Float32Array[]> {
  if (sequences.length === 0) {
    return [];
  }
  if (plan.sortByLength) {
    return queueOf(session, plan).submit(sequences, call);
  }
  if (sequences.length <= plan.maxBatchSize) {
    // One run: no chunking, no run-ahead window.
    throwIfAborted(call.signal);
    const logits = await runChunk(session, sequences, plan);
    call.onChunk?.(sequences.map((_, i) => i), logits);
    return logits;
  }
  const order = sequences.map((_, i) => i);
  const out = new Array<Float32Array>(sequences.length);
  // Chunks of even size (17 texts at most 8 per run: 6, 6, 5, not 8, 8, 1).
  const chunks = slicesOf(order, evenSizes(order.length, Math.ceil(order.length / plan.maxBatchSize)));
  // Runs ahead: chunk k+1 is built and handed to the session while chunk k runs (parallelRuns + 1 at most).
  await runAhead(
    chunks,
    (session.parallelRuns ?? 1) + 1,
    (chunk) => runChunk(session, chunk.map((i) => sequences[i]), plan),
    (chunk, logits) => {
      chunk.forEach((i, k) => {
        out[i] = logits[k];
      });
      call.onChunk?.(chunk, logits);
    },
    () => throwIfAborted(call.signal),
  );
  return out;
}

const queues = new WeakMap<OrtSession, WeakMap<BatchPlan, RunQueue<number[], Float32Array>>>();

/** The run queue of `session` under `plan` (made on first use; it lives as long as both). */
function queueOf(session: OrtSession, plan: BatchPlan): RunQueue<number[], Float32Array> {
  let byPlan = queues.get(session);
  if (byPlan === undefined) {
    byPlan = new WeakMap();
    queues.set(session, byPlan);
  }
  let queue = byPlan.get(plan);
  if (queue === undefined) {
    // Packed runs are cut by tokens (the runs replicas can start now share what waits); padded ones by texts.
    queue = new RunQueue({
      maxRunSize: plan.maxBatchSize,
      ...(plan.packsTexts === true ? { maxRunTokens: PACKED_RUN_TOKENS } : {}),
      parallelRuns: () => session.parallelRuns ?? 1,
      size: (seq) => seq.length,
      start: (seqs) => runChunk(session, seqs, plan),
    });
    byPlan.set(plan, queue);
  }
  return queue;
}

/** Throws `inference_failed` ("Inference aborted", the signal's reason as cause) once `signal` has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new InferkitError('inference_failed', 'Inference aborted', { cause: signal.reason });
  }
}

/** Where each sequence of a run sits in its feeds: `row`, first token `start`. */
export interface RunLayout {
  rows: number;
  width: number;
  places: { row: number; start: number }[];
}

/** How `plan` lays a run of `seqs` out: packed into rows where the graph packs texts (and there are several), else one per row. */
export function runLayout(seqs: readonly number[][], plan: Pick<BatchPlan, 'packsTexts'>): RunLayout {
  return plan.packsTexts === true && seqs.length > 1 ? packedRows(seqs) : paddedLayout(seqs);
}

/** One text per row, right-padded to the longest. */
function paddedLayout(seqs: readonly number[][]): RunLayout {
  return { rows: seqs.length, width: Math.max(...seqs.map((s) => s.length)), places: seqs.map((_, row) => ({ row, start: 0 })) };
}

/**
 * Texts packed into rows of about equal length: as many rows as the run's tokens fill rows of
 * max(PACKED_ROW_TOKENS, the longest text) (rounded, at least one), each text, longest first, going to the row
 * holding the fewest tokens so far; rows right-padded to the longest row.
 */
export function packedRows(seqs: readonly number[][]): RunLayout {
  const total = seqs.reduce((n, s) => n + s.length, 0);
  const rowTokens = Math.max(PACKED_ROW_TOKENS, ...seqs.map((s) => s.length));
  const used = new Array<number>(Math.max(1, Math.round(total / rowTokens))).fill(0);
  const order = seqs.map((_, i) => i).sort((a, b) => seqs[b].length - seqs[a].length || a - b);
  const places = new Array<{ row: number; start: number }>(seqs.length);
  for (const i of order) {
    const row = used.indexOf(Math.min(...used));
    places[i] = { row, start: used[row] };
    used[row] += seqs[i].length;
  }
  return { rows: used.length, width: Math.max(...used), places };
}

/**
 * `input_ids`, `attention_mask` (and zero `token_type_ids`) for `seqs` in `layout` (default: one right-padded text
 * per row): `[rows, width]` int64. The mask numbers the texts of a row 1, 2, … (a row of one text: the usual 1s).
 */
export function tokenFeeds(
  seqs: readonly number[][],
  plan: Pick<BatchPlan, 'padId' | 'tokenTypeIds' | 'inputIdsName' | 'attentionMaskName' | 'tokenTypeIdsName'>,
  layout: RunLayout = paddedLayout(seqs),
): OrtFeeds {
  const { rows, width } = layout;
  // Zero-filled: the pad id is written only where no text is, when it is not 0 (a BigInt fill of the whole
  // array costs more than the rest of the tensor building on a short batch).
  const ids = new BigInt64Array(rows * width);
  const mask = new BigInt64Array(rows * width);
  const segment = new Array<number>(rows).fill(0);
  const ends = new Array<number>(rows).fill(0);
  for (let i = 0; i < seqs.length; i++) {
    const s = seqs[i];
    const { row, start } = layout.places[i];
    const at = row * width + start;
    const number = BigInt(++segment[row]);
    for (let t = 0; t < s.length; t++) {
      ids[at + t] = BigInt(s[t]);
      mask[at + t] = number;
    }
    ends[row] = Math.max(ends[row], start + s.length);
  }
  if (plan.padId !== 0) {
    const pad = BigInt(plan.padId);
    ends.forEach((end, row) => ids.fill(pad, row * width + end, (row + 1) * width));
  }
  const shape = [rows, width];
  const feeds: OrtFeeds = { [plan.inputIdsName]: int64Tensor(ids, shape), [plan.attentionMaskName]: int64Tensor(mask, shape) };
  if (plan.tokenTypeIds) {
    feeds[plan.tokenTypeIdsName] = int64Tensor(new BigInt64Array(rows * width), shape);
  }
  return feeds;
}

async function runChunk(session: OrtSession, seqs: readonly number[][], plan: BatchPlan): Promise<Float32Array[]> {
  const layout = runLayout(seqs, plan);
  const { rows, width } = layout;
  const feeds = tokenFeeds(seqs, plan, layout);
  let result;
  try {
    result = await session.run(feeds);
  } catch (cause) {
    throw new InferkitError('inference_failed', `ONNX Runtime failed on a batch of ${rows}×${width} tokens: ${(cause as Error).message}`, {
      cause,
    });
  }
  const tensor = result[plan.logitsName];
  const dims = tensor?.dims ?? [];
  if (!tensor || tensor.type !== 'float32' || dims.length !== 3 || dims[0] !== rows || dims[1] !== width || dims[2] !== plan.numLabels) {
    throw new InferkitError(
      'inference_failed',
      `Expected output "${plan.logitsName}" float32 [${rows}, ${width}, ${plan.numLabels}], got ${tensor ? `${tensor.type} [${dims.join(', ')}]` : 'nothing'}`,
    );
  }
  const data = tensor.data as Float32Array;
  return seqs.map((s, i) => {
    const { row, start } = layout.places[i];
    const at = (row * width + start) * plan.numLabels;
    return data.subarray(at, at + s.length * plan.numLabels);
  });
}

/** Argmax class id per token of `[tokens, numLabels]` logits (first maximum on ties). */
export function argmaxPerToken(logits: Float32Array, numLabels: number): number[] {
  const n = logits.length / numLabels;
  const out = new Array<number>(n);
  for (let t = 0; t < n; t++) {
    const base = t * numLabels;
    let best = 0;
    let bestValue = logits[base];
    for (let c = 1; c < numLabels; c++) {
      if (logits[base + c] > bestValue) {
        bestValue = logits[base + c];
        best = c;
      }
    }
    out[t] = best;
  }
  return out;
}

/** Softmax probabilities per token of `[tokens, numLabels]` logits (numerically stable). */
export function softmaxPerToken(logits: Float32Array, numLabels: number): Float32Array {
  const out = new Float32Array(logits.length);
  for (let base = 0; base < logits.length; base += numLabels) {
    let max = -Infinity;
    for (let c = 0; c < numLabels; c++) {
      max = Math.max(max, logits[base + c]);
    }
    let sum = 0;
    for (let c = 0; c < numLabels; c++) {
      const e = Math.exp(logits[base + c] - max);
      out[base + c] = e;
      sum += e;
    }
    for (let c = 0; c < numLabels; c++) {
      out[base + c] /= sum;
    }
  }
  return out;
}
