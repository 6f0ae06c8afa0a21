import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { mappedWeights } from '../shared-weights/mapped-weights.js';

/** When a model's memory phase ran: its place in this process's sequence of phases, start and end. */
export const MemoryPhaseTimesSchema = z.object({
  /** 1 for the first model whose phase ran in this process, 2 for the next… (phases never overlap). */
  order: z.number().int().positive(),
  /** When the phase began (ISO 8601, ms): the load's files were local, its tokenizer or first session about to load. */
  startedAt: z.string(),
  /** When it ended (ISO 8601, ms): the loader returned (sessions open, warm-up runs done). */
  endedAt: z.string(),
});

/**
 * A model's memory, measured at load: the process's growth across its memory phase (loading its tokenizer,
 * opening its ONNX sessions and the runs made at load; for a baseline, starting it), which ran alone (no
 * other model's phase at the same time), and the size of the weights it opened.
 */
export const ModelMemorySchema = z.object({
  /** RSS growth across the phase, bytes (may be negative when the allocator gave memory back). */
  rssGrowthBytes: z.number(),
  /** PSS growth (`/proc/self/smaps_rollup`), bytes; absent off Linux. */
  pssGrowthBytes: z.number().optional(),
  /**
   * The graph files its sessions opened: each ONNX file plus its external data (`model.onnx.data`); for a
   * graph built from a checkpoint that is the built graph (fp32: the checkpoint's weights as float32;
   * int8: the quantized ones). Absent when it opened none (baselines: no weights).
   */
  weightsBytes: z.number().optional(),
  /**
   * How its replicas and latency session hold the weights, for a model served by several sessions: `packed` — they map
   * one packed copy made into the model cache (paged in by their first runs, so not all of it counts at load);
   * `mapped` — one unpacked copy (the packed copy could not be made, or `prepacking: false`); `own` — a copy each.
   * Absent for a model of one session.
   */
  sessionWeights: z.enum(['packed', 'mapped', 'own']).optional(),
  /** Other models' loads that were still downloading or building while this phase ran (their allocations count here too). */
  alongside: z.number().int().nonnegative(),
  /** When the phase ran. */
  phase: MemoryPhaseTimesSchema,
});

/**
 * A served model's memory at load: the process's RSS/PSS growth while its tokenizer and sessions loaded and made
 * their load-time runs, no other model's doing so meanwhile, and its weights' size. `inferkit serve` prints it
 * under each model; `/inferkit/v1/services` and `ModelState.memory` carry it.
 */
export type ModelMemory = z.infer<typeof ModelMemorySchema>;

/**
 * Bytes of the weights behind the graphs a load opened: a file's size plus its external-data files
 * (each path counted once), an in-memory graph's length. Undefined when `graphs` is empty.
 */
export function weightsBytesOf(graphs: ReadonlyArray<string | Uint8Array>): number | undefined {
  if (graphs.length === 0) {
    return undefined;
  }
  let bytes = 0;
  const seen = new Set<string>();
  for (const g of graphs) {
    if (typeof g !== 'string') {
      bytes += g.byteLength;
      continue;
    }
    const path = resolve(g);
    if (seen.has(path)) {
      continue;
    }
    seen.add(path);
    try {
      bytes += statSync(path).size + (mappedWeights(path)?.bytes ?? 0);
    } catch {
      // a graph that could not be opened failed the load already
    }
  }
  return bytes;
}
