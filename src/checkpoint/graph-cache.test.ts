import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
