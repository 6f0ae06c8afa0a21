import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, type MockHub } from '../../test/fixtures/mock-hub.js';
import { FORECAST_ONNX_GRAPHS, FORECAST_SIDE_FILES } from '../hub/file-spec.js';
import { resolveModelGraph } from './resolve-model-graph.js';

/** A hub repo of an architecture inferkit does not build, with 4 MB of safetensors and no ONNX graph. */
let hub: MockHub;
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'inferkit-rmg-'));
  const dir = join(root, 'repo');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ architectures: ['MoiraiForecasting'], model_type: 'moirai' }));
  writeFileSync(join(dir, 'model.safetensors'), Buffer.alloc(4 << 20));
  hub = await startMockHub({ repos: { 'org/moirai': { dir } } });
});
afterAll(async () => {
  await hub?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('resolveModelGraph', () => {
  it('names an unbuildable architecture from config.json before fetching any weights', async () => {
    const attempt = resolveModelGraph('org/moirai', { hubUrl: hub.url, cacheDir: join(root, 'cache'), task: 'forecast', onnxGraphs: FORECAST_ONNX_GRAPHS, files: FORECAST_SIDE_FILES });
    await expect(attempt).rejects.toThrow(/architectures \["MoiraiForecasting"\], model_type "moirai"; inferkit builds forecast graphs for .*ChronosBoltModelForForecasting/);
    const fetched = hub.requests.filter((r) => r.method === 'GET' && /\/(resolve|raw)\//.test(r.path)).map((r) => r.path.split('/').pop());
    expect(fetched).toEqual(['config.json']);
  });
});
