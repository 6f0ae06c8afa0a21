import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { createLocalSession, float32Tensor, tensorOf } from '../ort.js';
import { externalizedGraph, shareableModel } from './external-graph.js';
import { mappedWeights } from './mapped-weights.js';

const WIDTH = 1024;
const LAYERS = 3; // 12 MiB inline: over the 8 MiB below which a graph keeps its weights inline

/** An MLP with its weights inline (as torch exports BERT-sized models), plus a bias of each kind of size. */
function inlineMlp(): Uint8Array {
  const g = new OnnxGraphBuilder();
  let h = g.input('x', 'float32', ['batch', WIDTH]);
  for (let l = 0; l < LAYERS; l++) {
    const w = g.initializer(`w${l}`, { type: 'float32', dims: [WIDTH, WIDTH], data: Float32Array.from({ length: WIDTH * WIDTH }, (_, i) => Math.sin(i * (l + 1)) / 32) });
    const b = g.initializer(`b${l}`, { type: 'float32', dims: [WIDTH], data: Float32Array.from({ length: WIDTH }, (_, i) => Math.cos(i) / 8) });
    h = g.op('Relu', [g.op('Add', [g.op('MatMul', [h, w]), b])]);
  }
  const small = g.initializer('small', { type: 'float32', dims: [4], data: Float32Array.of(1, 2, 3, 4) });
  g.output(g.op('Identity', [h], {}, 'y'), 'float32', ['batch', WIDTH]);
  g.output(g.op('Identity', [small], {}, 'small_out'), 'float32', [4]);
  return g.toBytes();
}

/** An int8 graph (MatMulInteger, 9 MiB of inline int8 weights), as `model_quantized.onnx` files hold them. */
function inlineInt8(): Uint8Array {
  const g = new OnnxGraphBuilder();
  const n = 3072;
  const w = g.int8('w', Int8Array.from({ length: n * n }, (_, i) => ((i * 7919) % 255) - 127), [n, n]);
  const x = g.input('x', 'uint8', [1, n]);
  g.output(g.op('MatMulInteger', [x, w], {}, 'y'), 'int32', [1, n]);
  return g.toBytes();
}

describe('externalizedGraph: a graph with inline weights, rewritten once so that its sessions can map one copy', () => {
  let dir: string;
  let source: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inferkit-external-graph-'));
    source = join(dir, 'model.onnx');
    writeFileSync(source, inlineMlp());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('moves the large initializers to model.onnx.data; the copy answers exactly what the original answers', async () => {
    const cache = join(dir, 'cache');
    const copy = await externalizedGraph(source, cache);
    expect(copy).toBeDefined();
    const path = copy as string;
    expect(dirname(path).startsWith(join(cache, 'graphs', 'external-'))).toBe(true);
    const weights = mappedWeights(path);
    // Weights and biases moved (page-aligned); the 16-byte tensor stays inline.
    expect(weights?.bytes).toBeGreaterThanOrEqual(LAYERS * (WIDTH * WIDTH + WIDTH) * 4);
    expect(statSync(path).size).toBeLessThan(64 * 1024);
    const x = () => ({ x: float32Tensor(Float32Array.from({ length: 2 * WIDTH }, (_, i) => Math.sin(i / 7)), [2, WIDTH]) });
    const a = await createLocalSession(source);
    const b = await createLocalSession(path);
    try {
      const [ya, yb] = [await a.run(x()), await b.run(x())];
      expect(Array.from(yb.y.data as Float32Array)).toEqual(Array.from(ya.y.data as Float32Array));
      expect(Array.from(yb.small_out.data as Float32Array)).toEqual([1, 2, 3, 4]);
    } finally {
      await a.release();
      await b.release();
    }
    // Made once: the next load finds it.
    expect(await externalizedGraph(source, cache)).toBe(path);
  });

  it('copies an int8 graph too (its sessions still prepack: mappedWeights says quantized); the copy answers the same', async () => {
    const int8 = join(dir, 'int8.onnx');
    writeFileSync(int8, inlineInt8());
    const copy = await externalizedGraph(int8, join(dir, 'cache-int8'));
    expect(copy).toBeDefined();
    expect(mappedWeights(copy as string)?.quantized).toBe(true);
    const x = () => ({ x: tensorOf('uint8', Uint8Array.from({ length: 3072 }, (_, i) => i % 251), [1, 3072]) });
    const a = await createLocalSession(int8);
    const b = await createLocalSession(copy as string);
    try {
      expect(Array.from((await b.run(x())).y.data as Int32Array)).toEqual(Array.from((await a.run(x())).y.data as Int32Array));
    } finally {
      await a.release();
      await b.release();
    }
  });

  it('leaves alone what it cannot or need not share', async () => {
    const cache = join(dir, 'cache-2');
    expect(await shareableModel(inlineMlp(), cache)).toBeInstanceOf(Uint8Array);
    expect(await shareableModel(join(dir, 'missing.onnx'), cache)).toBe(join(dir, 'missing.onnx'));
    expect(existsSync(join(cache, 'graphs'))).toBe(false);
    const copy = await shareableModel(source, cache);
    expect(copy).not.toBe(source);
    // Made once: the next session (one, or a pool's) opens the same copy.
    expect(await shareableModel(source, cache)).toBe(copy);
  });
});
