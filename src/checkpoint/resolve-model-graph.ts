import { readFile } from 'node:fs/promises';
import { InferkitError, isInferkitError } from '../errors.js';
import { CHECKPOINT_WEIGHT_FILES, type FileSpec } from '../hub/file-spec.js';
import { resolveModel } from '../hub/resolve-model.js';
import type { ResolvedModel, ResolveModelOptions } from '../hub/types.js';
import { resolveOnnxModel } from '../runtime/resolve-onnx-model.js';
import { architectureOf, type BuildableArchitecture, type CheckpointTask } from './architectures.js';
import { GRAPH_BUILDERS } from './builders.js';
import { cachedGraph } from './graph-cache.js';
import { openCheckpoint } from './safetensors.js';

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

/** Where a loaded model's graph came from: what `inferkit serve` prints and `/inferkit/v1/services` reports per model. */
export interface ModelGraphInfo {
  /** `onnx`: a graph the repo publishes; `checkpoint`: built from its weights. */
  from: 'onnx' | 'checkpoint';
  /**
   * The repo file it came from, relative to the repo: the published graph (`onnx/model.onnx`), or the checkpoint's
   * weights (`model.safetensors`, `pytorch_model.bin`, or a shard index such as `model.safetensors.index.json`).
   */
  file: string;
  /** The family it was built as (`from: 'checkpoint'`), e.g. `bert`, `deberta-v2`, `timesfm-2.5`. */
  family?: string;
  /** The built variant (`fp32`, `int8`), with `from: 'checkpoint'`. */
  variant?: string;
  /** True when a built graph was reused from the graph cache (built by an earlier load). */
  cached?: boolean;
  /** Build time in ms (0 when cached or published). */
  buildMs: number;
}

/** A model's graph on disk: a published ONNX file, or one inferkit built from the checkpoint. */
export interface ResolvedModelGraph extends ModelGraphInfo {
  resolved: ResolvedModel;
  /** Absolute path of the graph to open (external data beside it). */
  graphPath: string;
}

/** `graph`'s {@link ModelGraphInfo} alone (no paths on this machine). */
export function modelGraphInfo(graph: ResolvedModelGraph): ModelGraphInfo {
  const { from, file, family, variant, cached, buildMs } = graph;
  return { from, file, ...(family !== undefined ? { family } : {}), ...(variant !== undefined ? { variant } : {}), ...(cached !== undefined ? { cached } : {}), buildMs: Math.round(buildMs) };
}

/** One line on `graph` for a log: `onnx/model.onnx (published)`, `built as bert fp32 from model.safetensors in 1.2 s`, `… (cached)`. */
export function modelGraphLine(graph: ModelGraphInfo): string {
  if (graph.from === 'onnx') {
    return `${graph.file} (published ONNX graph)`;
  }
  const as = [graph.family, graph.variant].filter((x) => x !== undefined).join(' ');
  const took = graph.buildMs < 1000 ? `${graph.buildMs} ms` : `${(graph.buildMs / 1000).toFixed(1)} s`;
  return `built${as === '' ? '' : ` as ${as}`} from ${graph.file}${graph.cached === true ? ' (reused from the graph cache)' : ` in ${took}`}`;
}

/**
 * Resolves `source` (folder or hub id) to a graph: the repo's ONNX file if it has one (as before, external data
 * included), else `config.json` + the checkpoint's weights (`model.safetensors` or `pytorch_model.bin`, single or
 * sharded: CHECKPOINT_WEIGHT_FILES) — only the chosen path's files are downloaded — and the family's graph is built
 * in TypeScript and cached (see cachedGraph).
 */
export async function resolveModelGraph(source: string, options: ResolveModelGraphOptions): Promise<ResolvedModelGraph> {
  const { task, onnxGraphs, files, preferCheckpoint = false, variant, ...hub } = options;
  // config.json (and the task's side files) first: an architecture inferkit cannot build is named before any
  // weights are fetched, and such a repo may still load through its published ONNX graph.
  const side = await resolveModel(source, { ...hub, files: { ...files, required: [...new Set(['config.json', ...(files.required ?? [])])] } });
  const config = await readConfig(side.files['config.json'], source);
  let arch: BuildableArchitecture | undefined;
  let archError: unknown;
  try {
    arch = architectureOf(config, source, task);
  } catch (err) {
    archError = err;
  }
  const buildable = arch !== undefined ? CHECKPOINT_WEIGHT_FILES : [];
  const weights = preferCheckpoint ? [...buildable, ...onnxGraphs] : [...onnxGraphs, ...buildable];
  if (weights.length === 0) {
    throw archError;
  }
  let first: ResolvedModel;
  try {
    first = await resolveModel(source, { ...hub, files: { ...files, oneOf: [...(files.oneOf ?? []), weights] } });
  } catch (err) {
    // No ONNX graph and an architecture inferkit cannot build: the architecture is the useful message.
    if (arch === undefined && isInferkitError(err) && err.code === 'model_not_found') {
      throw archError;
    }
    throw err;
  }
  const chosen = weights.find((p) => first.files[p] !== undefined);
  if (chosen !== undefined && onnxGraphs.includes(chosen)) {
    const onnx = await resolveOnnxModel(source, { ...files, oneOf: [...(files.oneOf ?? []), [chosen]] }, [chosen], hub);
    return { resolved: onnx.resolved, graphPath: onnx.graphPath, from: 'onnx', file: chosen, buildMs: 0 };
  }
  let resolved = first;
  if (chosen !== undefined && chosen.endsWith('.index.json')) {
    const shards = await shardPaths(first.files[chosen], chosen, source);
    const more = await resolveModel(source, { ...hub, files: { required: shards } });
    resolved = { ...first, files: { ...first.files, ...more.files } };
  }
  const checkpoint = await openCheckpoint(resolved.dir);
  try {
    const family = architectureOf(checkpoint.config, source, task).family;
    const builder = GRAPH_BUILDERS[family];
    if (builder === undefined) {
      throw new InferkitError('model_load_failed', `${source}: inferkit cannot yet build ${family} graphs`, { param: 'architectures' });
    }
    if (variant !== undefined && variant !== 'fp32' && !(builder.variants ?? []).includes(variant)) {
      throw new InferkitError('model_load_failed', `${source}: the ${family} builder has no ${variant} variant (has fp32${(builder.variants ?? []).map((v) => `, ${v}`).join('')})`);
    }
    const built = await cachedGraph(checkpoint, { family, builderVersion: builder.version, variant, cacheDir: hub.cacheDir }, (ck) => builder.build(ck, { variant: variant ?? 'fp32' }));
    return { resolved, graphPath: built.graphPath, from: 'checkpoint', file: checkpoint.weightsFile, family, variant: variant ?? 'fp32', cached: built.cached, buildMs: built.buildMs };
  } finally {
    checkpoint.close();
  }
}

async function readConfig(path: string | undefined, source: string): Promise<Record<string, unknown>> {
  let config: unknown;
  try {
    config = JSON.parse(await readFile(path ?? '', 'utf8'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${source}: config.json is not readable JSON (${(cause as Error).message})`, { cause });
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new InferkitError('model_load_failed', `${source}: config.json is not a JSON object`);
  }
  return config as Record<string, unknown>;
}

async function shardPaths(indexPath: string, name: string, source: string): Promise<string[]> {
  let index: unknown;
  try {
    index = JSON.parse(await readFile(indexPath, 'utf8'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${source}: ${name} is not JSON`, { cause });
  }
  const map = (index as { weight_map?: unknown }).weight_map;
  if (map === null || typeof map !== 'object') {
    throw new InferkitError('model_load_failed', `${source}: ${name} has no weight_map`);
  }
  return [...new Set(Object.values(map as Record<string, unknown>).filter((f): f is string => typeof f === 'string'))];
}
