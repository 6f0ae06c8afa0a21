import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { envCacheDir } from '../config.js';
import { InferkitError } from '../errors.js';
import type { OnnxGraphBuilder } from '../onnx/graph-builder.js';
import { originRecord, removeFinishedFolders, sourceGone, unfinishedFolder } from '../runtime/shared-weights/stale-copies.js';
import type { Checkpoint } from './safetensors.js';

/** Options of {@link cachedGraph}. */
export interface CachedGraphOptions {
  /** Family id (graph cache folder prefix), e.g. `chronos-bolt`. */
  family: string;
  /** The builder's version: bump it when the graph a builder writes changes, so old graphs are rebuilt. */
  builderVersion: number;
  /** A variant of the same checkpoint's graph, e.g. `int8`. @default 'fp32' */
  variant?: string;
  /** Cache root; graphs land in `<cacheDir>/graphs/`. @default envCacheDir() */
  cacheDir?: string;
}

/** A graph built from a checkpoint, on disk. */
export interface CachedGraph {
  /** `…/model.onnx`; its weights are in `model.onnx.data` beside it. Open it by path. */
  graphPath: string;
  /** True when an earlier build was reused. */
  cached: boolean;
  /** Milliseconds spent building and writing (0 when cached). */
  buildMs: number;
}

/**
 * The ONNX graph of `checkpoint`, built once by `build` and kept in the model cache under a key of the
 * family, builder version, variant, `config.json` and each weight file's path, size and mtime (a hub
 * download's path holds the repo revision). Written to a temporary folder and renamed, so a killed build
 * leaves nothing half-written and two processes building at once both end with a whole graph. A new build removes
 * the stale ones (`removeStaleBuilds`).
 */
export async function cachedGraph(checkpoint: Checkpoint, options: CachedGraphOptions, build: (ck: Checkpoint) => OnnxGraphBuilder | Promise<OnnxGraphBuilder>): Promise<CachedGraph> {
  const key = graphKey(checkpoint, options);
  const root = join(options.cacheDir ?? envCacheDir(), 'graphs');
  const dir = join(root, `${options.family}-${options.variant ?? 'fp32'}-${key}`);
  const graphPath = join(dir, 'model.onnx');
  if (existsSync(join(dir, 'complete.json'))) {
    return { graphPath, cached: true, buildMs: 0 };
  }
  const started = performance.now();
  const tmp = unfinishedFolder(dir);
  mkdirSync(tmp, { recursive: true });
  try {
    const graph = await build(checkpoint);
    graph.writeExternal(join(tmp, 'model.onnx'));
    const buildMs = performance.now() - started;
    writeFileSync(join(tmp, 'complete.json'), JSON.stringify({ ...originRecord(checkpoint.dir), family: options.family, builderVersion: options.builderVersion, variant: options.variant ?? 'fp32', buildMs: Math.round(buildMs) }));
    try {
      renameSync(tmp, dir);
    } catch (cause) {
      if (!existsSync(join(dir, 'complete.json'))) {
        throw new InferkitError('model_load_failed', `cannot place the built graph in ${dir}: ${(cause as Error).message}`, { cause });
      }
      rmSync(tmp, { recursive: true, force: true }); // another process finished the same graph first
    }
    await removeStaleBuilds(root, dir, resolve(checkpoint.dir), options);
    return { graphPath, cached: false, buildMs };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * After a build: removes the graphs built before it from the same checkpoint folder, family and variant (its weights
 * or config changed since, or an older builder made them; never a newer builder's, which another inferkit sharing the
 * cache may use), and graphs whose checkpoint folder is gone — nothing finds either again, their key being the files.
 */
function removeStaleBuilds(root: string, keep: string, source: string, options: CachedGraphOptions): Promise<string[]> {
  const variant = options.variant ?? 'fp32';
  return removeFinishedFolders(root, keep, (_name, record) => {
    if (typeof record.builderVersion !== 'number') {
      return false; // not a built graph (the sessions' copies have their own rule: runtime/shared-weights/stale-copies.ts)
    }
    const older = record.source === source && record.family === options.family && record.variant === variant && record.builderVersion <= options.builderVersion;
    return older || sourceGone(record);
  });
}

function graphKey(ck: Checkpoint, options: CachedGraphOptions): string {
  const h = createHash('sha256');
  h.update(`${options.family}\0${options.builderVersion}\0${options.variant ?? 'fp32'}\0`);
  h.update(readFileSync(join(ck.dir, 'config.json')));
  const files = [...new Set(ck.names().map((n) => ck.info(n).file))].sort();
  for (const f of files) {
    const st = statSync(f);
    h.update(`\0${resolve(f)}\0${st.size}\0${st.mtimeMs}`);
  }
  return h.digest('hex').slice(0, 16);
}
