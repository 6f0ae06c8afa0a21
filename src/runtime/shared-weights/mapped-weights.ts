import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { externalDataLocations } from '../onnx-external-data.js';
import type { SessionOptions } from '../ort-types.js';

/** Operators of int8 graphs; their MLAS kernels lose most without prepacked weights (see README). */
const QUANTIZED_OPS = ['MatMulInteger', 'DynamicQuantizeMatMul', 'QLinearMatMul', 'MatMulIntegerToFloat'];

/** The external weights of a graph file (see {@link mappedWeights}). */
export interface MappedWeights {
  /** The external-data files, absolute. */
  files: string[];
  /** Their size together. */
  bytes: number;
  /** The graph multiplies int8 weights (quantized MatMul operators). */
  quantized: boolean;
}

/** Graph files larger than this hold their weights inline (a protobuf of nodes alone is far smaller). */
const MAX_GRAPH_ONLY_BYTES = 64 * 2 ** 20;

/**
 * The weights of a graph file that ONNX Runtime memory-maps instead of reading: the external-data files
 * beside `model.onnx` (as the checkpoint builders write them). Undefined for a model given as bytes, a
 * graph with its weights inline (each session then parses its own copy), or a file that cannot be read.
 */
export function mappedWeights(model: string | Uint8Array): MappedWeights | undefined {
  if (typeof model !== 'string') {
    return undefined;
  }
  try {
    const size = statSync(model).size;
    if (size > MAX_GRAPH_ONLY_BYTES) {
      return undefined;
    }
    const graph = new Uint8Array(size);
    const fd = openSync(model, 'r');
    try {
      readSync(fd, graph, 0, size, 0);
    } finally {
      closeSync(fd);
    }
    const files = externalDataLocations(graph).map((location) => resolve(dirname(model), location));
    if (files.length === 0) {
      return undefined;
    }
    return { files, bytes: files.reduce((n, f) => n + statSync(f).size, 0), quantized: isQuantizedGraph(graph) };
  } catch {
    return undefined; // the session's own load reports what is wrong with the file
  }
}

/**
 * Session options for the `sessions` sessions (replicas and latency session) of one model: with more
 * than one and memory-mapped float weights, prepacking off, so that every session multiplies from the
 * same mapped file pages instead of holding a private packed copy of the MatMul weights each (BERT-base
 * fp32: +335 MiB per session with it on, +10 MiB off). int8 graphs keep it (their throughput fell by a
 * quarter without). An explicit `prepacking` in `options` wins.
 */
export function sharedWeightsOptions(model: string | Uint8Array, options: SessionOptions, sessions: number): SessionOptions {
  if (options.prepacking !== undefined || sessions < 2) {
    return options;
  }
  const weights = mappedWeights(model);
  if (weights === undefined || weights.quantized) {
    return options;
  }
  return { ...options, prepacking: false };
}

/** Whether a serialized graph names a quantized MatMul operator (an int8 graph). */
export function isQuantizedGraph(graph: Uint8Array): boolean {
  const bytes = Buffer.from(graph.buffer, graph.byteOffset, graph.byteLength);
  return QUANTIZED_OPS.some((op) => bytes.includes(op, 0, 'latin1'));
}
