import { describe, expect, it } from 'vitest';
import type { InferenceService } from '../contract/inference-service.js';
import { errorMessageOf } from './error-message.js';
import { ingressHostOf, modelNameOf } from './service-target.js';

const base: InferenceService = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'bert' },
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args: ['--model_name=a', '--model_name=ner'] } } },
};

describe('ingressHostOf', () => {
  it('takes the host of status.url (port kept), else the serverless default', () => {
    expect(ingressHostOf({ ...base, status: { url: 'http://bert.team.example.com' } })).toBe('bert.team.example.com');
    expect(ingressHostOf({ ...base, status: { url: 'https://bert.team.example.com:8443/x' } })).toBe('bert.team.example.com:8443');
    expect(ingressHostOf(base)).toBe('bert.default.example.com');
    expect(ingressHostOf({ ...base, metadata: { name: 'bert', namespace: 'ml' } }, 'svc.local')).toBe('bert.ml.svc.local');
  });
});

describe('modelNameOf', () => {
  it('uses the last --model_name (model or container form), else metadata.name', () => {
    expect(modelNameOf(base)).toBe('ner');
    const container = { ...base, spec: { predictor: { containers: [{ name: 'c', image: 'i', args: ['--model_name=x'] }] } } };
    expect(modelNameOf(container)).toBe('x');
    expect(modelNameOf({ ...base, spec: { predictor: { model: { modelFormat: { name: 'huggingface' } } } } })).toBe('bert');
  });
});

describe('errorMessageOf', () => {
  it('reads V1/V2, forecast and FastAPI error bodies, else the text', () => {
    expect(errorMessageOf({ error: 'bad' }, '')).toBe('bad');
    expect(errorMessageOf({ status: 'error', error: { message: 'horizon' } }, '')).toBe('horizon');
    expect(errorMessageOf({ detail: [{ loc: ['body'], msg: 'x' }] }, '')).toBe('[{"loc":["body"],"msg":"x"}]');
    expect(errorMessageOf('Bad Gateway', ' Bad Gateway\n')).toBe('Bad Gateway');
    expect(errorMessageOf(undefined, 'x'.repeat(400))).toHaveLength(301);
  });
});
