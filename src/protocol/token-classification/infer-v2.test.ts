import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../contract/parse.js';
import { V2InferRequestSchema, type V2InferRequest } from '../../contract/v2.js';
import { writeNerFixtureRepo } from '../../onnx/model-repo.js';
import { loadTokenClassifier } from '../../runtime/token-classification/load-token-classifier.js';
import type { TokenClassifier } from '../../runtime/token-classification/token-classifier.js';
import { inferV2 } from './infer-v2.js';
import { tokenClassificationMetadata } from './model-metadata.js';
import { predictV1 } from './predict-v1.js';

let root: string;
let ner: TokenClassifier;
const texts = ['John is in Paris', 'hello', ''];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-proto-'));
  await writeNerFixtureRepo(join(root, 'ner'));
  ner = await loadTokenClassifier(join(root, 'ner'), { modelName: 'ner' });
});
afterAll(async () => {
  await ner.dispose();
  await rm(root, { recursive: true, force: true });
});

const request = (input: Record<string, unknown>, extra: Record<string, unknown> = {}): V2InferRequest =>
  parseContract(V2InferRequestSchema, { inputs: [{ name: 'text', ...input }], ...extra });

describe('predictV1', () => {
  it('gives the KServe V1 entries with known labels, same as the classifier method', async () => {
    const res = await predictV1(ner, { instances: texts });
    // [CLS] john is in paris [SEP]: john B-PER (3), paris B-LOC (7)
    expect(res).toEqual({ predictions: [[[0, 3, 0, 0, 7, 0]], [[0, 0, 0]], [[0, 0]]] });
    expect(await ner.predictV1({ instances: texts })).toEqual(res);
  });
});

describe('inferV2', () => {
  it('answers output-0 [N,1,T] with -1 padding, echoing the request id', async () => {
    const res = await inferV2(ner, request({ shape: [3], datatype: 'BYTES', data: texts }, { id: 'abc' }));
    expect(res).toEqual({
      model_name: 'ner',
      model_version: null,
      id: 'abc',
      parameters: null,
      outputs: [
        { name: 'output-0', shape: [3, 1, 6], datatype: 'INT64', parameters: null, data: [0, 3, 0, 0, 7, 0, 0, 0, 0, -1, -1, -1, 0, 0, -1, -1, -1, -1] },
      ],
    });
  });

  it('rejects requests that are not N texts, naming the field', async () => {
    const cases: Array<[V2InferRequest, string]> = [
      [request({ shape: [2], datatype: 'INT64', data: [1, 2] }), 'inputs[0].datatype'],
      [request({ shape: [1, 2], datatype: 'BYTES', data: ['a', 'b'] }), 'inputs[0].shape'],
      [request({ shape: [1], datatype: 'BYTES', data: ['a'] }, { outputs: [{ name: 'logits' }] }), 'outputs[0].name'],
      [
        parseContract(V2InferRequestSchema, {
          inputs: [
            { name: 'a', shape: [1], datatype: 'BYTES', data: ['x'] },
            { name: 'b', shape: [1], datatype: 'BYTES', data: ['y'] },
          ],
        }),
        'inputs',
      ],
    ];
    for (const [req, param] of cases) {
      await expect(inferV2(ner, req)).rejects.toMatchObject({ name: 'ValidationError', code: 'invalid_request', param });
      await expect(ner.inferV2(req)).rejects.toMatchObject({ param });
    }
  });

  it('relies on the schema for shape vs data length', () => {
    expect(() => request({ shape: [3], datatype: 'BYTES', data: ['a'] })).toThrow(/inputs\[0\]\.data: has 1 elements but shape \[3\] needs 3/);
  });
});

describe('tokenClassificationMetadata', () => {
  it('lists the protocol tensors and the labels', async () => {
    const meta = tokenClassificationMetadata(ner);
    expect(meta).toEqual(await ner.metadata());
    expect(meta.inputs).toEqual([{ name: 'text', datatype: 'BYTES', shape: [-1] }]);
    expect(meta.outputs).toEqual([{ name: 'output-0', datatype: 'INT64', shape: [-1, 1, -1] }]);
    expect(meta.parameters).toMatchObject({ labels: ['O', 'B-MISC', 'I-MISC', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC'] });
  });
});
