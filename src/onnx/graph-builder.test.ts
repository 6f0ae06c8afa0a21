import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { OnnxGraphBuilder, attr } from './graph-builder.js';

const f32 = (data: number[], dims: number[]): ort.Tensor => new ort.Tensor('float32', Float32Array.from(data), dims);

describe('OnnxGraphBuilder', () => {
  it('builds an Add graph that onnxruntime loads and runs, with symbolic dims', async () => {
    const g = new OnnxGraphBuilder();
    const x = g.input('x', 'float32', ['batch', 3]);
    g.op('Add', [x, g.float32('bias', [1, 2, 3])], {}, 'y');
    g.output('y', 'float32', ['batch', 3]);
    const session = await ort.InferenceSession.create(g.toBytes());
    expect(session.inputNames).toEqual(['x']);
    expect(session.outputNames).toEqual(['y']);
    const meta = session.inputMetadata[0];
    expect(meta.isTensor && meta.shape).toEqual(['batch', 3]);
    const { y } = await session.run({ x: f32([1, 1, 1, 10, 20, 30], [2, 3]) });
    expect(y.dims).toEqual([2, 3]);
    expect(Array.from(y.data as Float32Array)).toEqual([2, 3, 4, 11, 22, 33]);
    await session.release();
  });

  it('writes int, ints, float, floats and tensor attributes and int64 initializers', async () => {
    const g = new OnnxGraphBuilder();
    const x = g.input('x', 'float32', ['rows', 'cols']);
    const t = g.op('Transpose', [x], { perm: attr.ints([1, 0]) });
    const clipped = g.op('Clip', [t, g.floatScalar(-1.5), g.floatScalar(2.5)]);
    const lr = g.op('LeakyRelu', [clipped], { alpha: attr.float(0.5) });
    const flat = g.op('Reshape', [lr, g.int64('shape', [-1])]);
    const c = g.op('Constant', [], { value: attr.tensor({ type: 'float32', dims: [1], data: Float32Array.of(100) }) });
    g.op('Add', [flat, c], {}, 'y');
    const sum = g.op('ReduceSum', [lr, g.int64Vector([0, 1])], { keepdims: attr.int(0) });
    g.op('Identity', [sum], {}, 'total');
    g.op('Cast', [g.op('Shape', [x])], { to: attr.int(1) }, 'shape_f');
    const floatsOut = g.op('Constant', [], { value_floats: attr.floats([0.25, -4]) });
    g.op('Identity', [floatsOut], {}, 'consts');
    g.output('y', 'float32', ['n']);
    g.output('total', 'float32', []);
    g.output('shape_f', 'float32', [2]);
    g.output('consts', 'float32', [2]);
    const session = await ort.InferenceSession.create(g.toBytes());
    const out = await session.run({ x: f32([-4, 1, 2, 3], [2, 2]) });
    // transpose [[-4,2],[1,3]] → clip [-1.5,2,1,2.5] → leaky [-0.75,2,1,2.5]
    expect(Array.from(out.y.data as Float32Array)).toEqual([99.25, 102, 101, 102.5]);
    expect(out.total.data[0]).toBe(4.75);
    expect(Array.from(out.shape_f.data as Float32Array)).toEqual([2, 2]);
    expect(Array.from(out.consts.data as Float32Array)).toEqual([0.25, -4]);
    await session.release();
  });

  it('rejects duplicate value names and initializers whose dims do not match the data', () => {
    const g = new OnnxGraphBuilder();
    g.input('x', 'float32', [1]);
    expect(() => g.float32('x', [1])).toThrow(/already used/);
    expect(() => g.float32('w', [1, 2, 3], [2, 2])).toThrow(/hold 4 values/);
  });
});
