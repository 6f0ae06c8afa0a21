import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { createLocalSession, float32Tensor } from '../ort.js';
import { createWorkerSessionPool } from '../worker/session-pool.js';
import { mappedWeights, sharedWeightsOptions } from './mapped-weights.js';
import { packedCopyPlace } from './packed-graph.js';
import { settledMemory } from '../../../test/settled-memory.js';

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
  const cacheBefore = process.env.INFERKIT_CACHE;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inferkit-shared-weights-'));
    graph = writeMlp(dir);
    process.env.INFERKIT_CACHE = join(dir, 'cache'); // the pool's packed copy goes here, not into the user's cache
  });
  afterAll(() => {
    if (cacheBefore === undefined) {
      delete process.env.INFERKIT_CACHE;
    } else {
      process.env.INFERKIT_CACHE = cacheBefore;
    }
    rmSync(dir, { recursive: true, force: true });
  });

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

  it('a pool of 4 replicas answers what one prepacked session answers, from one packed copy of the weights that every session maps', async () => {
    const weights = LAYERS * WIDTH * WIDTH * 4;
    const one = await createLocalSession(graph, { intraOpThreads: 1 });
    const expected = (await one.run({ x: input() })).y.data as Float32Array;
    await one.release();
    const before = await settledMemory();
    const pool = await createWorkerSessionPool(graph, { worker: true }, [1, 1, 1, 1]);
    try {
      // The copy is made once into the model cache, keyed by the graph, the runtime and this CPU.
      const place = packedCopyPlace(graph, 'all', join(dir, 'cache'));
      expect(pool.weights).toEqual({ kind: 'packed', graph: place.graphPath });
      expect(existsSync(join(place.dir, 'complete.json'))).toBe(true);
      expect(readdirSync(join(dir, 'cache', 'graphs'))).toEqual([`packed-${place.key}`]);
      // Four runs at once: one on each replica, so each session reads all of its weights.
      const outs = await Promise.all([0, 1, 2, 3].map(() => pool.run({ x: input() })));
      expect(pool.runCounts.replicas).toBe(4);
      for (const out of outs) {
        // The same packed weights and kernels as the prepacked session: the same bits.
        expect(Array.from(out.y.data as Float32Array)).toEqual(Array.from(expected));
      }
      const after = await settledMemory();
      if (before.pssBytes !== undefined && after.pssBytes !== undefined) {
        // A session that packed its own copy (as when ORT finds no packed weights in the file) would add one copy
        // each: 4.31× the weights with `prepacking: true`. This counts the four workers and the copy's making too.
        const growth = (after.pssBytes - before.pssBytes) / weights;
        expect(growth).toBeLessThan(3.3); // measured 1.3–2.8 here (a mapped, unpacked pool: 1.65 in a script); RSS grows ~4× either way
        expect(growth).toBeGreaterThan(0.5); // the weights were read: one copy is there
      }
    } finally {
      await pool.release();
    }
    // A second pool finds the copy made: no new folder.
    const again = await createWorkerSessionPool(graph, { worker: true }, [1, 1]);
    try {
      expect(again.weights?.kind).toBe('packed');
      expect(readdirSync(join(dir, 'cache', 'graphs'))).toHaveLength(1);
    } finally {
      await again.release();
    }
  });

  it('maps the unpacked weights when asked (prepacking: false), and when the packed copy cannot be made, saying why', async () => {
    const unpacked = await createWorkerSessionPool(graph, { worker: true, prepacking: false }, [1, 1]);
    try {
      expect(unpacked.weights).toEqual({ kind: 'mapped' });
    } finally {
      await unpacked.release();
    }
    const cache = process.env.INFERKIT_CACHE;
    process.env.INFERKIT_CACHE = join(graph, 'not-a-folder'); // under a file: nothing can be written there
    try {
      const pool = await createWorkerSessionPool(graph, { worker: true }, [1, 1]);
      try {
        expect(pool.weights?.kind).toBe('mapped');
        expect(pool.weights?.kind === 'mapped' ? pool.weights.reason : '').toMatch(/not-a-folder/);
        const y = (await pool.run({ x: input() })).y.data as Float32Array;
        expect(y.length).toBe(BATCH * WIDTH);
      } finally {
        await pool.release();
      }
    } finally {
      process.env.INFERKIT_CACHE = cache;
    }
    // A packed copy that was made but no longer opens (a damaged cache): the pool opens the graph itself.
    const place = packedCopyPlace(graph, 'all', join(dir, 'cache'));
    await createWorkerSessionPool(graph, { worker: true }, [1, 1]).then((p) => p.release()); // the copy is there
    writeFileSync(place.graphPath, 'not a graph');
    const damaged = await createWorkerSessionPool(graph, { worker: true }, [1, 1]);
    try {
      expect(damaged.weights).toMatchObject({ kind: 'mapped', reason: expect.stringContaining(`its packed copy ${place.graphPath} did not open`) });
      expect(((await damaged.run({ x: input() })).y.data as Float32Array).length).toBe(BATCH * WIDTH);
    } finally {
      await damaged.release();
    }
    // The damaged copy was removed: the next pool makes it again and maps it.
    const again = await createWorkerSessionPool(graph, { worker: true }, [1, 1]);
    try {
      expect(again.weights).toEqual({ kind: 'packed', graph: place.graphPath });
    } finally {
      await again.release();
    }
  });
});
