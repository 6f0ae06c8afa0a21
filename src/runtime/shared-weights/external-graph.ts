import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { envCacheDir } from '../../config.js';
import { InferkitError } from '../../errors.js';
import { mappedWeights } from './mapped-weights.js';
import { originRecord, removeStaleCopies, unfinishedFolder } from './stale-copies.js';
import { externalCopyOffThread } from '../worker/external-copy.js';

/** Graphs smaller than this keep their inline weights (a copy per session costs little). */
const MIN_INLINE_BYTES = 8 * 2 ** 20;
/** Initializers moved out: `raw_data` of at least this many bytes, each at a page-aligned offset. */
const MIN_TENSOR_BYTES = 1024;
const ALIGN = 4096;

/**
 * A copy of the graph file `model` whose inline weights (initializers' `raw_data`) are moved to
 * `model.onnx.data` beside it — external data ONNX Runtime memory-maps, so the sessions of a pool share
 * one copy (see {@link sharedWeightsOptions}). Made once into `<cacheDir>/graphs/external-<key>/`, keyed by
 * the file's path, size and mtime; written to a temporary folder and renamed (files read and written
 * off the event loop; the split itself is a copy of the bytes); a new copy removes the finished copies of the
 * same path's earlier bytes ({@link removeStaleCopies}). Undefined for a model given
 * as bytes, a small graph, or one whose weights are external already. Nodes, subgraphs and every other
 * field are copied byte for byte.
 */
export async function externalizedGraph(model: string | Uint8Array, cacheDir: string = envCacheDir()): Promise<string | undefined> {
  const place = copyPlace(model, cacheDir);
  if (place === undefined || typeof model !== 'string') {
    return undefined;
  }
  const { dir, graphPath } = place;
  if (existsSync(join(dir, 'complete.json'))) {
    return graphPath;
  }
  const tmp = unfinishedFolder(dir);
  await mkdir(tmp, { recursive: true });
  try {
    // int8 graphs too: their sessions keep prepacking (mapped-weights.ts), and a packed session drops the mapped
    // pages it packed from, where inline weights stay in the worker's heap (BERT-base int8, 2 replicas: RSS growth
    // 0.59 → 0.27 GiB for 0.17 GiB of weights).
    const bytes = await readFile(model);
    const { graph, data, moved } = splitWeights(bytes, 'model.onnx.data');
    if (moved === 0) {
      await rm(tmp, { recursive: true, force: true });
      return undefined;
    }
    await writeFile(join(tmp, 'model.onnx.data'), data);
    await writeFile(join(tmp, 'model.onnx'), graph);
    await writeFile(join(tmp, 'complete.json'), JSON.stringify({ ...originRecord(model), size: place.size, mtimeMs: place.mtimeMs, moved }));
    try {
      await rename(tmp, dir);
    } catch (cause) {
      if (!existsSync(join(dir, 'complete.json'))) {
        throw new InferkitError('model_load_failed', `cannot place the external-data copy of ${model} in ${dir}: ${(cause as Error).message}`, { cause });
      }
      await rm(tmp, { recursive: true, force: true }); // another process made the same copy first
      return graphPath;
    }
    // A new copy for this path: the copies of its earlier bytes (other size or mtime) are stale.
    await removeStaleCopies(join(cacheDir, 'graphs'), 'external', resolve(model), dir);
    return graphPath;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Where `model`'s external-data copy goes (its folder and graph file), or undefined when it needs none (bytes, small, external already, missing). */
function copyPlace(model: string | Uint8Array, cacheDir: string): { dir: string; graphPath: string; size: number; mtimeMs: number } | undefined {
  if (typeof model !== 'string' || !existsSync(model)) {
    return undefined;
  }
  const st = statSync(model);
  if (st.size < MIN_INLINE_BYTES || mappedWeights(model) !== undefined) {
    return undefined;
  }
  const key = createHash('sha256').update(`${resolve(model)}\0${st.size}\0${st.mtimeMs}`).digest('hex').slice(0, 16);
  const dir = join(cacheDir, 'graphs', `external-${key}`);
  return { dir, graphPath: join(dir, 'model.onnx'), size: st.size, mtimeMs: st.mtimeMs };
}

/**
 * The graph a model's worker-thread sessions should open (one session or a pool, prepacked or not): for a graph
 * file with its weights inline, its external-data copy in the model cache ({@link externalizedGraph}); else `model`
 * itself (also when the copy cannot be made). ORT maps external weights: several unpacked sessions read one copy,
 * and a session that prepacks drops the mapping once packed. Inline weights are parsed into the worker's malloc
 * arena, which keeps them after packing (BERT-base, one prepacked session in a worker: RSS 1.7× the weights inline,
 * 0.95× from the copy).
 */
export async function shareableModel(model: string | Uint8Array, cacheDir: string = envCacheDir()): Promise<string | Uint8Array> {
  const place = copyPlace(model, cacheDir);
  if (place === undefined || typeof model !== 'string') {
    return model;
  }
  if (existsSync(join(place.dir, 'complete.json'))) {
    return place.graphPath;
  }
  try {
    // Made in a child process that exits (or a worker thread): the split's whole-file buffers do not wait in this heap for a full GC.
    return (await externalCopyOffThread(model, cacheDir)) ?? model;
  } catch {
    return model;
  }
}

/**
 * Rewrites a ModelProto: each top-level graph initializer (GraphProto field 5) with `raw_data` (field 9)
 * of at least {@link MIN_TENSOR_BYTES} loses it for `external_data` (13: location, offset, length) and
 * `data_location` EXTERNAL (14); the bytes go to `data`. `moved` counts the tensors moved.
 */
export function splitWeights(model: Uint8Array, location: string): { graph: Uint8Array; data: Uint8Array; moved: number } {
  const pieces: Uint8Array[] = [];
  let size = 0;
  let moved = 0;
  const place = (bytes: Uint8Array): number => {
    const offset = Math.ceil(size / ALIGN) * ALIGN;
    if (offset > size) {
      pieces.push(new Uint8Array(offset - size));
    }
    pieces.push(bytes);
    size = offset + bytes.byteLength;
    return offset;
  };
  const graph = rewrite(model, 0, model.length, (field, start, end) => {
    if (field !== 7) {
      return undefined;
    }
    return rewrite(model, start, end, (gf, gs, ge) => {
      if (gf !== 5) {
        return undefined;
      }
      const fields = list(model, gs, ge);
      const raw = fields.find((f) => f.field === 9 && f.wire === 2);
      if (raw === undefined || raw.end - raw.start < MIN_TENSOR_BYTES || fields.some((f) => f.field === 13 || f.field === 14)) {
        return undefined;
      }
      const offset = place(model.subarray(raw.start, raw.end));
      moved++;
      const kept = fields.filter((f) => f !== raw).map((f) => model.subarray(f.tagAt, f.end));
      const entries = [['location', location], ['offset', String(offset)], ['length', String(raw.end - raw.start)]].map(([k, v]) =>
        lengthDelimited(13, concat([lengthDelimited(1, utf8(k)), lengthDelimited(2, utf8(v))])),
      );
      return concat([...kept, ...entries, varintField(14, 1)]);
    });
  });
  return { graph, data: concat(pieces), moved };
}

interface Field {
  field: number;
  wire: number;
  /** Where the tag starts, where the payload starts (after a length prefix) and ends. */
  tagAt: number;
  start: number;
  end: number;
}

function list(b: Uint8Array, from: number, to: number): Field[] {
  const out: Field[] = [];
  let at = from;
  while (at < to) {
    const tagAt = at;
    const [tag, afterTag] = varint(b, at);
    const wire = tag % 8;
    let start = afterTag;
    let end: number;
    if (wire === 0) {
      end = varint(b, afterTag)[1];
    } else if (wire === 1 || wire === 5) {
      end = afterTag + (wire === 1 ? 8 : 4);
    } else if (wire === 2) {
      const [length, s] = varint(b, afterTag);
      start = s;
      end = s + length;
    } else {
      throw new InferkitError('model_load_failed', `not an ONNX model: unsupported protobuf wire type ${wire} at byte ${at}`);
    }
    if (end > to) {
      throw new InferkitError('model_load_failed', `not an ONNX model: a protobuf field runs past its message end (byte ${end} of ${to})`);
    }
    out.push({ field: Math.floor(tag / 8), wire, tagAt, start, end });
    at = end;
  }
  return out;
}

/** The message in [from, to) with each length-delimited field `edit` returns a new payload for replaced. */
function rewrite(b: Uint8Array, from: number, to: number, edit: (field: number, start: number, end: number) => Uint8Array | undefined): Uint8Array {
  return concat(
    list(b, from, to).map((f) => {
      const payload = f.wire === 2 ? edit(f.field, f.start, f.end) : undefined;
      return payload === undefined ? b.subarray(f.tagAt, f.end) : lengthDelimited(f.field, payload);
    }),
  );
}

function varint(b: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < b.length && i < at + 10; i++) {
    value += (b[i] & 0x7f) * scale;
    scale *= 128;
    if (b[i] < 0x80) {
      return [value, i + 1];
    }
  }
  throw new InferkitError('model_load_failed', `not an ONNX model: truncated varint at byte ${at}`);
}

function encodeVarint(n: number): Uint8Array {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

function lengthDelimited(field: number, payload: Uint8Array): Uint8Array {
  return concat([encodeVarint(field * 8 + 2), encodeVarint(payload.byteLength), payload]);
}

function varintField(field: number, value: number): Uint8Array {
  return concat([encodeVarint(field * 8), encodeVarint(value)]);
}

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
