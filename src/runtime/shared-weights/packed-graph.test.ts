import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { createLocalSession, float32Tensor } from '../ort.js';
import { makePackedCopy, packedCopyPlace } from './packed-graph.js';

const WIDTH = 256;

/** A two-layer MLP with its weights in `model.onnx.data` beside `dir/model.onnx` (as the builders write graphs). */
function writeMlp(dir: string, seed: number): string {
  mkdirSync(dir, { recursive: true });
  const g = new OnnxGraphBuilder();
  let h = g.input('x', 'float32', ['batch', WIDTH]);
  for (let l = 0; l < 2; l++) {
    const w = g.lazyFloat32(`w${l}`, [WIDTH, WIDTH], () => Float32Array.from({ length: WIDTH * WIDTH }, (_, i) => Math.sin(i * (l + seed)) / 16));
    h = g.op('Relu', [g.op('MatMul', [h, w])]);
  }
  g.output(g.op('Identity', [h], {}, 'y'), 'float32', ['batch', WIDTH]);
  const path = join(dir, 'model.onnx');
  g.writeExternal(path);
  return path;
}

async function answer(graph: string): Promise<number[]> {
  const s = await createLocalSession(graph, { intraOpThreads: 1 });
  try {
    const x = float32Tensor(Float32Array.from({ length: 3 * WIDTH }, (_, i) => Math.cos(i)), [3, WIDTH]);
    return Array.from((await s.run({ x })).y.data as Float32Array);
  } finally {
    await s.release();
  }
}

describe('the packed copy of a graph (what the sessions of a replica pool open)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inferkit-packed-graph-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once into the model cache and answers bit for bit what the graph answers', async () => {
    const cache = join(dir, 'cache-a');
    const graph = writeMlp(join(dir, 'a'), 1);
    const copy = await makePackedCopy(graph, 'all', cache);
    const place = packedCopyPlace(graph, 'all', cache);
    expect(copy).toBe(place.graphPath);
    expect(JSON.parse(readFileSync(join(place.dir, 'complete.json'), 'utf8'))).toMatchObject({ source: resolve(graph), level: 'all' });
    // The packed weights are written beside the graph's own ones.
    expect(readFileSync(join(place.dir, 'model.onnx.data')).byteLength).toBeGreaterThan(2 * WIDTH * WIDTH * 4);
    expect(await answer(copy)).toEqual(await answer(graph));
    expect(await makePackedCopy(graph, 'all', cache)).toBe(copy);
    expect(readdirSync(join(cache, 'graphs'))).toEqual([`packed-${place.key}`]);
    // Another optimization level is another copy.
    expect(packedCopyPlace(graph, 'basic', cache).key).not.toBe(place.key);
  });

  it('a new copy for a changed graph removes the copy of its old bytes and copies whose graph is gone, not another runtime\'s', async () => {
    const cache = join(dir, 'cache-b');
    const graph = writeMlp(join(dir, 'b'), 2);
    const gone = writeMlp(join(dir, 'gone'), 3);
    const first = dirname(await makePackedCopy(graph, 'all', cache));
    const orphan = dirname(await makePackedCopy(gone, 'all', cache));
    // A copy of the same graph by another ONNX Runtime or CPU sharing the cache: another process may be mapping it.
    const foreign = join(cache, 'graphs', 'packed-0123456789abcdef');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'complete.json'), JSON.stringify({ source: resolve(graph), level: 'all', runtime: 'another-runtime' }));
    rmSync(dirname(gone), { recursive: true });
    writeMlp(join(dir, 'b'), 4); // new weights, same path
    utimesSync(graph, new Date(), new Date(Date.now() + 10_000));
    const second = dirname(await makePackedCopy(graph, 'all', cache));
    expect(second).not.toBe(first);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(orphan)).toBe(false);
    expect(readdirSync(join(cache, 'graphs')).sort()).toEqual(['packed-0123456789abcdef', second.split('/').pop()].sort());
  });

  it('refuses a graph whose weights are inline, saying what to open instead', async () => {
    const g = new OnnxGraphBuilder();
    g.output(g.op('Identity', [g.input('x', 'float32', [1])], {}, 'y'), 'float32', [1]);
    mkdirSync(join(dir, 'inline'));
    const inline = join(dir, 'inline', 'model.onnx');
    writeFileSync(inline, g.toBytes());
    await expect(makePackedCopy(inline, 'all', join(dir, 'cache-c'))).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringContaining('has no external weights to pack') });
  });
});
