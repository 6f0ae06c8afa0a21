import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InferkitError } from '../../errors.js';
import type { TensorInfo } from '../safetensors.js';
import { PickleError, unpickle, type PickleGlobal } from './unpickle.js';
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

/** A storage the pickle points at: a zip record `data/<key>` of `numel` elements. */
class Storage {
  constructor(
    readonly type: StorageType,
    readonly key: string,
    readonly numel: number,
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

/**
 * The tensors of a PyTorch checkpoint (`pytorch_model.bin`: torch.save's zip format, PyTorch ≥ 1.6), as the
 * same records a safetensors header gives: each a byte range of the file. The pickle is read by a data-only
 * reader (`unpickle.ts`) that knows a state dict's few globals and refuses every other, so no code in the file
 * runs. Errors (`model_load_failed`) name the file and what is wrong: the pre-1.6 format, a TorchScript archive,
 * a global that is not a state dict's, a storage record missing or short, a tensor that is not contiguous.
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
    if (head.readUInt32LE(0) !== 0x04034b50) {
      fail(head[0] === 0x80 ? 'saved in torch.save\'s format from before PyTorch 1.6; inferkit reads the zip format written since (re-save it, or publish model.safetensors)' : 'not a PyTorch checkpoint (not a zip archive)');
    }
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
    const storages = new Map<string, Storage>();
    let state: unknown;
    try {
      state = unpickle(readZipRecord(fd, records.get(pickles[0]) as ZipRecord, file), {
        globals: GLOBALS,
        persistentLoad: (pid) => {
          const [kind, type, key, , numel] = Array.isArray(pid) ? pid : [];
          if (kind !== 'storage' || !(type instanceof StorageType) || typeof key !== 'string' || !Number.isSafeInteger(numel)) {
            throw new PickleError(`a persistent id other than a storage (${JSON.stringify(String(kind))})`);
          }
          let s = storages.get(key);
          if (s === undefined) {
            s = new Storage(type, key, numel as number);
            storages.set(key, s);
          }
          return s;
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
      fail(`its pickle is not a state dict inferkit reads: ${(cause as Error).message}`, cause);
    }
    if (!(state instanceof Map)) {
      fail('holds no state dict (its pickle is not a dict of tensors)');
    }
    const out: TensorInfo[] = [];
    for (const [name, t] of state as Map<unknown, unknown>) {
      if (typeof name !== 'string' || !(t instanceof TorchTensor)) {
        continue; // a non-tensor entry (torch state dicts may hold other values): not a weight
      }
      const { storage } = t;
      const record = records.get(`${prefix}data/${storage.key}`);
      if (record === undefined) {
        fail(`tensor ${name}: its storage record data/${storage.key} is missing`);
      }
      const rec = record as ZipRecord;
      if (rec.method !== 0) {
        fail(`tensor ${name}: its storage record data/${storage.key} is compressed (torch.save stores them uncompressed)`);
      }
      const { width, dtype } = storage.type;
      if (rec.size < storage.numel * width) {
        fail(`tensor ${name}: its storage record data/${storage.key} has ${rec.size} bytes, the pickle says ${storage.numel * width} (truncated)`);
      }
      const count = t.size.reduce((a, b) => a * b, 1);
      let expect = 1;
      for (let d = t.size.length - 1; d >= 0; d--) {
        if (t.size[d] !== 1 && t.stride[d] !== expect) {
          fail(`tensor ${name} (shape [${t.size.join(', ')}], strides [${t.stride.join(', ')}]) is not contiguous; inferkit reads contiguous tensors (save it with .contiguous(), or publish model.safetensors)`);
        }
        expect *= t.size[d];
      }
      if (count > 0 && t.offset + count > storage.numel) {
        fail(`tensor ${name} (${count} elements from ${t.offset}) runs past its storage of ${storage.numel}`);
      }
      const begin = rec.dataOffset + t.offset * width;
      out.push({ name, dtype, shape: t.size, file, begin, end: begin + count * width });
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
