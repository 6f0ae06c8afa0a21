import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve } from '../../src/server/serve.js';
import { startMockHub, type MockHub } from '../fixtures/mock-hub.js';
import { FULL_NER_PREDICTIONS, SWAPPED_NER_PREDICTIONS, SWAPPED_NER_TEXT, writeSwappedNerRepo } from '../fixtures/swapped-ner-repo.js';
import { http, isvc } from './server-http.js';

let root: string;
let hub: MockHub;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-int8-'));
  const repo = join(root, 'repo');
  await writeSwappedNerRepo(repo);
  hub = await startMockHub({ repos: { 'org/ner': { dir: repo } } });
});
afterAll(async () => {
  await hub?.close();
  await rm(root, { recursive: true, force: true });
});

const ner = (name: string, annotations?: Record<string, string>): InferenceService => {
  const base = isvc(name, { modelName: 'ner', args: ['--model_id=org/ner', '--task=token_classification'] });
  return annotations ? { ...base, metadata: { ...base.metadata, annotations } } : base;
};

async function servedAnswer(manifest: InferenceService, cache: string, quantized = false) {
  const before = hub.requests.length;
  const server = await serve([manifest], { port: 0, loaders: defaultLoaders({ cacheDir: join(root, cache), hubUrl: hub.url }), inference: { threads: 1, quantized } });
  try {
    const [state] = await server.loaded();
    expect(state.ready, state.reason).toBe(true);
    const answer = await http(server.url, '/v1/models/ner:predict', { body: { instances: [SWAPPED_NER_TEXT] } });
    expect(answer.status, answer.text).toBe(200);
    const services = (await http(server.url, '/inferkit/v1/services')).json() as { services: Array<{ inference?: { onnxVariant?: string } }> };
    const downloads = hub.requests.slice(before).filter((r) => r.method === 'GET' && /\.onnx$/.test(r.path)).map((r) => r.path);
    return { predictions: (answer.json() as { predictions: unknown }).predictions, variant: services.services[0].inference?.onnxVariant, downloads };
  } finally {
    await server.close();
  }
}

describe('serve: int8 graph from the manifest', () => {
  it('annotation serving.inferkit.dev/onnx-variant: quantized serves onnx/model_quantized.onnx, fetching only that graph', async () => {
    const q = await servedAnswer(ner('ner-int8', { 'serving.inferkit.dev/onnx-variant': 'quantized' }), 'cache-a');
    expect(q.predictions).toEqual(SWAPPED_NER_PREDICTIONS);
    expect(q.variant).toBe('quantized');
    expect(q.downloads.length).toBeGreaterThan(0);
    expect(q.downloads.every((p) => p.endsWith('onnx/model_quantized.onnx'))).toBe(true);
  }, 60_000);

  it('without it the full graph is served; serve --quantized (inference.quantized) switches every service', async () => {
    const full = await servedAnswer(ner('ner-fp32'), 'cache-b');
    expect(full.predictions).toEqual(FULL_NER_PREDICTIONS);
    expect(full.variant).toBe('default');
    expect(full.downloads.length).toBeGreaterThan(0);
    expect(full.downloads.every((p) => p.endsWith('onnx/model.onnx'))).toBe(true);
    const forced = await servedAnswer(ner('ner-forced'), 'cache-c', true);
    expect(forced.predictions).toEqual(SWAPPED_NER_PREDICTIONS);
    expect(forced.downloads.length).toBeGreaterThan(0);
    expect(forced.downloads.every((p) => p.endsWith('onnx/model_quantized.onnx'))).toBe(true);
  }, 60_000);

  it('an unknown variant fails that model\'s load with a reason naming the annotation', async () => {
    const server = await serve([ner('ner-bad', { 'serving.inferkit.dev/onnx-variant': 'fp16' })], { port: 0, loaders: defaultLoaders({ cacheDir: join(root, 'cache-d'), hubUrl: hub.url }) });
    try {
      const [state] = await server.loaded();
      expect(state.ready).toBe(false);
      expect(state.reason).toContain('annotation serving.inferkit.dev/onnx-variant: expected "quantized"');
    } finally {
      await server.close();
    }
  }, 60_000);
});
