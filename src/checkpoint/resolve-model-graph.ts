import { readFile } from 'node:fs/promises';
import { InferkitError } from '../errors.js';
import type { FileSpec } from '../hub/file-spec.js';
import { resolveModel } from '../hub/resolve-model.js';
import type { ResolvedModel, ResolveModelOptions } from '../hub/types.js';
import { resolveOnnxModel } from '../runtime/resolve-onnx-model.js';
import { architectureOf, type CheckpointTask } from './architectures.js';
import { GRAPH_BUILDERS } from './builders.js';
import { cachedGraph } from './graph-cache.js';
import { openCheckpoint } from './safetensors.js';

/** The weight files of a checkpoint, in preference order (one is fetched). */
export const SAFETENSORS_PATHS = ['model.safetensors', 'model.safetensors.index.json'] as const;

/** Options of {@link resolveModelGraph}. */
export interface ResolveModelGraphOptions extends Omit<ResolveModelOptions, 'files'> {
  /** The task the caller serves; a checkpoint of another task's architecture is an error naming the supported ones. */
  task: CheckpointTask;
  /** ONNX graphs to prefer when the repo has one, in order (e.g. `onnx/model.onnx`, `model.onnx`). */
  onnxGraphs: readonly string[];
  /** The other files the task needs (config, tokenizer …), fetched whichever path is taken. */
  files: FileSpec;
  /** Take the checkpoint even when the repo has an ONNX graph too. @default false */
  preferCheckpoint?: boolean;
  /** Graph variant for a built graph (`fp32`, `int8` where the family supports it). @default 'fp32' */
  variant?: string;
}

/** A model's graph on disk: a published ONNX file, or one inferkit built from the checkpoint. */
export interface ResolvedModelGraph {
  resolved: ResolvedModel;
  /** Absolute path of the graph to open (external data beside it). */
  graphPath: string;
  /** Where the graph came from. */
  from: 'onnx' | 'checkpoint';
  /** The built family (`from: 'checkpoint'`). */
  family?: string;
  /** True when a built graph was reused from the cache. */
  cached?: boolean;
  /** Build time in ms (0 when cached or published). */
  buildMs: number;
}

/**
 * Resolves `source` (folder or hub id) to a graph: the repo's ONNX file if it has one (as before, external data
 * included), else `config.json` + `model.safetensors` (or the sharded index and its shards) — only the chosen
 * path's files are downloaded — and the family's graph is built in TypeScript and cached (see cachedGraph).
 */
export async function resolveModelGraph(source: string, options: ResolveModelGraphOptions): Promise<ResolvedModelGraph> {
  const { task, onnxGraphs, files, preferCheckpoint = false, variant, ...hub } = options;
  const weights = preferCheckpoint ? [...SAFETENSORS_PATHS, ...onnxGraphs] : [...onnxGraphs, ...SAFETENSORS_PATHS];
  const first = await resolveModel(source, { ...hub, files: { ...files, oneOf: [...(files.oneOf ?? []), weights] } });
  const chosen = weights.find((p) => first.files[p] !== undefined);
  if (chosen !== undefined && onnxGraphs.includes(chosen)) {
    const onnx = await resolveOnnxModel(source, { ...files, oneOf: [...(files.oneOf ?? []), [chosen]] }, [chosen], hub);
    return { resolved: onnx.resolved, graphPath: onnx.graphPath, from: 'onnx', buildMs: 0 };
  }
  let resolved = first;
  if (chosen === 'model.safetensors.index.json') {
    const shards = await shardPaths(first.files[chosen], source);
    const more = await resolveModel(source, { ...hub, files: { required: shards } });
    resolved = { ...first, files: { ...first.files, ...more.files } };
  }
  const checkpoint = await openCheckpoint(resolved.dir);
  try {
    const arch = architectureOf(checkpoint.config, source, task);
    const builder = GRAPH_BUILDERS[arch.family];
    if (builder === undefined) {
      throw new InferkitError('model_load_failed', `${source}: inferkit cannot yet build ${arch.family} graphs`, { param: 'architectures' });
    }
    if (variant !== undefined && variant !== 'fp32' && !(builder.variants ?? []).includes(variant)) {
      throw new InferkitError('model_load_failed', `${source}: the ${arch.family} builder has no ${variant} variant (has fp32${(builder.variants ?? []).map((v) => `, ${v}`).join('')})`);
    }
    const built = await cachedGraph(checkpoint, { family: arch.family, builderVersion: builder.version, variant, cacheDir: hub.cacheDir }, (ck) => builder.build(ck, { variant: variant ?? 'fp32' }));
    return { resolved, graphPath: built.graphPath, from: 'checkpoint', family: arch.family, cached: built.cached, buildMs: built.buildMs };
  } finally {
    checkpoint.close();
  }
}

async function shardPaths(indexPath: string, source: string): Promise<string[]> {
  let index: unknown;
  try {
    index = JSON.parse(await readFile(indexPath, 'utf8'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${source}: model.safetensors.index.json is not JSON`, { cause });
  }
  const map = (index as { weight_map?: unknown }).weight_map;
  if (map === null || typeof map !== 'object') {
    throw new InferkitError('model_load_failed', `${source}: model.safetensors.index.json has no weight_map`);
  }
  return [...new Set(Object.values(map as Record<string, unknown>).filter((f): f is string => typeof f === 'string'))];
}
