import { InferkitError } from '../errors.js';

/** Protobuf wire types used by this writer (varint, 64-bit, length-delimited, 32-bit). */
export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

const TWO_POW_64 = 1n << 64n;
const utf8 = new TextEncoder();

/**
 * A minimal protobuf wire-format encoder for one message. Large byte fields (tensor
 * `raw_data`) and nested messages are kept by reference, not copied, so a model of
 * hundreds of MB is copied exactly once, by `toBytes()`.
 */
export class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private pending = new Uint8Array(256);
  private pendingLength = 0;
  private partsLength = 0;

  /** Encoded size in bytes so far. */
  get byteLength(): number {
    return this.partsLength + this.pendingLength;
  }

  /** Writes a varint field (int32/int64/uint64/enum/bool). Negative values take 10 bytes (two's complement). */
  varint(field: number, value: number | bigint): this {
    this.tag(field, WireType.varint);
    this.rawVarint(value);
    return this;
  }

  /** Writes a fixed32 float field. */
  float(field: number, value: number): this {
    this.tag(field, WireType.fixed32);
    this.ensure(4);
    new DataView(this.pending.buffer).setFloat32(this.pendingLength, value, true);
    this.pendingLength += 4;
    return this;
  }

  /** Writes a UTF-8 string field. */
  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** Writes a length-delimited bytes field. Chunks of 1 KiB or more are referenced, not copied. */
  bytes(field: number, data: Uint8Array): this {
    this.tag(field, WireType.lengthDelimited);
    this.rawVarint(data.byteLength);
    this.append(data);
    return this;
  }

  /** Writes a nested message field; the child must be complete (it is referenced, not copied). */
  message(field: number, child: ProtoWriter): this {
    this.tag(field, WireType.lengthDelimited);
    this.rawVarint(child.byteLength);
    for (const part of child.flushedParts()) {
      this.append(part);
    }
    return this;
  }

  /** Writes a packed repeated fixed32 float field. */
  packedFloats(field: number, values: ArrayLike<number>): this {
    const f32 = values instanceof Float32Array ? values : Float32Array.from(values);
    return this.bytes(field, littleEndianBytes(f32));
  }

  /** Writes a packed repeated varint field (int64 values, negatives as 10-byte two's complement). */
  packedVarints(field: number, values: ArrayLike<number | bigint>): this {
    const inner = new ProtoWriter();
    for (let i = 0; i < values.length; i++) {
      inner.rawVarint(values[i]);
    }
    return this.message(field, inner);
  }

  /** Concatenates everything written into one new buffer. */
  toBytes(): Uint8Array {
    const out = new Uint8Array(this.byteLength);
    let at = 0;
    for (const part of this.flushedParts()) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  }

  private flushedParts(): Uint8Array[] {
    this.flush();
    return this.parts;
  }

  private tag(field: number, wire: number): void {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fffffff) {
      throw new InferkitError('internal', `invalid protobuf field number ${field}`);
    }
    this.rawVarint(field * 8 + wire);
  }

  private rawVarint(value: number | bigint): void {
    this.ensure(10);
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
      let v = value;
      while (v >= 0x80) {
        this.pending[this.pendingLength++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
      this.pending[this.pendingLength++] = v;
      return;
    }
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new InferkitError('internal', `varint value ${value} is not a safe integer; pass a bigint`);
    }
    let v = BigInt(value);
    if (v < 0n) {
      v += TWO_POW_64;
    }
    if (v < 0n || v >= TWO_POW_64) {
      throw new InferkitError('internal', `varint value ${String(value)} is out of 64-bit range`);
    }
    while (v >= 0x80n) {
      this.pending[this.pendingLength++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.pending[this.pendingLength++] = Number(v);
  }

  private append(data: Uint8Array): void {
    if (data.byteLength >= 1024) {
      this.flush();
      this.parts.push(data);
      this.partsLength += data.byteLength;
      return;
    }
    this.ensure(data.byteLength);
    this.pending.set(data, this.pendingLength);
    this.pendingLength += data.byteLength;
  }

  private ensure(extra: number): void {
    if (this.pendingLength + extra <= this.pending.byteLength) {
      return;
    }
    const grown = new Uint8Array(Math.max(this.pending.byteLength * 2, this.pendingLength + extra));
    grown.set(this.pending.subarray(0, this.pendingLength));
    this.pending = grown;
  }

  private flush(): void {
    if (this.pendingLength === 0) {
      return;
    }
    const chunk = this.pending.slice(0, this.pendingLength);
    this.parts.push(chunk);
    this.partsLength += chunk.byteLength;
    this.pendingLength = 0;
  }
}

const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The little-endian bytes of a typed array, as ONNX `raw_data` stores them (a view, no copy, on LE hosts). */
export function littleEndianBytes(values: Float32Array | BigInt64Array | Int32Array | Int8Array): Uint8Array {
  const view = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (littleEndianHost || values.BYTES_PER_ELEMENT === 1) {
    return view;
  }
  const out = new Uint8Array(view.byteLength);
  const width = values.BYTES_PER_ELEMENT;
  for (let i = 0; i < view.byteLength; i += width) {
    for (let j = 0; j < width; j++) {
      out[i + j] = view[i + width - 1 - j];
    }
  }
  return out;
}
