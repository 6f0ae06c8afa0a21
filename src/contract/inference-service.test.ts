import { describe, expect, it } from 'vitest';
import { fixtureObject, loadFixture, validationError } from '../../test/fixtures/contract/load.js';
import { InferenceServiceSchema, SecretSchema } from './inference-service.js';
import { parseContract } from './parse.js';

type Obj = Record<string, unknown>;
const model = (isvc: Obj): Obj => ((isvc.spec as Obj).predictor as Obj).model as Obj;
const paths = (value: unknown): string[] =>
  validationError(() => parseContract(InferenceServiceSchema, value)).issues.map((i) => i.path);

describe('InferenceServiceSchema: interface deployments', () => {
  it('parses the model form (V1: no protocolVersion) with cpu, memory and GPU resources', () => {
    const isvc = parseContract(InferenceServiceSchema, loadFixture('isvc-model-v1.yaml'));
    const m = isvc.spec.predictor.model;
    expect(m?.modelFormat.name).toBe('huggingface');
    expect(m?.protocolVersion).toBeUndefined();
    expect(m?.args).toContain('--disable_lower_case');
    expect(m?.resources?.limits).toEqual({ cpu: '1', memory: '2Gi', 'nvidia.com/gpu': '1' });
  });

  it('parses the V2 form', () => {
    expect(parseContract(InferenceServiceSchema, loadFixture('isvc-model-v2.yaml')).spec.predictor.model?.protocolVersion).toBe('v2');
  });

  it('parses the namespaced forecast form', () => {
    const isvc = parseContract(InferenceServiceSchema, loadFixture('isvc-forecast.yaml'));
    expect(isvc.metadata.namespace).toBe('forecasting');
    expect(isvc.spec.predictor.model?.args).toContain('--task=time_series_forecast');
  });

  it('parses the containers form', () => {
    const c = parseContract(InferenceServiceSchema, loadFixture('isvc-containers.yaml')).spec.predictor.containers?.[0];
    expect(c).toMatchObject({ name: 'kserve-container', image: 'kserve/huggingfaceserver:latest' });
    expect(c?.args).toContain('--http_port=8080');
  });

  it('parses a status with conditions and traffic and keeps fields it does not model', () => {
    const isvc = parseContract(InferenceServiceSchema, loadFixture('isvc-with-status.yaml'));
    expect(isvc.status?.url).toBe('http://huggingface-bert.default.example.com');
    expect(isvc.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(isvc.status?.components?.predictor.traffic).toHaveLength(2);
    expect(isvc.status).toMatchObject({ modelStatus: { states: { activeModelState: 'Loaded' } } });
  });

  it('parses the hub token Secret', () => {
    const s = parseContract(SecretSchema, loadFixture('secret-hub-token.yaml'));
    expect(s.stringData).toEqual({ HF_TOKEN: '<HUB_TOKEN>' });
  });
});

describe('InferenceServiceSchema: errors name the field', () => {
  it.each(['Bert', 'bert_ner', '1bert', 'bert-', ''])('rejects the name %j', (name) => {
    const isvc = fixtureObject('isvc-model-v1.yaml');
    (isvc.metadata as Obj).name = name;
    expect(paths(isvc)).toEqual(['metadata.name']);
  });

  it('rejects bad quantities and fractional GPUs with their resource path', () => {
    const isvc = fixtureObject('isvc-model-v1.yaml');
    const limits = (model(isvc).resources as Obj).limits as Obj;
    limits.memory = '2 GB';
    limits['nvidia.com/gpu'] = '0.5';
    const err = validationError(() => parseContract(InferenceServiceSchema, isvc));
    expect(err.message).toMatchInlineSnapshot(
      `"spec.predictor.model.resources.limits.memory: expected a Kubernetes quantity such as "1", "500m" or "4Gi"; spec.predictor.model.resources.limits["nvidia.com/gpu"]: expected a whole number of GPUs such as "1""`,
    );
  });

  it('rejects an unknown protocolVersion', () => {
    const isvc = fixtureObject('isvc-model-v2.yaml');
    model(isvc).protocolVersion = 'v3';
    expect(paths(isvc)).toEqual(['spec.predictor.model.protocolVersion']);
  });

  it('requires exactly one predictor form', () => {
    const none = fixtureObject('isvc-model-v1.yaml');
    (none.spec as Obj).predictor = {};
    expect(validationError(() => parseContract(InferenceServiceSchema, none)).message).toContain(
      'spec.predictor: expected spec.predictor.model or spec.predictor.containers',
    );
    const both = fixtureObject('isvc-containers.yaml');
    ((both.spec as Obj).predictor as Obj).model = model(fixtureObject('isvc-model-v1.yaml'));
    expect(paths(both)).toEqual(['spec.predictor']);
  });

  it('names a container without image and a non-string arg', () => {
    const isvc = fixtureObject('isvc-containers.yaml');
    const c = ((isvc.spec as Obj).predictor as Obj).containers as Obj[];
    delete c[0].image;
    (c[0].args as unknown[])[1] = 8080;
    expect(paths(isvc)).toEqual(['spec.predictor.containers[0].image', 'spec.predictor.containers[0].args[1]']);
  });

  it('checks apiVersion and kind', () => {
    const isvc = { ...fixtureObject('isvc-model-v1.yaml'), apiVersion: 'serving.kserve.io/v1alpha1', kind: 'Service' };
    expect(paths(isvc)).toEqual(['apiVersion', 'kind']);
  });

  it('keeps unknown spec fields (forward compatibility)', () => {
    const isvc = fixtureObject('isvc-model-v1.yaml');
    ((isvc.spec as Obj).predictor as Obj).serviceAccountName = 'sa';
    expect(parseContract(InferenceServiceSchema, isvc).spec.predictor).toMatchObject({ serviceAccountName: 'sa' });
  });
});
