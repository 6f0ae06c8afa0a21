import { describe, expect, it } from 'vitest';
import { ProtoWriter, littleEndianBytes } from './proto-writer.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('ProtoWriter', () => {
  it('encodes varints as the protobuf spec examples do', () => {
    expect(hex(new ProtoWriter().varint(1, 150).toBytes())).toBe('089601');
    expect(hex(new ProtoWriter().varint(1, 300).toBytes())).toBe('08ac02');
    expect(hex(new ProtoWriter().varint(2, 0).toBytes())).toBe('1000');
    expect(hex(new ProtoWriter().varint(1, 2 ** 40).toBytes())).toBe('08808080808020');
  });

  it('encodes negative int64 as 10-byte two complement and accepts bigint', () => {
    expect(hex(new ProtoWriter().varint(1, -1).toBytes())).toBe('08ffffffffffffffffff01');
    expect(hex(new ProtoWriter().varint(1, -2n).toBytes())).toBe('08feffffffffffffffff01');
    expect(hex(new ProtoWriter().varint(1, 2n ** 63n).toBytes())).toBe('0880808080808080808001');
  });

  it('encodes strings, floats and high field numbers', () => {
    expect(hex(new ProtoWriter().string(2, 'testing').toBytes())).toBe('120774657374696e67');
    expect(hex(new ProtoWriter().float(2, 1.5).toBytes())).toBe('150000c03f');
    expect(hex(new ProtoWriter().varint(20, 7).toBytes())).toBe('a00107');
  });

  it('nests messages with their length prefix, as in the spec (field 3 holding 150)', () => {
    const inner = new ProtoWriter().varint(1, 150);
    const outer = new ProtoWriter().message(3, inner);
    expect(hex(outer.toBytes())).toBe('1a03089601');
    expect(outer.byteLength).toBe(5);
  });

  it('writes packed varints and packed little-endian floats', () => {
    expect(hex(new ProtoWriter().packedVarints(4, [3, 270, 86942]).toBytes())).toBe('2206038e029ea705');
    expect(hex(new ProtoWriter().packedFloats(7, [1, -2]).toBytes())).toBe('3a080000803f000000c0');
  });

  it('keeps large byte chunks in order with small fields around them', () => {
    const big = new Uint8Array(5000).map((_, i) => i % 251);
    const bytes = new ProtoWriter().varint(1, 1).bytes(9, big).string(8, 'w').toBytes();
    expect(hex(bytes.subarray(0, 5))).toBe('08014a8827'); // 5000 = 0x88 0x27
    expect(bytes.subarray(5, 5005)).toEqual(big);
    expect(hex(bytes.subarray(5005))).toBe('420177');
  });

  it('views typed arrays as little-endian bytes', () => {
    expect(hex(littleEndianBytes(BigInt64Array.of(1n, -1n)))).toBe('0100000000000000ffffffffffffffff');
  });

  it('rejects unsafe numbers and bad field numbers', () => {
    expect(() => new ProtoWriter().varint(1, 2 ** 60)).toThrow(/safe integer/);
    expect(() => new ProtoWriter().varint(0, 1)).toThrow(/field number/);
  });
});
