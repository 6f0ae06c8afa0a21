import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { createLocalSession, float32Tensor } from '../ort.js';
import { createWorkerSessionPool } from '../worker/session-pool.js';
import { mappedWeights, sharedWeightsOptions } from './mapped-weights.js';
import { processMemory } from './process-memory.js';

const WIDTH = 2048;
const LAYERS = 16; // 16 × 2048² float32 = 256 MiB of MatMul weights, written as external data
const BATCH = 4;

/** A built MLP (x → (MatMul → Relu) × LAYERS) with its weights in `model.onnx.data`, as the checkpoint builders write them. */
function writeMlp(dir: string): string {
  const g = new OnnxGraphBuilder();
  let h = g.input('x', 'float32', ['batch', WIDTH]);
  for (let l = 0; l < LAYERS; l++) {
    const w = g.lazyFloat32(`w${l}`, [WIDTH, WIDTH], () => {
      const data = new Float32Array(WIDTH * WIDTH);
      let s = 1 + l;
      for (let i = 0; i < data.length; i++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        data[i] = (s / 2 ** 32 - 0.5) * (3.4 / Math.sqrt(WIDTH));
      }
      return data;
    });
    h = g.op('Relu', [g.op('MatMul', [h, w])]);
  }
  g.output(g.op('Identity', [h], {}, 'y'), 'float32', ['batch', WIDTH]);
  const path = join(dir, 'model.onnx');
  g.writeExternal(path);
  return path;
}

const input = () => float32Tensor(Float32Array.from({ length: BATCH * WIDTH }, (_, i) => Math.sin(i)), [BATCH, WIDTH]);

describe('shared weights: the sessions of a replica pool map one copy of a graph’s external weights', () => {
  let dir: string;
  let graph: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inferkit-shared-weights-'));
    graph = writeMlp(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('turns prepacking off only for several sessions of a graph with external data, unless asked', () => {
    expect(mappedWeights(graph)?.bytes).toBe(LAYERS * WIDTH * WIDTH * 4);
    expect(sharedWeightsOptions(graph, {}, 3).prepacking).toBe(false);
    expect(sharedWeightsOptions(graph, {}, 1).prepacking).toBeUndefined();
    expect(sharedWeightsOptions(graph, { prepacking: true }, 3).prepacking).toBe(true);
    const inline = new OnnxGraphBuilder();
    inline.output(inline.op('Identity', [inline.input('x', 'float32', [1])], {}, 'y'), 'float32', [1]);
    expect(sharedWeightsOptions(inline.toBytes(), {}, 3).prepacking).toBeUndefined();
    expect(mappedWeights(join(dir, 'missing.onnx'))).toBeUndefined();
    // An int8 graph keeps prepacking: without it its kernels lost a quarter of their throughput.
    const q = new OnnxGraphBuilder();
    const w = q.int8('w', new Int8Array(4096).fill(3), [64, 64]);
    const x = q.input('x', 'uint8', [1, 64]);
    q.output(q.op('MatMulInteger', [x, w], {}, 'y'), 'int32', [1, 64]);
    const quantized = join(dir, 'q', 'model.onnx');
    mkdirSync(join(dir, 'q'));
    q.writeExternal(quantized);
    expect(mappedWeights(quantized)?.quantized).toBe(true);
    expect(sharedWeightsOptions(quantized, {}, 3).prepacking).toBeUndefined();
    expect(mappedWeights(graph)?.quantized).toBe(false);
  });

  it('a pool of 4 replicas answers what one in-thread session answers, and grows the process by about one copy of the weights', async () => {
    const weights = LAYERS * WIDTH * WIDTH * 4;
    const one = await createLocalSession(graph, { intraOpThreads: 1 });
    const expected = (await one.run({ x: input() })).y.data as Float32Array;
    await one.release();
    const before = processMemory();
    const pool = await createWorkerSessionPool(graph, { worker: true }, [1, 1, 1, 1]);
    try {
      // Four runs at once: one on each replica, so each session reads all of its weights.
      const outs = await Promise.all([0, 1, 2, 3].map(() => pool.run({ x: input() })));
      expect(pool.runCounts.replicas).toBe(4);
      for (const out of outs) {
        const y = out.y.data as Float32Array;
        expect(y.length).toBe(expected.length);
        // Prepacked and unpacked MatMul sum in different orders: equal to float rounding, not bit for bit.
        let worst = 0;
        let scale = 0;
        for (let i = 0; i < y.length; i++) {
          worst = Math.max(worst, Math.abs(y[i] - expected[i]));
          scale = Math.max(scale, Math.abs(expected[i]));
        }
        expect(scale).toBeGreaterThan(0);
        expect(worst / scale).toBeLessThan(1e-5);
      }
      const after = processMemory();
      if (before.pssBytes !== undefined && after.pssBytes !== undefined) {
        // One private copy per session (prepacking on, as before) grows PSS by more than 4× the weights.
        const growth = (after.pssBytes - before.pssBytes) / weights;
        expect(growth).toBeLessThan(2.5); // measured 0.84 here (4.31 with prepacking: true); RSS grows ~4× either way
        expect(growth).toBeGreaterThan(0.5); // the weights were read: one copy is there
      }
    } finally {
      await pool.release();
    }
  });
});
