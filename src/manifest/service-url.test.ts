import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures/contract/load.js';
import { InferenceServiceSchema } from '../contract/inference-service.js';
import { parseContract } from '../contract/parse.js';
import { inferenceService } from './inference-service.js';
import { defaultServiceUrl, serviceHostname } from './service-url.js';

describe('defaultServiceUrl', () => {
  it('uses the serverless form on example.com in namespace default', () => {
    expect(defaultServiceUrl('huggingface-bert')).toBe('http://huggingface-bert.default.example.com');
    expect(defaultServiceUrl('chronos', 'forecasting')).toBe('http://chronos.forecasting.example.com');
  });
  it('supports a custom domain and the raw deployment form', () => {
    expect(defaultServiceUrl('a', 'b', { domain: 'models.local' })).toBe('http://a.b.models.local');
    expect(defaultServiceUrl('a', 'b', { mode: 'raw' })).toBe('http://a-b.example.com');
  });
});

describe('serviceHostname', () => {
  it('is the host of status.url', () => {
    const isvc = parseContract(InferenceServiceSchema, loadFixture('isvc-with-status.yaml'));
    isvc.status = { ...isvc.status, url: 'https://bert.team.models.acme.io:8443/path' };
    expect(serviceHostname(isvc)).toBe('bert.team.models.acme.io');
  });
  it('falls back to the default form without a status', () => {
    const isvc = inferenceService({ name: 'chronos', namespace: 'forecasting', modelId: 'm' }).service;
    expect(serviceHostname(isvc)).toBe('chronos.forecasting.example.com');
    expect(serviceHostname(isvc, { mode: 'raw', domain: 'svc.local' })).toBe('chronos-forecasting.svc.local');
  });
  it('names a status.url that is not a URL', () => {
    const isvc = inferenceService({ name: 'x', modelId: 'm' }).service;
    isvc.status = { url: 'not a url' };
    expect(() => serviceHostname(isvc)).toThrow(/^status\.url: expected an absolute URL/);
  });
});
