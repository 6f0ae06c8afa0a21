import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.js';
import { toKubeError } from './kube-error.js';

describe('toKubeError', () => {
  it('names every field of a 422 Status and keeps the first as param', () => {
    const body = JSON.stringify({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: 'InferenceService.serving.kserve.io "x" is invalid',
      details: { causes: [{ reason: 'FieldValueRequired', field: 'spec.predictor', message: 'Required value' }, { reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value: "X"' }] },
    });
    const e = toKubeError({ code: 422, body }, 'apply inferenceservice.serving.kserve.io/x', 'https://k8s:6443');
    expect(e).toBeInstanceOf(HttpError);
    expect(e.code).toBe('invalid_request');
    expect(e.param).toBe('spec.predictor');
    expect(e.message).toBe(
      'apply inferenceservice.serving.kserve.io/x: InferenceService.serving.kserve.io "x" is invalid (spec.predictor: Required value; metadata.name: Invalid value: "X") [Invalid]',
    );
  });

  it('maps 403 to unauthorized and a refused connection to network', () => {
    expect(toKubeError({ code: 403, body: '{"kind":"Status","reason":"Forbidden","message":"forbidden"}' }, 'get x').code).toBe('unauthorized');
    const refused = toKubeError(Object.assign(new Error('request failed, reason: connect ECONNREFUSED 127.0.0.1:1'), {}), 'list', 'https://127.0.0.1:1');
    expect(refused.code).toBe('network');
    expect(refused.message).toContain('cannot reach the Kubernetes API server at https://127.0.0.1:1');
  });
});
