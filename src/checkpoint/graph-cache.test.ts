import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSafetensorsFile } from '../../test/fixtures/safetensors-file.js';
import { OnnxGraphBuilder } from '../onnx/graph-builder.js';
import { createSession, float32Tensor } from '../runtime/ort.js';
import { cachedGraph } from './graph-cache.js';
import { openCheckpoint } from './safetensors.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';

function checkpointDir(weights: Float32Array): string {
  const dir = tempDir('inferkit-gc-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ architectures: ['Test'] }));
  writeSafetensorsFile(join(dir, 'model.safetensors'), [{ name: 'w', dtype: 'F32', shape: [weights.length], bytes: new Uint8Array(weights.buffer) }]);
  return dir;
}

describe('cachedGraph', () => {
  it('writes lazily read weights as external data that onnxruntime runs, then reuses the graph', async () => {
    const weights = Float32Array.from({ length: 1000 }, (_, i) => i / 7);
    const ck = await openCheckpoint(checkpointDir(weights));
    const cacheDir = tempDir('inferkit-cache-');
    let builds = 0;
    const build = (): OnnxGraphBuilder => {
      builds++;
      const g = new OnnxGraphBuilder();
      const x = g.input('x', 'float32', [1000]);
      const w = g.lazyFloat32('w', [1000], () => ck.float32('w'));
      g.op('Mul', [x, w], {}, 'y');
      g.output('y', 'float32', [1000]);
      return g;
    };
    const first = await cachedGraph(ck, { family: 'test', builderVersion: 1, cacheDir }, build);
    expect(first.cached).toBe(false);
    expect(readdirSync(join(first.graphPath, '..')).sort()).toEqual(['complete.json', 'model.onnx', 'model.onnx.data']);
    const session = await createSession(first.graphPath);
    const out = await session.run({ x: float32Tensor(new Float32Array(1000).fill(2), [1000]) });
    expect(Array.from(out.y.data as Float32Array).slice(0, 3)).toEqual([0, Math.fround(2 / 7), Math.fround(4 / 7)]);
    await session.release();
    const again = await cachedGraph(ck, { family: 'test', builderVersion: 1, cacheDir }, build);
    expect(again).toMatchObject({ cached: true, graphPath: first.graphPath });
    const bumped = await cachedGraph(ck, { family: 'test', builderVersion: 2, cacheDir }, build);
    expect(bumped.cached).toBe(false);
    expect(bumped.graphPath).not.toBe(first.graphPath);
    expect(builds).toBe(2);
    ck.close();
  });

  it('a new build removes the older builds of its checkpoint and the builds whose checkpoint is gone, and keeps the rest', async () => {
    const cacheDir = tempDir('inferkit-cache-');
    const graphs = join(cacheDir, 'graphs');
    const build = (ck: Awaited<ReturnType<typeof openCheckpoint>>) => (): OnnxGraphBuilder => {
      const g = new OnnxGraphBuilder();
      const x = g.input('x', 'float32', [4]);
      g.op('Mul', [x, g.lazyFloat32('w', [4], () => ck.float32('w'))], {}, 'y');
      g.output('y', 'float32', [4]);
      return g;
    };
    const folder = (graphPath: string) => basename(dirname(graphPath));
    const dirA = checkpointDir(Float32Array.of(1, 2, 3, 4));
    const dirB = checkpointDir(Float32Array.of(5, 6, 7, 8));
    const dirGone = checkpointDir(Float32Array.of(9, 9, 9, 9));
    const [a, b, gone] = await Promise.all([dirA, dirB, dirGone].map((dir) => openCheckpoint(dir)));
    const a1 = await cachedGraph(a, { family: 'test', builderVersion: 1, cacheDir }, build(a));
    const aInt8 = await cachedGraph(a, { family: 'test', builderVersion: 1, variant: 'int8', cacheDir }, build(a));
    const aNewer = await cachedGraph(a, { family: 'test', builderVersion: 3, cacheDir }, build(a)); // another inferkit's builder
    const b1 = await cachedGraph(b, { family: 'test', builderVersion: 1, cacheDir }, build(b));
    const g1 = await cachedGraph(gone, { family: 'test', builderVersion: 1, cacheDir }, build(gone));
    [a, b, gone].forEach((ck) => ck.close());
    rmSync(dirGone, { recursive: true, force: true });
    // A copy a session made of a built graph is not a build: its own rule (stale-copies.ts) removes it.
    mkdirSync(join(graphs, 'external-0123456789abcdef'));
    writeFileSync(join(graphs, 'external-0123456789abcdef', 'complete.json'), JSON.stringify({ source: join(dirA, 'x.onnx') }));

    // The checkpoint's weights change: the next build of it replaces its older build.
    writeSafetensorsFile(join(dirA, 'model.safetensors'), [{ name: 'w', dtype: 'F32', shape: [4], bytes: new Uint8Array(Float32Array.of(4, 3, 2, 1).buffer) }]);
    const a2ck = await openCheckpoint(dirA);
    const a2 = await cachedGraph(a2ck, { family: 'test', builderVersion: 2, cacheDir }, build(a2ck));
    a2ck.close();
    const left = readdirSync(graphs);
    expect(left).not.toContain(folder(a1.graphPath)); // an older builder's graph of the same checkpoint
    expect(left).not.toContain(folder(g1.graphPath)); // its checkpoint folder is gone
    // Kept: the new build, another variant, a newer builder's build, another checkpoint's, and a session's copy.
    expect(left.sort()).toEqual([a2, aInt8, aNewer, b1].map((g) => folder(g.graphPath)).concat('external-0123456789abcdef').sort());
  });

  it('leaves nothing behind when the build fails', async () => {
    const ck = await openCheckpoint(checkpointDir(new Float32Array(4)));
    const cacheDir = tempDir('inferkit-cache-');
    await expect(cachedGraph(ck, { family: 'test', builderVersion: 1, cacheDir }, () => {
      const g = new OnnxGraphBuilder();
      g.lazyFloat32('w', [4096], () => ck.float32('w', [4096]));
      return g;
    })).rejects.toThrow(/tensor w has shape \[4\], the config implies \[4096\]/);
    expect(readdirSync(join(cacheDir, 'graphs'))).toEqual([]);
    ck.close();
  });
});
