import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OnnxGraphBuilder } from '../onnx/graph-builder.js';
import { ProtoWriter } from '../onnx/proto-writer.js';
import { externalDataLocations, externalDataLocationsOfFile } from './onnx-external-data.js';
import { createSession, float32Tensor } from './ort.js';

/** y = x·W + b with W [4 × 300] (4.8 kB, external) and b [300] (1.2 kB, external). */
function affine(): OnnxGraphBuilder {
  const g = new OnnxGraphBuilder();
  const x = g.input('x', 'float32', ['batch', 4]);
  const w = g.float32('w', Float32Array.from({ length: 1200 }, (_, i) => Math.sin(i) / 2), [4, 300]);
  const b = g.float32('b', Float32Array.from({ length: 300 }, (_, i) => i / 100));
  g.op('Add', [g.op('MatMul', [x, w]), b], {}, 'y');
  g.output('y', 'float32', ['batch', 300]);
  return g;
}

describe('OnnxGraphBuilder.toExternalData + externalDataLocations', () => {
  it('writes weights beside the graph; onnxruntime opened by path gives the inline graph\'s answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-extdata-'));
    try {
      const g = affine();
      const inline = g.toBytes();
      const { model, data } = g.toExternalData('weights/affine.bin');
      expect(model.length).toBeLessThan(1000);
      expect(data.length).toBe(Math.ceil(4800 / 64) * 64 + 1200);
      expect(externalDataLocations(model)).toEqual(['weights/affine.bin']);
      expect(externalDataLocations(inline)).toEqual([]);
      await writeFile(join(dir, 'affine.onnx'), model);
      await expect(createSession(join(dir, 'affine.onnx'))).rejects.toMatchObject({ code: 'model_load_failed' }); // data not there yet
      await mkdir(join(dir, 'weights'));
      await writeFile(join(dir, 'weights', 'affine.bin'), data);
      const [ext, ref] = [await createSession(join(dir, 'affine.onnx')), await createSession(inline)];
      const feeds = { x: float32Tensor(Float32Array.from([1, -2, 0.5, 3, 0, 1, 1, -1]), [2, 4]) };
      const [a, b] = [(await ext.run(feeds)).y.data as Float32Array, (await ref.run(feeds)).y.data as Float32Array];
      expect(Array.from(a)).toEqual(Array.from(b));
      await ext.release();
      await ref.release();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds locations in tensor attributes and subgraphs, once each, and rejects malformed bytes', () => {
    const tensor = (location: string) =>
      new ProtoWriter().packedVarints(1, [2]).varint(2, 1).message(13, new ProtoWriter().string(1, 'location').string(2, location)).varint(14, 1);
    const inner = new ProtoWriter().message(5, tensor('b.data')).message(5, tensor('a.data'));
    const attribute = new ProtoWriter().string(1, 'then_branch').message(6, inner);
    const constant = new ProtoWriter().string(1, 'value').message(5, tensor('a.data'));
    const node = new ProtoWriter().string(4, 'If').message(5, attribute).message(5, constant);
    const model = new ProtoWriter().varint(1, 8).message(7, new ProtoWriter().message(1, node)).toBytes();
    expect(externalDataLocations(model)).toEqual(['b.data', 'a.data']);
    expect(() => externalDataLocations(model.subarray(0, model.length - 3))).toThrow(/not an ONNX model/);
    expect(() => externalDataLocations(Uint8Array.from([0x0f]))).toThrow(/wire type 7/);
  });

  it('scans a graph file in pages: the same locations past megabytes of inline weights, the same errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-ext-scan-'));
    try {
      const external = (location: string) => new ProtoWriter().packedVarints(1, [2]).varint(2, 1).message(13, new ProtoWriter().string(1, 'location').string(2, location)).varint(14, 1);
      // 3 MiB of raw_data (field 9) in an inline initializer, then tensors naming external files.
      const inline = new ProtoWriter().packedVarints(1, [786_432]).varint(2, 1).bytes(9, new Uint8Array(3 * 2 ** 20).fill(7));
      const graph = new ProtoWriter().message(5, inline).message(5, external('w.data')).message(5, external('v.data')).message(5, external('w.data'));
      const model = new ProtoWriter().varint(1, 8).message(7, graph).toBytes();
      const path = join(dir, 'model.onnx');
      await writeFile(path, model);
      expect(externalDataLocationsOfFile(path)).toEqual(['w.data', 'v.data']);
      expect(externalDataLocationsOfFile(path)).toEqual(externalDataLocations(model));
      await writeFile(path, model.subarray(0, model.length - 3));
      expect(() => externalDataLocationsOfFile(path)).toThrow(/not an ONNX model/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
