import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InferkitError } from '../../errors.js';
import type { TensorInfo } from '../safetensors.js';
import { PickleError, unpickleAt, type PickleGlobal } from './unpickle.js';
import { readZipRecord, readZipRecords, type ZipRecord } from './zip-records.js';

/** torch's storage classes → the safetensors dtype of their elements and its byte width. */
const STORAGES: Record<string, { dtype: string; width: number }> = {
  FloatStorage: { dtype: 'F32', width: 4 },
  HalfStorage: { dtype: 'F16', width: 2 },
  BFloat16Storage: { dtype: 'BF16', width: 2 },
  DoubleStorage: { dtype: 'F64', width: 8 },
  LongStorage: { dtype: 'I64', width: 8 },
  IntStorage: { dtype: 'I32', width: 4 },
  ShortStorage: { dtype: 'I16', width: 2 },
  CharStorage: { dtype: 'I8', width: 1 },
  ByteStorage: { dtype: 'U8', width: 1 },
  BoolStorage: { dtype: 'BOOL', width: 1 },
};

class StorageType {
  constructor(
    readonly name: string,
    readonly dtype: string,
    readonly width: number,
  ) {}
}

/**
 * A storage the pickle points at, `numel` elements: in the zip format the record `data/<key>`; in the legacy format
 * a block after the pickles, or a view (`viewOffset` elements on) into such a `root` block.
 */
class Storage {
  constructor(
    readonly type: StorageType,
    readonly key: string,
    readonly numel: number,
    readonly root: Storage | undefined = undefined,
    readonly viewOffset = 0,
  ) {}
}

/** A tensor as torch rebuilds it: a view (offset, size, stride, in elements) into a storage. */
class TorchTensor {
  constructor(
    readonly storage: Storage,
    readonly offset: number,
    readonly size: number[],
    readonly stride: number[],
  ) {}
}

const rebuild = (args: readonly unknown[]): TorchTensor => {
  const [storage, offset, size, stride] = args;
  const ints = (v: unknown): v is readonly number[] => Array.isArray(v) && v.every((d) => Number.isSafeInteger(d) && (d as number) >= 0);
  if (!(storage instanceof Storage) || !Number.isSafeInteger(offset) || (offset as number) < 0 || !ints(size) || !ints(stride) || size.length !== stride.length) {
    throw new PickleError('a tensor is rebuilt from something other than (storage, offset, size, stride)');
  }
  return new TorchTensor(storage, offset as number, [...size], [...stride]);
};
const parameter = (args: readonly unknown[]): TorchTensor => {
  if (!(args[0] instanceof TorchTensor)) {
    throw new PickleError('a parameter wraps something other than a tensor');
  }
  return args[0];
};

/** The globals a state dict of tensors needs, and nothing else. */
const GLOBALS: Record<string, PickleGlobal> = {
  'collections.OrderedDict': { call: () => new Map() },
  'torch._utils._rebuild_tensor': { call: rebuild },
  'torch._utils._rebuild_tensor_v2': { call: rebuild },
  'torch._utils._rebuild_parameter': { call: parameter },
  'torch._utils._rebuild_parameter_with_state': { call: parameter },
  ...Object.fromEntries(Object.entries(STORAGES).map(([name, s]) => [`torch.${name}`, { value: new StorageType(name, s.dtype, s.width) }])),
};

/** torch.save's legacy header: its magic number and protocol version (PyTorch before 1.6). */
const LEGACY_MAGIC = 0x1950a86a20f9469cfc6cn;
const LEGACY_PROTOCOL = 1001;
/** How much of a legacy file is read first to find its pickles; four times more each time they run past it, up to LEGACY_MAX_READ. */
const LEGACY_FIRST_READ = 4 << 10;
/** The most of a legacy file read to find its pickles (a state dict's pickle is far smaller). */
const LEGACY_MAX_READ = 64 << 20;

/**
 * The tensors of a PyTorch checkpoint (`pytorch_model.bin`), as the same records a safetensors header gives: each a
 * byte range of the file. Reads torch.save's zip format (PyTorch ≥ 1.6) and its legacy format before it (pickles,
 * then the storages back to back). The pickle is read by a data-only reader (`unpickle.ts`) that knows a state dict's
 * few globals and refuses every other, so no code in the file runs. Errors (`model_load_failed`) name the file and
 * what is wrong: a TorchScript archive, a global that is not a state dict's, a storage missing or short, a tensor
 * past its storage, a big-endian file. A tensor saved non-contiguous (a transposed view) is read through its strides.
 */
export function readTorchFile(file: string): TensorInfo[] {
  const fail = (why: string, cause?: unknown): never => {
    throw new InferkitError('model_load_failed', `${file}: ${why}`, cause === undefined ? {} : { cause });
  };
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (cause) {
    return fail(`cannot open (${(cause as Error).message})`, cause);
  }
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    if (head.readUInt32LE(0) === 0x04034b50) {
      return zipTensors(fd, size, file, fail);
    }
    if (head[0] === 0x80) {
      return legacyTensors(fd, size, file, fail);
    }
    return fail('not a PyTorch checkpoint (neither torch.save\'s zip nor its legacy pickle format)');
  } finally {
    closeSync(fd);
  }
}

type Fail = (why: string, cause?: unknown) => never;

/** torch.save's zip: `<archive>/data.pkl` and one stored record `<archive>/data/<key>` per storage. */
function zipTensors(fd: number, size: number, file: string, fail: Fail): TensorInfo[] {
  const records = readZipRecords(fd, size, file);
  const pickles = [...records.keys()].filter((n) => /^[^/]+\/data\.pkl$/.test(n) || n === 'data.pkl');
  if (pickles.length !== 1) {
    fail(pickles.length === 0 ? 'a zip archive without data.pkl (not a torch.save checkpoint)' : `a zip archive with ${pickles.length} data.pkl records`);
  }
  const prefix = pickles[0].slice(0, -'data.pkl'.length);
  if (records.has(`${prefix}constants.pkl`)) {
    fail('a TorchScript archive (torch.jit.save); inferkit reads state dicts saved by torch.save');
  }
  const order = records.get(`${prefix}byteorder`);
  if (order !== undefined && readZipRecord(fd, order, file).toString('latin1') !== 'little') {
    fail('saved big-endian; inferkit reads little-endian checkpoints');
  }
  const { state } = readStateDict(readZipRecord(fd, records.get(pickles[0]) as ZipRecord, file), 0, fail);
  return tensorsOf(state, file, fail, (storage, name) => {
    const record = records.get(`${prefix}data/${storage.key}`);
    if (record === undefined) {
      return fail(`tensor ${name}: its storage record data/${storage.key} is missing`);
    }
    if (record.method !== 0) {
      fail(`tensor ${name}: its storage record data/${storage.key} is compressed (torch.save stores them uncompressed)`);
    }
    if (record.size < storage.numel * storage.type.width) {
      fail(`tensor ${name}: its storage record data/${storage.key} has ${record.size} bytes, the pickle says ${storage.numel * storage.type.width} (truncated)`);
    }
    return record.dataOffset;
  });
}

/**
 * torch.save's legacy format: pickles of its magic number, protocol version and system info, the object (storages
 * as persistent ids), the list of storage keys; then each storage in that order, its element count (int64) and its bytes.
 */
function legacyTensors(fd: number, size: number, file: string, fail: Fail): TensorInfo[] {
  // The pickles come first and their length is known only once read: read a little, and more while they run past it.
  const most = Math.min(size, LEGACY_MAX_READ);
  for (let length = Math.min(most, LEGACY_FIRST_READ); ; length = Math.min(most, length * 4)) {
    const head = Buffer.alloc(length);
    readSync(fd, head, 0, length, 0);
    try {
      return legacyTensorsFrom(head, fd, size, file, fail);
    } catch (err) {
      const cutShort = err instanceof InferkitError && err.cause instanceof PickleError && err.cause.cutShort;
      if (!cutShort || length === most) {
        throw err;
      }
    }
  }
}

/** {@link legacyTensors} once `head` (the file's first bytes) holds all its pickles. */
function legacyTensorsFrom(head: Buffer, fd: number, size: number, file: string, fail: Fail): TensorInfo[] {
  const plain = (start: number, what: string): { value: unknown; end: number } => {
    try {
      return unpickleAt(head, start, { globals: {} });
    } catch (cause) {
      return fail(`its legacy-format ${what} is not readable (${(cause as Error).message})`, cause);
    }
  };
  const magic = plain(0, 'header');
  if (magic.value !== LEGACY_MAGIC) {
    fail('not a PyTorch checkpoint (a pickle without torch.save\'s magic number)');
  }
  const protocol = plain(magic.end, 'header');
  if (protocol.value !== LEGACY_PROTOCOL) {
    fail(`torch.save legacy protocol ${String(protocol.value)}; inferkit reads ${LEGACY_PROTOCOL}`);
  }
  const info = plain(protocol.end, 'system info');
  if (info.value instanceof Map && info.value.get('little_endian') === false) {
    fail('saved big-endian; inferkit reads little-endian checkpoints');
  }
  const { state, end, storages } = readStateDict(head, info.end, fail);
  const keys = plain(end, 'storage list');
  if (!Array.isArray(keys.value) || !keys.value.every((k) => typeof k === 'string')) {
    fail('its legacy-format storage list is not a list of keys');
  }
  const starts = new Map<string, number>();
  let at = keys.end;
  const count = Buffer.alloc(8);
  for (const key of keys.value as string[]) {
    const storage = storages.get(key);
    if (storage === undefined) {
      fail(`its storage list names ${key}, which no tensor uses`);
    }
    if (readSync(fd, count, 0, 8, at) !== 8) {
      fail(`storage ${key} starts at byte ${at} but the file has ${size} (truncated)`);
    }
    const numel = count.readBigInt64LE(0);
    if (numel !== BigInt((storage as Storage).numel)) {
      fail(`storage ${key} holds ${numel} elements, the pickle says ${(storage as Storage).numel}`);
    }
    starts.set(key, at + 8);
    at += 8 + (storage as Storage).numel * (storage as Storage).type.width;
    if (at > size) {
      fail(`storage ${key} ends at byte ${at} but the file has ${size} (truncated)`);
    }
  }
  return tensorsOf(state, file, fail, (storage, name) => starts.get(storage.key) ?? fail(`tensor ${name}: its storage ${storage.key} is not in the file's storage list`));
}

/** The object pickled at `start`, storages resolved (both formats' persistent ids). */
function readStateDict(bytes: Uint8Array, start: number, fail: Fail): { state: Map<unknown, unknown>; end: number; storages: Map<string, Storage> } {
  const storages = new Map<string, Storage>();
  const views = new Map<string, Storage>();
  let read: { value: unknown; end: number };
  try {
    read = unpickleAt(bytes, start, {
      globals: GLOBALS,
      persistentLoad: (pid) => {
        // zip: ('storage', type, key, location, numel); legacy: the same and view metadata (view key, offset, size) or None.
        const [kind, type, key, , numel, view] = Array.isArray(pid) ? pid : [];
        if (kind !== 'storage' || !(type instanceof StorageType) || typeof key !== 'string' || !Number.isSafeInteger(numel)) {
          throw new PickleError(`a persistent id other than a storage (${JSON.stringify(String(kind))})`);
        }
        let root = storages.get(key);
        if (root === undefined) {
          root = new Storage(type, key, numel as number);
          storages.set(key, root);
        }
        if (view === undefined || view === null) {
          return root;
        }
        const [viewKey, offset, viewSize] = Array.isArray(view) ? view : [];
        if (typeof viewKey !== 'string' || !Number.isSafeInteger(offset) || !Number.isSafeInteger(viewSize) || (offset as number) < 0 || (offset as number) + (viewSize as number) > root.numel) {
          throw new PickleError(`storage ${key} has a view that is not (key, offset, size) inside it`);
        }
        let v = views.get(viewKey);
        if (v === undefined) {
          v = new Storage(type, key, viewSize as number, root, offset as number);
          views.set(viewKey, v);
        }
        return v;
      },
      build: (obj) => {
        if (!(obj instanceof TorchTensor)) {
          throw new PickleError('it sets the state of an object that is not a tensor');
        }
      },
    });
  } catch (cause) {
    if (cause instanceof InferkitError) {
      throw cause;
    }
    return fail(`its pickle is not a state dict inferkit reads: ${(cause as Error).message}`, cause);
  }
  if (!(read.value instanceof Map)) {
    fail('holds no state dict (its pickle is not a dict of tensors)');
  }
  return { state: read.value as Map<unknown, unknown>, end: read.end, storages };
}

/** The state dict's tensors as byte ranges; `start(root storage, tensor name)` is where the root storage's bytes begin. */
function tensorsOf(state: Map<unknown, unknown>, file: string, fail: Fail, start: (storage: Storage, name: string) => number): TensorInfo[] {
  const out: TensorInfo[] = [];
  for (const [name, t] of state) {
    if (typeof name !== 'string' || !(t instanceof TorchTensor)) {
      continue; // a non-tensor entry (torch state dicts may hold other values): not a weight
    }
    const view = t.storage;
    const root = view.root ?? view;
    const { width, dtype } = root.type;
    const count = t.size.reduce((a, b) => a * b, 1);
    let expect = 1;
    let contiguous = true;
    for (let d = t.size.length - 1; d >= 0; d--) {
      contiguous &&= t.size[d] === 1 || t.stride[d] === expect;
      expect *= t.size[d];
    }
    // Elements span from the first to the last index's (strides are non-negative), inside the storage.
    const span = count === 0 ? 0 : 1 + t.size.reduce((a, size, d) => a + (size - 1) * t.stride[d], 0);
    if (t.offset + span > view.numel) {
      fail(`tensor ${name} (shape [${t.size.join(', ')}], strides [${t.stride.join(', ')}] from element ${t.offset}) runs past its storage of ${view.numel}`);
    }
    const begin = start(root, name) + (view.viewOffset + t.offset) * width;
    // A non-contiguous tensor (a transposed view saved as such) is read through its strides.
    out.push({ name, dtype, shape: t.size, file, begin, end: begin + (contiguous ? count : span) * width, ...(contiguous ? {} : { strides: [...t.stride] }) });
  }
  return out;
}
