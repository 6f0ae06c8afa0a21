import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/fixtures/contract/load.js';
import { inferenceService } from './inference-service.js';
import { toYaml } from './manifest-yaml.js';

describe('inferenceService', () => {
  it('writes the V1 model form with the hub runtime and runtime args', () => {
    const m = inferenceService({ name: 'bert-ner', modelId: 'dslim/bert-base-NER', modelName: 'bert', disableLowerCase: true });
    expect(m.secret).toBeUndefined();
    expect(toYaml(m)).toMatchInlineSnapshot(`
      "apiVersion: serving.kserve.io/v1beta1
      kind: InferenceService
      metadata:
        name: bert-ner
      spec:
        predictor:
          model:
            modelFormat:
              name: huggingface
            args:
              - --model_name=bert
              - --model_id=dslim/bert-base-NER
              - --disable_lower_case
      "
    `);
  });

  it('selects V2 with protocolVersion and defaults the model name to the service name', () => {
    const m = inferenceService({ name: 'ner', namespace: 'nlp', modelId: 'org/m', protocol: 'v2', task: 'token_classification' });
    expect(m.service.metadata).toEqual({ name: 'ner', namespace: 'nlp' });
    expect(m.service.spec.predictor.model?.protocolVersion).toBe('v2');
    expect(m.service.spec.predictor.model?.args).toEqual(['--model_name=ner', '--model_id=org/m', '--task=token_classification']);
  });

  it('leaves protocolVersion out for v1 (KServe default) and appends extra args last', () => {
    const m = inferenceService({ name: 'ner', modelId: 'org/m', protocol: 'v1', args: ['--max_length=128'] });
    expect(m.service.spec.predictor.model).not.toHaveProperty('protocolVersion');
    expect(m.service.spec.predictor.model?.args?.at(-1)).toBe('--max_length=128');
  });

  it('sets cpu, memory and GPUs in requests and limits as strings; explicit maps override', () => {
    const m = inferenceService({
      name: 'ner',
      modelId: 'org/m',
      resources: { cpu: 2, memory: '4Gi', gpu: 1, requests: { cpu: '500m' } },
    });
    expect(m.service.spec.predictor.model?.resources).toEqual({
      limits: { cpu: '2', memory: '4Gi', 'nvidia.com/gpu': '1' },
      requests: { cpu: '500m', memory: '4Gi', 'nvidia.com/gpu': '1' },
    });
  });

  it('accepts a storageUri instead of a model id and a custom model format', () => {
    const m = inferenceService({ name: 'ner', storageUri: 'hf://dslim/bert-base-NER', modelFormat: 'onnx' });
    expect(m.service.spec.predictor.model).toMatchObject({ storageUri: 'hf://dslim/bert-base-NER', modelFormat: { name: 'onnx' } });
  });

  it('puts a hub token only in a Secret and references it through env HF_TOKEN', () => {
    const m = inferenceService({ name: 'gated', namespace: 'nlp', modelId: 'org/gated', hubToken: 'hf_abc123' });
    expect(m.secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'gated-hub-token', namespace: 'nlp' },
      type: 'Opaque',
      stringData: { HF_TOKEN: 'hf_abc123' },
    });
    expect(m.service.spec.predictor.model?.env).toEqual([
      { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'gated-hub-token', key: 'HF_TOKEN' } } },
    ]);
    expect(JSON.stringify(m.service)).not.toContain('hf_abc123');
  });

  it('references an existing Secret by name without creating one', () => {
    const m = inferenceService({ name: 'gated', modelId: 'org/gated', secretName: 'hf-secret' });
    expect(m.secret).toBeUndefined();
    expect(m.service.spec.predictor.model?.env?.[0].valueFrom?.secretKeyRef?.name).toBe('hf-secret');
  });

  it('names the field of a bad option', () => {
    expect(validationError(() => inferenceService({ name: 'Bad_Name', modelId: 'x' })).issues[0].path).toBe('metadata.name');
    expect(validationError(() => inferenceService({ name: 'ok', namespace: 'NS', modelId: 'x' })).issues[0].path).toBe('metadata.namespace');
    expect(validationError(() => inferenceService({ name: 'ok', modelId: 'x', resources: { memory: 'lots' } })).issues.map((i) => i.path)).toEqual([
      'spec.predictor.model.resources.limits.memory',
      'spec.predictor.model.resources.requests.memory',
    ]);
    expect(validationError(() => inferenceService({ name: 'ok', modelId: 'x', resources: { gpu: 0.5 } })).message).toContain('["nvidia.com/gpu"]: expected a whole number of GPUs');
    expect(validationError(() => inferenceService({ name: 'ok' })).issues).toEqual([
      { path: 'modelId', message: 'expected a hub model id (modelId) or a storageUri' },
    ]);
    expect(validationError(() => inferenceService({ name: 'ok', modelId: 'x', hubToken: ' ' })).issues[0].path).toBe('hubToken');
  });
});
