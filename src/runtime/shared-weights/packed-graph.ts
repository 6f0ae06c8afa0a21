import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { arch } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { envCacheDir } from '../../config.js';
import { InferkitError } from '../../errors.js';
import type { SessionOptions } from '../ort-types.js';
import { mappedWeights, sharedWeightsOptions } from './mapped-weights.js';
import { originRecord, removeStaleCopies, unfinishedFolder } from './stale-copies.js';

/** The data file of a packed copy, beside its `model.onnx`. */
const DATA = 'model.onnx.data';

/**
 * Where the packed copy of `graph` goes, and what it is keyed by: the graph file (path, size, mtime) and its external
 * data files, the optimization level, ONNX Runtime's version and this CPU (MLAS lays packed weights out for the kernels
 * it picked on this CPU, so a copy from another CPU or runtime is never reused).
 */
export function packedCopyPlace(graph: string, level: string, cacheDir: string = envCacheDir()): { dir: string; graphPath: string; key: string } {
  const files = [graph, ...(mappedWeights(graph)?.files ?? [])].map((f) => {
    const st = statSync(f);
    return `${resolve(f)}\0${st.size}\0${st.mtimeMs}`;
  });
  const key = createHash('sha256')
    .update([...files, level, runtimeSignature()].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const dir = join(cacheDir, 'graphs', `packed-${key}`);
  return { dir, graphPath: join(dir, 'model.onnx'), key };
}

/** ONNX Runtime's version and this CPU, hashed: what a packed copy's layout depends on besides the graph. */
function runtimeSignature(): string {
  return createHash('sha256').update(`${ort.env.versions.node ?? ''}\n${cpuSignature()}`).digest('hex').slice(0, 16);
}

/** This machine's CPU for the key: architecture, model name and feature flags (Linux), else the architecture. */
function cpuSignature(): string {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const line = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1] ?? '';
    return [arch(), line('model name'), line('flags') || line('Features')].join('|');
  } catch {
    return arch();
  }
}

/**
 * Makes (once) the packed copy of `graph`, a graph file whose weights ONNX Runtime maps (external data): the graph
 * as ONNX Runtime optimizes it, written with every weight its kernels prepack *in packed form* into `model.onnx.data`
 * (`session.save_external_prepacked_constant_initializers`). Sessions that open the copy map the packed weights
 * instead of packing a private copy each: a pool of sessions runs at prepacked speed from one copy of them in the page
 * cache. Written to a temporary folder and renamed into `<cacheDir>/graphs/packed-<key>/` ({@link packedCopyPlace});
 * making a new copy removes the copies of the same graph made before it changed, and those whose graph is gone.
 * Call it off the event loop (`packedCopyOffThread`): ONNX Runtime loads and packs the graph synchronously.
 */
export async function makePackedCopy(graph: string, level: NonNullable<SessionOptions['graphOptimizationLevel']>, cacheDir: string = envCacheDir()): Promise<string> {
  if (mappedWeights(graph) === undefined) {
    throw new InferkitError('model_load_failed', `${graph} has no external weights to pack (open its external-data copy first)`);
  }
  const place = packedCopyPlace(graph, level, cacheDir);
  if (existsSync(join(place.dir, 'complete.json'))) {
    return place.graphPath;
  }
  const tmp = unfinishedFolder(place.dir);
  await mkdir(tmp, { recursive: true });
  try {
    const session = await ort.InferenceSession.create(graph, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      graphOptimizationLevel: level,
      optimizedModelFilePath: join(tmp, 'model.onnx'),
      // Not ORT's warning that a graph optimized at this level suits this machine only: the key says so (packedCopyPlace).
      logSeverityLevel: 3,
      extra: {
        session: {
          optimized_model_external_initializers_file_name: DATA,
          optimized_model_external_initializers_min_size_in_bytes: '1024',
          save_external_prepacked_constant_initializers: '1',
        },
      },
    });
    await session.release();
    if (!existsSync(join(tmp, DATA))) {
      throw new InferkitError('model_load_failed', `ONNX Runtime wrote no ${DATA} for the packed copy of ${graph}`);
    }
    const origin = originRecord(graph);
    const runtime = runtimeSignature();
    await writeFile(join(tmp, 'complete.json'), JSON.stringify({ ...origin, level, ort: ort.env.versions.node, runtime, bytes: (await stat(join(tmp, DATA))).size }));
    try {
      await rename(tmp, place.dir);
    } catch (cause) {
      if (!existsSync(join(place.dir, 'complete.json'))) {
        throw new InferkitError('model_load_failed', `cannot place the packed copy of ${graph} in ${place.dir}: ${(cause as Error).message}`, { cause });
      }
      await rm(tmp, { recursive: true, force: true }); // another process made the same copy first
      return place.graphPath;
    }
    // Copies of this graph's earlier bytes made by this runtime on this CPU; another's may be in use by another process.
    await removeStaleCopies(dirname(place.dir), 'packed', origin.source, place.dir, { runtime, level });
    return place.graphPath;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** How the sessions of one pool (replicas and latency session) hold a model's weights. */
export type PoolWeights =
  /** One packed copy in the model cache, mapped by every session (prepacked speed, one copy in memory). */
  | { kind: 'packed'; graph: string }
  /** One mapped copy, unpacked (prepacking off: `prepacking: false` asked for, or the packed copy could not be made, `reason`). */
  | { kind: 'mapped'; reason?: string }
  /** Each session its own copy: weights inline or given as bytes, int8 weights when no packed copy could be made, or `prepacking: true`. */
  | { kind: 'own'; reason?: string };

/**
 * What a pool of `sessions` sessions of `model` opens, and with which options: for a graph file with external weights
 * (as built, or its external-data copy), its packed copy ({@link makePackedCopy}, made once off this thread), each session
 * mapping the packed weights; where that copy cannot be made, the graph itself, float weights unpacked and mapped
 * ({@link sharedWeightsOptions}). An explicit `prepacking` in `options` is kept: `false` maps the unpacked weights,
 * `true` gives every session a private packed copy. One session (`sessions < 2`) opens `model` as it is.
 */
export async function poolGraph(
  model: string | Uint8Array,
  options: SessionOptions,
  sessions: number,
  makeCopy: (graph: string, level: NonNullable<SessionOptions['graphOptimizationLevel']>) => Promise<string>,
): Promise<{ model: string | Uint8Array; options: SessionOptions; weights: PoolWeights }> {
  const mapped = mappedWeights(model);
  const fallback = (reason?: string) => {
    const shared = sharedWeightsOptions(model, options, sessions);
    const kind = mapped !== undefined && shared.prepacking === false ? 'mapped' : 'own';
    return { model, options: shared, weights: { kind, ...(reason !== undefined ? { reason } : {}) } as PoolWeights };
  };
  if (sessions < 2 || mapped === undefined || typeof model !== 'string' || options.prepacking !== undefined) {
    return fallback();
  }
  try {
    const graph = await makeCopy(model, options.graphOptimizationLevel ?? 'all');
    return { model: graph, options, weights: { kind: 'packed', graph } };
  } catch (e) {
    return fallback(e instanceof Error ? e.message : String(e));
  }
}
