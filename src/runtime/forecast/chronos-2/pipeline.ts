import { InferkitError } from '../../../errors.js';
import { probabilityMass, weightedQuantiles } from './weighted-quantile.js';

/**
 * One model call: `context` [rows, width] (NaN = missing or padding), `groups` [rows], `future` [rows,
 * futureWidth] (NaN = unknown), `tasks[r]` = the request task of row r (rows of a task are contiguous; a call
 * may be split between tasks). Returns `quantile_preds` [rows, levels, futureWidth].
 */
export type RunChronos2 = (call: { context: Float32Array; width: number; groups: readonly number[]; future: Float32Array; futureWidth: number; tasks: readonly number[] }) => Promise<Float32Array>;

/** The model's settings the pipeline needs. */
export interface PipelineSpec {
  /** The model's `context_length` (the long-horizon unroll keeps this many steps). */
  contextLength: number;
  patchSize: number;
  maxOutputPatches: number;
  /** The model's quantile levels, ascending. */
  quantiles: readonly number[];
  /** Levels whose paths extend the context beyond the first call (the pipeline's `unrolled_quantiles`). */
  unrolled: readonly number[];
}

/** One row of a pipeline batch: its context (already cut to the context length), group, task and known future values (length horizon). */
export interface PipelineRow {
  context: Float32Array;
  group: number;
  task: number;
  /** Known future values (NaN = unknown), or undefined for a target or past-only covariate. */
  future?: Float32Array;
}

/**
 * Chronos2Pipeline's `_predict_batch` for one batch of rows: contexts left-padded with NaN to the longest row;
 * one call for the first `min(⌈h / patch⌉, max_output_patches)` patches; beyond them the autoregressive unroll —
 * each row copied per unrolled level with that level's path appended (the copies grouped per level: group ·
 * levels + k), known future covariate values written over their own predicted path, and the copies' `levels ×
 * quantiles` samples per step reduced to the model's levels by the weighted quantile. Returns each row's
 * forecast level-major [quantiles × horizon].
 */
export async function predictBatch(run: RunChronos2, spec: PipelineSpec, rows: readonly PipelineRow[], horizon: number): Promise<Float32Array[]> {
  const P = spec.patchSize;
  const Q = spec.quantiles.length;
  const R = rows.length;
  const patches = (remaining: number): number => Math.min(Math.ceil(remaining / P), spec.maxOutputPatches) * P;
  const width = Math.max(...rows.map((r) => r.context.length));
  const context = new Float32Array(R * width).fill(Number.NaN);
  rows.forEach((r, i) => context.set(r.context, (i + 1) * width - r.context.length));
  const futureOf = (r: number, offset: number, len: number): Float32Array =>
    Float32Array.from({ length: len }, (_, j) => rows[r].future?.[offset + j] ?? Number.NaN);
  const out = rows.map(() => new Float32Array(Q * horizon));
  const keep = (r: number, preds: Float32Array, len: number, done: number): void => {
    for (let q = 0; q < Q; q++) {
      for (let j = 0; j < len && done + j < horizon; j++) {
        out[r][q * horizon + done + j] = preds[q * len + j];
      }
    }
  };

  let len = patches(horizon);
  const first = await run({ context, width, groups: rows.map((r) => r.group), future: concat(rows.map((_, r) => futureOf(r, 0, len))), futureWidth: len, tasks: rows.map((r) => r.task) });
  let prev = rows.map((_, r) => first.subarray(r * Q * len, (r + 1) * Q * len));
  prev.forEach((p, r) => keep(r, p, len, 0));
  let done = len;
  if (done >= horizon) {
    return out;
  }

  const K = spec.unrolled.length;
  const paths = spec.unrolled.map((u) => spec.quantiles.findIndex((q) => Math.fround(q) === Math.fround(u)));
  if (paths.some((i) => i < 0)) {
    throw new InferkitError('invalid_request', `horizon ${horizon} needs the unrolled levels ${spec.unrolled.join(', ')} among the model's quantiles`, { param: 'options.horizon' });
  }
  const pm = probabilityMass(spec.unrolled);
  const qm = probabilityMass(spec.quantiles);
  const raw = Float32Array.from({ length: K * Q }, (_, i) => Math.fround(pm[Math.floor(i / Q)] * qm[i % Q]));
  const total = Math.fround(raw.reduce((a, v) => a + v, 0));
  const weights = raw.map((v) => Math.fround(v / total));
  const groups = rows.flatMap((r) => paths.map((_, k) => r.group * K + k));
  const tasks = rows.flatMap((r) => paths.map(() => r.task));
  let copies = rows.flatMap((_, r) => paths.map(() => context.subarray(r * width, (r + 1) * width)));
  let offset = 0;
  while (done < horizon) {
    const prevLen = len;
    const w = Math.min(copies[0].length + prevLen, spec.contextLength);
    copies = copies.map((c, i) => {
      const r = Math.floor(i / K);
      const path = prev[r].subarray(paths[i % K] * prevLen, (paths[i % K] + 1) * prevLen);
      const next = new Float32Array(w);
      const joined = concat([c, path]);
      next.set(joined.subarray(joined.length - w));
      for (let j = 0; j < prevLen; j++) {
        const known = rows[r].future?.[offset + j] ?? Number.NaN;
        if (!Number.isNaN(known)) {
          next[w - prevLen + j] = known;
        }
      }
      return next;
    });
    offset += prevLen;
    len = patches(horizon - done);
    const step = await run({ context: concat(copies), width: w, groups, future: concat(copies.map((_, i) => futureOf(Math.floor(i / K), offset, len))), futureWidth: len, tasks });
    prev = rows.map((_, r) => reduce(step, r, K, Q, len, weights, spec.quantiles));
    prev.forEach((p, r) => keep(r, p, len, done));
    done += len;
  }
  return out;
}

/** Row r's K copies' samples per step reduced to the model's levels: [Q × len]. */
function reduce(step: Float32Array, r: number, K: number, Q: number, len: number, weights: Float32Array, levels: readonly number[]): Float32Array {
  const out = new Float32Array(Q * len);
  const samples = new Float32Array(K * Q);
  for (let j = 0; j < len; j++) {
    for (let k = 0; k < K; k++) {
      const base = (r * K + k) * Q * len;
      for (let q = 0; q < Q; q++) {
        samples[k * Q + q] = step[base + q * len + j];
      }
    }
    weightedQuantiles(samples, weights, levels).forEach((v, q) => {
      out[q * len + j] = v;
    });
  }
  return out;
}

function concat(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
