import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChronosFixtureRepo } from '../../onnx/model-repo.js';
import { FORECAST_LOADERS, loadForecastModel } from './load-forecast-model.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-forecast-load-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A folder whose config.json is `config` (and nothing else). */
async function configOnly(name: string, config: unknown): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

describe('loadForecastModel', () => {
  it('loads a Chronos-Bolt folder (architectures ChronosBoltModelForForecasting) with the Chronos-Bolt loader', async () => {
    const dir = join(root, 'bolt');
    await writeChronosFixtureRepo(dir, { contextLength: 8, predictionLength: 2, patchSize: 4, quantiles: [0.1, 0.5, 0.9] });
    const model = await loadForecastModel(dir, { name: 'bolt' });
    try {
      expect(model).toMatchObject({ name: 'bolt', nativeHorizon: 2, quantiles: [0.1, 0.5, 0.9], patchSize: 4, graph: { from: 'onnx', buildMs: 0 } });
      // The rule graph (no trend): mean 3 + (q - 0.5)·10.
      expect(Array.from((await model.predict([Float32Array.from([2, 4])], 1)).values[0])).toEqual([-1, 3, 7]);
    } finally {
      await model.dispose();
    }
  });

  it('takes a config with chronos_config but no architectures (older exports) for Chronos-Bolt', async () => {
    const dir = join(root, 'legacy');
    await writeChronosFixtureRepo(dir, { contextLength: 8, predictionLength: 2, patchSize: 4, quantiles: [0.5] });
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    delete config.architectures;
    await writeFile(join(dir, 'config.json'), JSON.stringify(config));
    const model = await loadForecastModel(dir);
    await model.dispose();
    expect(model.name).toBe('legacy');
  });

  it('refuses an unknown architecture, naming architectures, model_type and the supported list', async () => {
    const dir = await configOnly('llama', { architectures: ['LlamaForCausalLM'], model_type: 'llama' });
    const err = await loadForecastModel(dir).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'InferkitError', code: 'model_load_failed', param: 'architectures' });
    const msg = (err as Error).message;
    for (const part of ['architectures ["LlamaForCausalLM"]', 'model_type "llama"', 'ChronosBoltModelForForecasting']) {
      expect(msg).toContain(part);
    }
  });

  it('has a loader for chronos-bolt in its family table', () => {
    expect(FORECAST_LOADERS['chronos-bolt']).toBeTypeOf('function');
  });
});
