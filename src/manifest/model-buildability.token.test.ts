import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateManifest } from './validate-manifest.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';

const manifest = (id: string): string => `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: ner
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=ner
        - --model_id=${id}
        - --task=token_classification
`;

const folder = (config: unknown, onnx = false): string => {
  const dir = tempDir('inferkit-tcarch-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  if (onnx) {
    mkdirSync(join(dir, 'onnx'));
    writeFileSync(join(dir, 'onnx', 'model.onnx'), '');
  }
  return dir;
};

describe('inferkit validate: a token-classification folder inferkit must build', () => {
  it('names architectures and the buildable list when the folder has no ONNX graph', async () => {
    const r = await validateManifest(manifest(folder({ architectures: ['GPT2ForTokenClassification'], model_type: 'gpt2' })));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toMatch(/"GPT2ForTokenClassification".*"gpt2".*BertForTokenClassification, DistilBertForTokenClassification, RobertaForTokenClassification/);
  });

  it('accepts the buildable families, and any architecture beside a published ONNX graph', async () => {
    for (const arch of ['BertForTokenClassification', 'XLMRobertaForTokenClassification', 'ElectraForTokenClassification']) {
      expect((await validateManifest(manifest(folder({ architectures: [arch] })))).errors, arch).toEqual([]);
    }
    expect((await validateManifest(manifest(folder({ architectures: ['GPT2ForTokenClassification'] }, true)))).errors).toEqual([]);
  });
});
