import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InferkitError } from '../errors.js';
import { ProtoWriter, littleEndianBytes } from './proto-writer.js';

/** Element types the builder writes (ONNX `TensorProto.DataType`). */
export type OnnxElementType = 'float32' | 'int64' | 'int32' | 'bool' | 'int8' | 'uint8';

const ELEMENT_TYPE_CODE: Record<OnnxElementType, number> = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, bool: 9 };

/** One dimension of a graph input/output: a fixed size or a symbolic name such as `"batch"`. */
export type OnnxDim = number | string;

/** A constant tensor (initializer or tensor attribute); `data` is row-major, written as `raw_data`. */
export type OnnxTensor =
  | { type: 'float32'; dims: readonly number[]; data: Float32Array }
  | { type: 'int64'; dims: readonly number[]; data: BigInt64Array }
  | { type: 'int8'; dims: readonly number[]; data: Int8Array };

/** A float32 initializer whose values are produced only when the graph is written (one at a time). */
export interface LazyFloat32Tensor {
  type: 'float32';
  dims: readonly number[];
  load: () => Float32Array;
}

type StoredTensor = OnnxTensor | LazyFloat32Tensor;

function isLazy(t: StoredTensor): t is LazyFloat32Tensor {
  return 'load' in t;
}

function loaded(name: string, t: StoredTensor): OnnxTensor {
  if (!isLazy(t)) {
    return t;
  }
  const data = t.load();
  const expected = t.dims.reduce((a, b) => a * b, 1);
  if (data.length !== expected) {
    throw new InferkitError('internal', `initializer ${name}: dims ${t.dims.join('x')} hold ${expected} values, got ${data.length}`);
  }
  return { type: 'float32', dims: t.dims, data };
}

/** A node attribute, tagged because ONNX distinguishes int from float. Build them with {@link attr}. */
export type OnnxAttribute =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'ints'; value: readonly number[] }
  | { kind: 'floats'; value: readonly number[] }
  | { kind: 'string'; value: string }
  | { kind: 'tensor'; value: OnnxTensor };

/** Attribute constructors: `attr.int(1)`, `attr.floats([0.5])`, `attr.tensor(t)` … */
export const attr = {
  int: (value: number): OnnxAttribute => ({ kind: 'int', value }),
  float: (value: number): OnnxAttribute => ({ kind: 'float', value }),
  ints: (value: readonly number[]): OnnxAttribute => ({ kind: 'ints', value }),
  floats: (value: readonly number[]): OnnxAttribute => ({ kind: 'floats', value }),
  string: (value: string): OnnxAttribute => ({ kind: 'string', value }),
  tensor: (value: OnnxTensor): OnnxAttribute => ({ kind: 'tensor', value }),
};

/** Options of {@link OnnxGraphBuilder}. */
export interface OnnxGraphBuilderOptions {
  /** Graph name. @default "inferkit" */
  name?: string;
  /** Default-domain opset version. @default 17 */
  opset?: number;
  /** ONNX IR version. @default 8 */
  irVersion?: number;
  /** `producer_name` of the model. @default "inferkit" */
  producerName?: string;
}

interface NodeSpec {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name: string;
  attributes: Record<string, OnnxAttribute>;
}

interface ValueSpec {
  name: string;
  type: OnnxElementType;
  dims: readonly OnnxDim[];
}

/**
 * Builds an ONNX ModelProto (default domain only) from TypeScript: inputs, outputs,
 * initializers and nodes, then `toBytes()` for `InferenceSession.create(bytes)`.
 * Node outputs get unique generated names unless given.
 */
export class OnnxGraphBuilder {
  private readonly nodes: NodeSpec[] = [];
  private readonly inputs: ValueSpec[] = [];
  private readonly outputs: ValueSpec[] = [];
  private readonly initializers = new Map<string, StoredTensor>();
  private readonly names = new Set<string>();
  private readonly constants = new Map<string, string>();
  private counter = 0;

  constructor(private readonly options: OnnxGraphBuilderOptions = {}) {}

  /** Declares a graph input and returns its name. */
  input(name: string, type: OnnxElementType, dims: readonly OnnxDim[]): string {
    this.claim(name);
    this.inputs.push({ name, type, dims });
    return name;
  }

  /** Declares an existing value (node output or initializer) as a graph output; returns its name. */
  output(name: string, type: OnnxElementType, dims: readonly OnnxDim[]): string {
    this.outputs.push({ name, type, dims });
    return name;
  }

  /** Adds an initializer (constant weight) and returns its name. */
  initializer(name: string, tensor: OnnxTensor): string {
    const expected = tensor.dims.reduce((a, b) => a * b, 1);
    if (expected !== tensor.data.length) {
      throw new InferkitError('internal', `initializer ${name}: dims ${tensor.dims.join('x')} hold ${expected} values, got ${tensor.data.length}`);
    }
    this.claim(name);
    this.initializers.set(name, tensor);
    return name;
  }

  /**
   * Adds a float32 initializer whose values `load` produces when the graph is written, so a model's weights
   * are read (and e.g. transposed) one tensor at a time instead of all held at once. Returns its name.
   */
  lazyFloat32(name: string, dims: readonly number[], load: () => Float32Array): string {
    this.claim(name);
    this.initializers.set(name, { type: 'float32', dims, load });
    return name;
  }

  /** Number of float32 values held by initializers (lazy ones included): the model's parameter count. */
  parameterCount(): number {
    let n = 0;
    for (const t of this.initializers.values()) {
      n += t.dims.reduce((a, b) => a * b, 1);
    }
    return n;
  }

  /** Adds a float32 initializer; `dims` defaults to 1-D. */
  float32(name: string, data: Float32Array | readonly number[], dims?: readonly number[]): string {
    const values = data instanceof Float32Array ? data : Float32Array.from(data);
    return this.initializer(name, { type: 'float32', dims: dims ?? [values.length], data: values });
  }

  /** Adds an int64 initializer; `dims` defaults to 1-D. */
  int64(name: string, data: BigInt64Array | readonly number[], dims?: readonly number[]): string {
    const values = data instanceof BigInt64Array ? data : BigInt64Array.from(data, (v) => BigInt(v));
    return this.initializer(name, { type: 'int64', dims: dims ?? [values.length], data: values });
  }

  /** Adds an int8 initializer (quantized weights); `dims` defaults to 1-D. */
  int8(name: string, data: Int8Array, dims?: readonly number[]): string {
    return this.initializer(name, { type: 'int8', dims: dims ?? [data.length], data });
  }

  /** A float32 scalar constant (dims `[]`), shared between uses of the same value. */
  floatScalar(value: number): string {
    return this.cachedConstant(`f:${value}`, (name) =>
      this.initializer(name, { type: 'float32', dims: [], data: Float32Array.of(value) }),
    );
  }

  /** A 1-D int64 constant (axes, shapes, indices), shared between uses of the same values. */
  int64Vector(values: readonly number[]): string {
    return this.cachedConstant(`i:${values.join(',')}`, (name) => this.int64(name, values));
  }

  /**
   * Adds a node and returns its output names. `outputs` is a list of names or a count of
   * outputs to name automatically (default 1). Use `""` in `inputs` for an omitted optional input.
   */
  node(
    opType: string,
    inputs: readonly string[],
    attributes: Record<string, OnnxAttribute> = {},
    outputs: readonly string[] | number = 1,
  ): string[] {
    const name = this.fresh(opType);
    const outs = typeof outputs === 'number' ? Array.from({ length: outputs }, (_, i) => `${name}_out${i}`) : [...outputs];
    for (const out of outs) {
      this.claim(out);
    }
    this.nodes.push({ opType, inputs, outputs: outs, name, attributes });
    return outs;
  }

  /** Adds a single-output node and returns its output name (optionally chosen). */
  op(opType: string, inputs: readonly string[], attributes: Record<string, OnnxAttribute> = {}, output?: string): string {
    return this.node(opType, inputs, attributes, output === undefined ? 1 : [output])[0];
  }

  /** Serialises the model (ModelProto) to bytes, every weight inside. */
  toBytes(): Uint8Array {
    return this.encode(undefined);
  }

  /**
   * Serialises the model with its weights as ONNX external data, as exporters write large models:
   * every initializer of at least `minBytes` goes to the returned `data` (each at a 64-byte aligned
   * offset) and the graph's tensor records `location` (the data file's path relative to the graph
   * file, e.g. `model.onnx.data`), `offset` and `length`. Write `data` at that path beside the graph
   * and open the graph by its path. @param minBytes @default 1024
   */
  toExternalData(location: string, minBytes = 1024): { model: Uint8Array; data: Uint8Array } {
    const placed = new Map<string, { offset: number; length: number }>();
    let size = 0;
    for (const [name, tensor] of this.initializers) {
      const bytes = byteLengthOf(tensor);
      if (bytes >= minBytes) {
        size = Math.ceil(size / 64) * 64;
        placed.set(name, { offset: size, length: bytes });
        size += bytes;
      }
    }
    const data = new Uint8Array(size);
    for (const [name, at] of placed) {
      data.set(littleEndianBytes(loaded(name, this.initializers.get(name) as StoredTensor).data), at.offset);
    }
    const place = (name: string): ExternalPlace | undefined => {
      const at = placed.get(name);
      return at && { location, ...at };
    };
    return { model: this.encode(place), data };
  }

  /**
   * Writes the graph to `graphPath` and its weights of at least `minBytes` to `<graphPath>.data` beside it
   * (ONNX external data, 64-byte aligned), streaming: each initializer is loaded, written and dropped in
   * turn, so peak memory is about one tensor plus the eager initializers. Returns the data file's size.
   */
  writeExternal(graphPath: string, minBytes = 1024): { dataBytes: number } {
    const location = basename(graphPath) + '.data';
    const placed = new Map<string, ExternalPlace>();
    const fd = openSync(join(dirname(graphPath), location), 'w');
    let size = 0;
    try {
      for (const [name, stored] of this.initializers) {
        if (byteLengthOf(stored) < minBytes) {
          continue;
        }
        const aligned = Math.ceil(size / 64) * 64;
        if (aligned > size) {
          writeAll(fd, new Uint8Array(aligned - size));
        }
        const bytes = littleEndianBytes(loaded(name, stored).data);
        writeAll(fd, bytes);
        placed.set(name, { location, offset: aligned, length: bytes.byteLength });
        size = aligned + bytes.byteLength;
      }
    } finally {
      closeSync(fd);
    }
    writeFileSync(graphPath, this.encode((name) => placed.get(name)));
    return { dataBytes: size };
  }

  private encode(external: ((name: string) => ExternalPlace | undefined) | undefined): Uint8Array {
    const graph = new ProtoWriter();
    for (const node of this.nodes) {
      graph.message(1, encodeNode(node));
    }
    graph.string(2, this.options.name ?? 'inferkit');
    for (const [name, tensor] of this.initializers) {
      const place = external?.(name);
      graph.message(5, place ? encodeExternalTensor(tensor, name, place) : encodeTensor(loaded(name, tensor), name));
    }
    for (const value of this.inputs) {
      graph.message(11, encodeValueInfo(value));
    }
    for (const value of this.outputs) {
      graph.message(12, encodeValueInfo(value));
    }
    const opset = new ProtoWriter().string(1, '').varint(2, this.options.opset ?? 17);
    const model = new ProtoWriter()
      .varint(1, this.options.irVersion ?? 8)
      .string(2, this.options.producerName ?? 'inferkit')
      .string(3, '0.1.0')
      .message(7, graph)
      .message(8, opset);
    return model.toBytes();
  }

  private cachedConstant(key: string, make: (name: string) => string): string {
    const hit = this.constants.get(key);
    if (hit !== undefined) {
      return hit;
    }
    const name = make(this.fresh('const'));
    this.constants.set(key, name);
    return name;
  }

  private fresh(prefix: string): string {
    let name: string;
    do {
      name = `${prefix}_${this.counter++}`;
    } while (this.names.has(name) || this.names.has(`${name}_out0`));
    return name;
  }

  private claim(name: string): void {
    if (this.names.has(name)) {
      throw new InferkitError('internal', `ONNX value name "${name}" is already used`);
    }
    this.names.add(name);
  }
}

/** Where an external tensor's bytes are: file relative to the graph, byte offset and length. */
interface ExternalPlace {
  location: string;
  offset: number;
  length: number;
}

// TensorProto: dims=1, data_type=2, name=8, raw_data=9, external_data=13 (key=1, value=2), data_location=14 (1 = EXTERNAL).
function encodeTensor(tensor: OnnxTensor, name: string): ProtoWriter {
  const w = new ProtoWriter().packedVarints(1, tensor.dims).varint(2, ELEMENT_TYPE_CODE[tensor.type]);
  if (name) {
    w.string(8, name);
  }
  return w.bytes(9, littleEndianBytes(tensor.data));
}

function encodeExternalTensor(tensor: StoredTensor, name: string, at: ExternalPlace): ProtoWriter {
  const w = new ProtoWriter().packedVarints(1, tensor.dims).varint(2, ELEMENT_TYPE_CODE[tensor.type]).string(8, name);
  for (const [key, value] of [['location', at.location], ['offset', String(at.offset)], ['length', String(at.length)]]) {
    w.message(13, new ProtoWriter().string(1, key).string(2, value));
  }
  return w.varint(14, 1);
}

function byteLengthOf(t: StoredTensor): number {
  return isLazy(t) ? t.dims.reduce((a, b) => a * b, 1) * 4 : t.data.byteLength;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.byteLength) {
    at += writeSync(fd, bytes, at, bytes.byteLength - at);
  }
}

function encodeNode(node: NodeSpec): ProtoWriter {
  const w = new ProtoWriter();
  for (const input of node.inputs) {
    w.string(1, input);
  }
  for (const output of node.outputs) {
    w.string(2, output);
  }
  w.string(3, node.name).string(4, node.opType);
  for (const [name, value] of Object.entries(node.attributes)) {
    w.message(5, encodeAttribute(name, value));
  }
  return w;
}

// AttributeProto: name=1, f=2, i=3, s=4, t=5, floats=7, ints=8, type=20.
function encodeAttribute(name: string, a: OnnxAttribute): ProtoWriter {
  const w = new ProtoWriter().string(1, name);
  switch (a.kind) {
    case 'float':
      return w.float(2, a.value).varint(20, 1);
    case 'int':
      return w.varint(3, a.value).varint(20, 2);
    case 'string':
      return w.string(4, a.value).varint(20, 3);
    case 'tensor':
      return w.message(5, encodeTensor(a.value, '')).varint(20, 4);
    case 'floats':
      return w.packedFloats(7, a.value).varint(20, 6);
    case 'ints':
      return w.packedVarints(8, a.value).varint(20, 7);
  }
}

// ValueInfoProto{name=1, type=2} → TypeProto{tensor_type=1} → Tensor{elem_type=1, shape=2} → Shape{dim=1}.
function encodeValueInfo(value: ValueSpec): ProtoWriter {
  const shape = new ProtoWriter();
  for (const dim of value.dims) {
    const d = new ProtoWriter();
    if (typeof dim === 'number') {
      d.varint(1, dim);
    } else {
      d.string(2, dim);
    }
    shape.message(1, d);
  }
  const tensorType = new ProtoWriter().varint(1, ELEMENT_TYPE_CODE[value.type]).message(2, shape);
  const type = new ProtoWriter().message(1, tensorType);
  return new ProtoWriter().string(1, value.name).message(2, type);
}
