import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { CONFORMANCE_DIR } from '../conformance/exchanges.js';
import { http } from './server-http.js';

// KServe runtime args on the conformance BERT (real ONNX, real tokenizer): implemented ones change the
// answers as KServe's do; the others are reported at load instead of silently ignored.
const model = `--model_id=${CONFORMANCE_DIR}/model`;
function isvc(name: string, args: string[]): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args: [`--model_name=${name}`, model, '--task=token_classification', ...args] } } },
  };
}

let server: RunningServer;
const log: string[] = [];
const host = (name: string) => ({ host: `${name}.default.example.com` });

beforeAll(async () => {
  server = await serve(
    [
      isvc('offs', ['--return_offsets_mapping', '--disable_special_tokens', '--max_model_len=8', '--dtype=float16', '--workers=2', '--tensor_input_names=x']),
      isvc('plain', []),
      isvc('badlen', ['--max_model_len=eight']),
    ],
    { port: 0, loaders: defaultLoaders(), log: (l) => log.push(l) },
  );
  await server.loaded();
});
afterAll(() => server?.close());

describe('serve: KServe runtime args', () => {
  it('reports every runtime arg it does not implement, in the log and the Ready condition', () => {
    expect(log).toEqual([
      'warning: service offs: runtime arg --dtype is not implemented by inferkit and was ignored',
      'warning: service offs: runtime arg --tensor_input_names is not implemented by inferkit and was ignored',
      // A configuration error is not retried: one attempt, reported once.
      expect.stringMatching(/^warning: service default\/badlen: model badlen failed to load \(attempt 1 of \d+, giving up\): --max_model_len: expected a positive integer/),
    ]);
    const [offs, plain, badlen] = server.models();
    expect(offs).toMatchObject({ ready: true, warnings: [expect.stringContaining('--dtype'), expect.stringContaining('--tensor_input_names')] });
    expect(offs.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True', reason: 'IgnoredRuntimeArgs', message: expect.stringContaining('--dtype') }));
    expect(plain.warnings).toBeUndefined();
    expect(badlen).toMatchObject({ ready: false, reason: expect.stringContaining('--max_model_len: expected a positive integer, got "eight"') });
  });

  it('--return_offsets_mapping counts code points (an emoji is 1) and --disable_special_tokens adds no [CLS]/[SEP]', async () => {
    const text = 'I 😀 Berlin';
    const r = await http(server.url, '/v1/models/offs:predict', { body: { instances: [text, ''] }, headers: host('offs') });
    expect(r.status).toBe(200);
    const body = r.json() as { predictions: number[][][]; outputs: Array<{ name: string; datatype: string; shape: number[]; data: number[] }> };
    // "i", "[UNK]" (the emoji), "berlin": no special tokens; the empty text has none at all.
    expect(body.predictions.map((p) => p[0].length)).toEqual([3, 0]);
    expect(body.outputs).toEqual([{ name: 'offset_mapping', datatype: 'INT64', shape: [2, 3, 2], parameters: null, data: [0, 1, 2, 3, 4, 10, 0, 0, 0, 0, 0, 0] }]);
    const v2 = await http(server.url, '/v2/models/offs/infer', { body: { inputs: [{ name: 't', shape: [1], datatype: 'BYTES', data: [text] }] }, headers: host('offs') });
    expect((v2.json() as { outputs: Array<{ name: string; shape: number[] }> }).outputs.map((o) => [o.name, o.shape])).toEqual([
      ['output-0', [1, 1, 3]],
      ['offset_mapping', [1, 3, 2]],
    ]);
  });

  it('--max_model_len truncates each text to that many tokens', async () => {
    const long = 'Hamburg is a city in Germany, and Wolfgang lives there.';
    const r = await http(server.url, '/v1/models/offs:predict', { body: { instances: [long] }, headers: host('offs') });
    expect((r.json() as { predictions: number[][][] }).predictions[0][0]).toHaveLength(8);
    const plain = await http(server.url, '/v1/models/plain:predict', { body: { instances: [long] }, headers: host('plain') });
    expect((plain.json() as { predictions: number[][][] }).predictions[0][0].length).toBeGreaterThan(8);
  });
});
