import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { InferkitError } from '../errors.js';
import { CHECKPOINT_WEIGHT_FILES } from '../hub/file-spec.js';
import { readTorchFile } from './pytorch/torch-file.js';

/** Element types of a safetensors tensor that inferkit reads (as float32). */
export const FLOAT_DTYPES = ['F32', 'F16', 'BF16'] as const;
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const BYTES: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };

/** Where one tensor of a checkpoint lives. */
export interface TensorInfo {
  /** Tensor name, e.g. `encoder.block.0.layer.0.SelfAttention.q.weight`. */
  name: string;
  /** safetensors dtype (`F32`, `F16`, `BF16`, …; a torch storage's element type by the same names). */
  dtype: string;
  /** Row-major shape (PyTorch's; a Linear weight is [out, in]). */
  shape: number[];
  /** Absolute path of the weight file (`.safetensors`, or a torch.save zip whose stored record holds the bytes). */
  file: string;
  /** Byte range in that file (absolute offsets); for a strided tensor, the span from its first element to its last. */
  begin: number;
  end: number;
  /**
   * Element strides of a tensor saved non-contiguous (a torch.save'd transposed view, say), its first element at
   * `begin`; absent for the row-major layout safetensors always has.
   */
  strides?: number[];
}

/**
 * A model checkpoint as its authors publish it: `config.json` plus `model.safetensors` (or a sharded
 * `model.safetensors.index.json`), or PyTorch's `pytorch_model.bin` (or its sharded index). Tensors are read one at
 * a time from disk on request, so building a graph never holds the file and its float32 copy at once.
 */
export interface Checkpoint {
  /** The folder. */
  dir: string;
  /** The weights file it was read from, relative to `dir`: the first of CHECKPOINT_WEIGHT_FILES there (`model.safetensors`, a shard index, `pytorch_model.bin`). */
  weightsFile: string;
  /** `config.json`, parsed. */
  config: Record<string, unknown>;
  /** Every tensor name, in file order. */
  names(): string[];
  has(name: string): boolean;
  /** A tensor's record; `model_load_failed` naming it when absent. */
  info(name: string): TensorInfo;
  /**
   * The tensor as float32 (F16 and BF16 widened exactly), row-major. With `shape`, a different shape is a
   * `model_load_failed` naming the tensor, the file and both shapes.
   */
  float32(name: string, shape?: readonly number[]): Float32Array;
  /** Total bytes of all tensors on disk. */
  byteSize(): number;
  /** Closes the open files (reads after it reopen them). */
  close(): void;
}

const HeaderEntrySchema = z.object({ dtype: z.string(), shape: z.array(z.number().int().nonnegative()), data_offsets: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]) });
const IndexSchema = z.object({ weight_map: z.record(z.string(), z.string()) });

/**
 * Opens `dir`'s checkpoint: reads `config.json` and the weight files' headers (not the weights) — the first of
 * {@link CHECKPOINT_WEIGHT_FILES} present: `model.safetensors`, a sharded `model.safetensors.index.json`, else
 * PyTorch's `pytorch_model.bin` or its sharded index (read by `pytorch/torch-file.ts`, which runs no code from the
 * file). Errors (`model_load_failed`) name the file: a header that is not JSON, offsets past the end of a truncated
 * file, a shard the index names that is missing, a dtype whose byte size disagrees with the shape.
 */
export async function openCheckpoint(dir: string): Promise<Checkpoint> {
  const config = await readJson(join(dir, 'config.json'));
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new InferkitError('model_load_failed', `${join(dir, 'config.json')}: expected a JSON object`);
  }
  let weights: string | undefined;
  for (const f of CHECKPOINT_WEIGHT_FILES) {
    if (await isFile(join(dir, f))) {
      weights = f;
      break;
    }
  }
  if (weights === undefined) {
    throw new InferkitError('model_load_failed', `${dir}: no checkpoint weights (${CHECKPOINT_WEIGHT_FILES.join(', ')})`);
  }
  const files: string[] = [];
  if (weights.endsWith('.index.json')) {
    const indexPath = join(dir, weights);
    const parsed = IndexSchema.safeParse(await readJson(indexPath));
    if (!parsed.success) {
      throw new InferkitError('model_load_failed', `${indexPath}: expected { weight_map: { tensor: shard file } }`);
    }
    files.push(...[...new Set(Object.values(parsed.data.weight_map))].map((f) => join(dir, f)));
  } else {
    files.push(join(dir, weights));
  }
  const torch = weights.startsWith('pytorch_model');
  const tensors = new Map<string, TensorInfo>();
  for (const file of files) {
    for (const t of torch ? readTorchFile(file) : readHeader(file)) {
      if (tensors.has(t.name)) {
        throw new InferkitError('model_load_failed', `${file}: tensor ${t.name} is also in ${basename(tensors.get(t.name)?.file ?? '')}`);
      }
      tensors.set(t.name, t);
    }
  }
  return new FileCheckpoint(dir, weights, config as Record<string, unknown>, tensors);
}

/** The tensors a safetensors file declares, checked against the file's size. */
export function readHeader(file: string): TensorInfo[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${file}: cannot open (${(cause as Error).message})`, { cause });
  }
  try {
    const size = fstatSync(fd).size;
    const lenBuf = Buffer.alloc(8);
    if (size < 8 || readSync(fd, lenBuf, 0, 8, 0) !== 8) {
      throw new InferkitError('model_load_failed', `${file}: truncated (no safetensors header)`);
    }
    const headerLength = Number(lenBuf.readBigUInt64LE(0));
    if (headerLength > 100_000_000 || 8 + headerLength > size) {
      throw new InferkitError('model_load_failed', `${file}: header length ${headerLength} does not fit a ${size}-byte file (truncated or not safetensors)`);
    }
    const headerBuf = Buffer.alloc(headerLength);
    readSync(fd, headerBuf, 0, headerLength, 8);
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(headerBuf.toString('utf8')) as Record<string, unknown>;
    } catch (cause) {
      throw new InferkitError('model_load_failed', `${file}: the safetensors header is not JSON`, { cause });
    }
    const base = 8 + headerLength;
    const out: TensorInfo[] = [];
    for (const [name, raw] of Object.entries(header)) {
      if (name === '__metadata__') {
        continue;
      }
      const entry = HeaderEntrySchema.safeParse(raw);
      if (!entry.success) {
        throw new InferkitError('model_load_failed', `${file}: tensor ${name} has no valid dtype/shape/data_offsets`);
      }
      const { dtype, shape, data_offsets: [from, to] } = entry.data;
      const width = BYTES[dtype];
      const count = shape.reduce((a, b) => a * b, 1);
      if (width !== undefined && to - from !== count * width) {
        throw new InferkitError('model_load_failed', `${file}: tensor ${name} (${dtype} [${shape.join(', ')}]) spans ${to - from} bytes, expected ${count * width}`);
      }
      if (base + to > size) {
        throw new InferkitError('model_load_failed', `${file}: tensor ${name} ends at byte ${base + to} but the file has ${size} (truncated)`);
      }
      out.push({ name, dtype, shape, file, begin: base + from, end: base + to });
    }
    return out.sort((a, b) => a.begin - b.begin);
  } finally {
    closeSync(fd);
  }
}

/** A checkpoint whose tensors are byte ranges of files on disk (safetensors or torch.save's zip). */
class FileCheckpoint implements Checkpoint {
  private readonly fds = new Map<string, number>();

  constructor(
    readonly dir: string,
    readonly weightsFile: string,
    readonly config: Record<string, unknown>,
    private readonly tensors: Map<string, TensorInfo>,
  ) {}

  names(): string[] {
    return [...this.tensors.keys()];
  }

  has(name: string): boolean {
    return this.tensors.has(name);
  }

  info(name: string): TensorInfo {
    const t = this.tensors.get(name);
    if (t === undefined) {
      throw new InferkitError('model_load_failed', `${this.dir}: the checkpoint has no tensor ${name}`);
    }
    return t;
  }

  float32(name: string, shape?: readonly number[]): Float32Array {
    const t = this.info(name);
    if (shape !== undefined && (shape.length !== t.shape.length || shape.some((d, i) => d !== t.shape[i]))) {
      throw new InferkitError('model_load_failed', `${t.file}: tensor ${name} has shape [${t.shape.join(', ')}], the config implies [${shape.join(', ')}]`);
    }
    if (!(FLOAT_DTYPES as readonly string[]).includes(t.dtype)) {
      throw new InferkitError('model_load_failed', `${t.file}: tensor ${name} is ${t.dtype}; inferkit reads ${FLOAT_DTYPES.join(', ')}`);
    }
    const n = t.end - t.begin;
    if (t.strides !== undefined) {
      return gather(toFloat32(t.dtype, this.read(t, Buffer.alloc(n))), t.shape, t.strides);
    }
    // F32 on a little-endian host: read straight into the result (no second copy of the tensor).
    const direct = t.dtype === 'F32' && LITTLE_ENDIAN ? new Float32Array(n / 4) : undefined;
    const bytes = this.read(t, direct ? new Uint8Array(direct.buffer) : Buffer.alloc(n));
    return direct ?? toFloat32(t.dtype, bytes);
  }

  /** Fills `bytes` from the tensor's first byte on. */
  private read(t: TensorInfo, bytes: Uint8Array): Uint8Array {
    const n = bytes.byteLength;
    let got = 0;
    while (got < n) {
      const r = readSync(this.fd(t.file), bytes, got, n - got, t.begin + got);
      if (r === 0) {
        throw new InferkitError('model_load_failed', `${t.file}: tensor ${t.name} is cut short (${got} of ${n} bytes)`);
      }
      got += r;
    }
    return bytes;
  }

  byteSize(): number {
    let n = 0;
    for (const t of this.tensors.values()) {
      n += t.end - t.begin;
    }
    return n;
  }

  close(): void {
    for (const fd of this.fds.values()) {
      closeSync(fd);
    }
    this.fds.clear();
  }

  private fd(file: string): number {
    let fd = this.fds.get(file);
    if (fd === undefined) {
      fd = openSync(file, 'r');
      this.fds.set(file, fd);
    }
    return fd;
  }
}

/** The row-major copy of a strided tensor whose elements lie in `span` (its first element at 0). */
function gather(span: Float32Array, shape: readonly number[], strides: readonly number[]): Float32Array {
  const out = new Float32Array(shape.reduce((a, b) => a * b, 1));
  const index = new Array<number>(shape.length).fill(0);
  let at = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = span[at];
    for (let d = shape.length - 1; d >= 0; d--) {
      index[d]++;
      at += strides[d];
      if (index[d] < shape[d]) {
        break;
      }
      at -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

/** Little-endian F32/F16/BF16 bytes → float32 values (exact: both half formats widen without rounding). */
export function toFloat32(dtype: string, bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dtype === 'F32') {
    const out = new Float32Array(bytes.byteLength / 4);
    for (let i = 0; i < out.length; i++) {
      out[i] = view.getFloat32(i * 4, true);
    }
    return out;
  }
  const n = bytes.byteLength / 2;
  const out = new Float32Array(n);
  if (dtype === 'BF16') {
    const u32 = new Uint32Array(out.buffer);
    for (let i = 0; i < n; i++) {
      u32[i] = view.getUint16(i * 2, true) << 16;
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    out[i] = halfToFloat(view.getUint16(i * 2, true));
  }
  return out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) {
    return sign * frac * 2 ** -24;
  }
  if (exp === 31) {
    return frac === 0 ? sign * Infinity : NaN;
  }
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${path}: cannot read (${(cause as Error).message})`, { cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${path}: not valid JSON (${(cause as Error).message})`, { cause });
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
