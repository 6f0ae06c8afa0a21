import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { createLocalSession, float32Tensor } from '../ort.js';
import { packedCopyPlace } from '../shared-weights/packed-graph.js';
import { createWorkerSessionPool } from './session-pool.js';

const WIDTH = 512;
const LAYERS = 10; // 10 MiB inline: above the size from which a pool opens an external-data copy of a graph

/** A small MLP with its weights inline (as torch exports and the fixture repos write them). */
function writeInlineMlp(path: string): void {
  const g = new OnnxGraphBuilder();
  let h = g.input('x', 'float32', ['batch', WIDTH]);
  for (let l = 0; l < LAYERS; l++) {
    const w = g.lazyFloat32(`w${l}`, [WIDTH, WIDTH], () => Float32Array.from({ length: WIDTH * WIDTH }, (_, i) => Math.sin(i * 0.37 + l) / Math.sqrt(WIDTH)));
    h = g.op('Relu', [g.op('MatMul', [h, w])]);
  }
  g.output(g.op('Identity', [h], {}, 'y'), 'float32', ['batch', WIDTH]);
  writeFileSync(path, g.toBytes());
}

const input = () => float32Tensor(Float32Array.from({ length: 2 * WIDTH }, (_, i) => Math.cos(i)), [2, WIDTH]);

describe('the copies a pool opens are made off the event loop, in a child process or else in a worker thread', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inferkit-copy-fallback-'));
    vi.stubEnv('INFERKIT_CACHE', join(dir, 'cache'));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('where a child process cannot run the copy script, both copies are made in a worker thread and the pool maps the packed one', async () => {
    const graph = join(dir, 'model.onnx');
    writeInlineMlp(graph);
    const one = await createLocalSession(graph, { intraOpThreads: 1 });
    const expected = Array.from((await one.run({ x: input() })).y.data as Float32Array);
    await one.release();

    // A runtime whose child processes cannot run the script: every Node child started from here exits before it answers
    // (and says it was started). Worker threads do not read NODE_OPTIONS.
    const started = join(dir, 'children.log');
    const blocker = join(dir, 'no-child.cjs');
    writeFileSync(blocker, `require('node:fs').appendFileSync(${JSON.stringify(started)}, 'started\\n'); process.exit(0);\n`);
    const nodeOptions = process.env.NODE_OPTIONS;
    vi.stubEnv('NODE_OPTIONS', `${nodeOptions ?? ''} --require ${blocker}`.trim());
    let pool;
    try {
      pool = await createWorkerSessionPool(graph, { worker: true }, [1, 1]);
    } finally {
      vi.stubEnv('NODE_OPTIONS', nodeOptions);
    }
    try {
      // A child was tried for each copy (inline weights → external-data copy; then its packed copy), and each exited.
      expect(readFileSync(started, 'utf8').trim().split('\n')).toEqual(['started', 'started']);
      const folders = readdirSync(join(dir, 'cache', 'graphs')).sort();
      expect(folders).toHaveLength(2);
      expect(folders[0]).toMatch(/^external-/);
      const external = join(dir, 'cache', 'graphs', folders[0], 'model.onnx');
      const place = packedCopyPlace(external, 'all', join(dir, 'cache'));
      expect(folders[1]).toBe(`packed-${place.key}`);
      expect(pool.weights).toEqual({ kind: 'packed', graph: place.graphPath });
      // The copies made in the worker answer bit for bit what a session on the inline graph answers.
      const outs = await Promise.all([0, 1].map(() => pool.run({ x: input() })));
      for (const out of outs) {
        expect(Array.from(out.y.data as Float32Array)).toEqual(expected);
      }
    } finally {
      await pool.release();
    }
  });
});
