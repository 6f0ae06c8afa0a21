import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, type MockHub } from '../../test/fixtures/mock-hub.js';
import { pytorchBinCopy } from '../../test/fixtures/torch-save.js';
import { FORECAST_ONNX_GRAPHS, FORECAST_SIDE_FILES, TOKEN_CLASSIFICATION_GRAPHS, TOKEN_CLASSIFICATION_SIDE_FILES } from '../hub/file-spec.js';
import { modelGraphInfo, modelGraphLine, resolveModelGraph } from './resolve-model-graph.js';

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

describe('where a graph came from (modelGraphInfo, modelGraphLine: what inferkit serve prints per model)', () => {
  const SETS = resolve(process.cwd(), '../shared/conformance');
  const token = (dir: string, cacheDir: string) =>
    resolveModelGraph(dir, { task: 'token-classification', onnxGraphs: TOKEN_CLASSIFICATION_GRAPHS, files: TOKEN_CLASSIFICATION_SIDE_FILES, cacheDir });

  it('names the weights file a graph was built from, whether the graph cache had it, and the published graph otherwise', async () => {
    const cacheDir = join(root, 'graphs-a');
    const safetensors = join(root, 'distilbert');
    cpSync(join(SETS, 'kserve-hf-distilbert', 'model'), safetensors, { recursive: true });
    const built = modelGraphInfo(await token(safetensors, cacheDir));
    expect(built).toEqual({ from: 'checkpoint', file: 'model.safetensors', family: 'distilbert', variant: 'fp32', cached: false, buildMs: expect.any(Number) as number });
    expect(modelGraphLine(built)).toMatch(/^built as distilbert fp32 from model\.safetensors in \d+( ms|\.\d s)$/);
    const again = modelGraphInfo(await token(safetensors, cacheDir));
    expect(again).toMatchObject({ file: 'model.safetensors', cached: true, buildMs: 0 });
    expect(modelGraphLine(again)).toBe('built as distilbert fp32 from model.safetensors (reused from the graph cache)');

    const bin = pytorchBinCopy(join(SETS, 'kserve-hf-xlmr', 'model'), join(root, 'xlmr-bin'));
    expect(modelGraphInfo(await token(bin, cacheDir))).toMatchObject({ from: 'checkpoint', file: 'pytorch_model.bin', family: 'roberta', cached: false });

    const published = modelGraphInfo(await token(join(SETS, 'kserve-hf', 'model'), cacheDir));
    expect(published).toEqual({ from: 'onnx', file: 'onnx/model.onnx', buildMs: 0 });
    expect(modelGraphLine(published)).toBe('onnx/model.onnx (published ONNX graph)');
  }, 60_000);
});
