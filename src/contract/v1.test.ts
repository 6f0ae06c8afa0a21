import { describe, expect, it } from 'vitest';
import { fixtureObject, loadFixture, validationError } from '../../test/fixtures/contract/load.js';
import { parseContract } from './parse.js';
import {
  ErrorBodySchema,
  TokenClassV1EntrySchema,
  V1ModelListSchema,
  V1ModelStatusSchema,
  V1PredictRequestSchema,
  V1PredictResponseSchema,
} from './v1.js';

describe('V1PredictRequestSchema', () => {
  it('parses the interface example request', () => {
    const req = parseContract(V1PredictRequestSchema, loadFixture('v1-request.json'));
    expect(req.instances).toHaveLength(2);
    expect(req.instances[1]).toBe('Hugging Face is based in New York City');
  });

  it('keeps unknown fields', () => {
    const req = parseContract(V1PredictRequestSchema, { ...fixtureObject('v1-request.json'), trace: 'abc' });
    expect(req).toMatchObject({ trace: 'abc' });
  });

  it('names the instance that is not a string', () => {
    const err = validationError(() => parseContract(V1PredictRequestSchema, { instances: ['ok', 42] }));
    expect(err.issues.map((i) => i.path)).toEqual(['instances[1]']);
    expect(err.message).toContain('instances[1]: expected a string (one text per instance)');
  });

  it('names a missing or empty instances field', () => {
    expect(() => parseContract(V1PredictRequestSchema, {})).toThrow(/^instances: /);
    expect(() => parseContract(V1PredictRequestSchema, { instances: [] })).toThrow('instances: expected at least one instance');
  });
});

describe('V1PredictResponseSchema', () => {
  it('parses the example response; every entry is a nested list of class ids', () => {
    const res = parseContract(V1PredictResponseSchema, loadFixture('v1-response.json'));
    expect(res.predictions).toHaveLength(2);
    for (const entry of res.predictions) {
      expect(parseContract(TokenClassV1EntrySchema, entry)[0].length).toBeGreaterThan(0);
    }
  });

  it('rejects a non-integer class id with its path', () => {
    expect(() => parseContract(TokenClassV1EntrySchema, [[0, 1.5]])).toThrow(/^\[0\]\[1\]: /);
  });
});

describe('V1 model bodies', () => {
  it('parse the model status, model list and error bodies', () => {
    expect(parseContract(V1ModelStatusSchema, loadFixture('v1-model-status.json'))).toEqual({ name: 'bert', ready: true });
    expect(parseContract(V1ModelListSchema, loadFixture('v1-model-list.json')).models).toEqual(['bert']);
    expect(parseContract(ErrorBodySchema, loadFixture('error-body.json')).error).toMatch(/instances/);
  });
});
