import { describe, expect, it } from 'vitest';
import { checkSchema } from './check-schema.js';
import { didYouMean, editDistance } from './did-you-mean.js';
import type { StructuralSchema } from './structural-schema.js';

const port: StructuralSchema = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
const schema: StructuralSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5, pattern: '^[a-z]+$' },
    port,
    weight: { type: 'integer', minimum: 0, maximum: 100 },
    mode: { type: 'string', enum: ['all', 'request'] },
    tags: { type: 'array', minItems: 1, items: { type: 'string' } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'boolean' } } },
    both: { allOf: [{ type: 'string' }, { type: 'string', maxLength: 2 }] },
    metadata: { type: 'object' },
    nothing: { type: 'object', nullable: true },
  },
};

describe('checkSchema', () => {
  it('accepts a valid object, int-or-string either way, and nulls the API server would prune', () => {
    const ok = { name: 'ab', port: 80, weight: 0, mode: 'all', tags: ['x'], labels: { 'a.b/c': 'd' }, config: { a: true, z: [1] }, both: 'ok' };
    expect(checkSchema(ok, schema)).toEqual([]);
    expect(checkSchema({ ...ok, port: 'http', weight: null, nothing: null }, schema)).toEqual([]);
    expect(checkSchema({ ...ok, metadata: { name: 'x', labels: { a: 'b' } } }, schema)).toEqual([]);
  });

  it('reports every problem with its path and never quotes the value', () => {
    const bad = {
      port: 1.5, weight: 101, mode: 'everything', tags: [], labels: { a: 3 }, config: { a: 'yes' }, both: 'long',
      nmae: 'x', metadata: { lables: {} }, extra: 'secret-value-1',
    };
    const issues = checkSchema(bad, schema, ['documents', 0]);
    expect(issues).toEqual([
      { path: 'documents[0].name', message: 'required field is missing' },
      { path: 'documents[0].port', message: 'expected an integer or a string, got a number' },
      { path: 'documents[0].weight', message: 'expected at most 100' },
      { path: 'documents[0].mode', message: 'expected one of "all", "request"' },
      { path: 'documents[0].tags', message: 'expected at least 1 item' },
      { path: 'documents[0].labels.a', message: 'expected a string, got an integer' },
      { path: 'documents[0].config.a', message: 'expected a boolean, got a string' },
      { path: 'documents[0].both', message: 'expected at most 2 characters' },
      { path: 'documents[0].nmae', message: 'unknown field "nmae"; did you mean "name"?' },
      { path: 'documents[0].metadata.lables', message: 'unknown field "lables"; did you mean "labels"?' },
      { path: 'documents[0].extra', message: expect.stringMatching(/^unknown field "extra"; allowed: name, port, weight, /) },
    ]);
    expect(JSON.stringify(issues)).not.toContain('secret-value-1');
    expect(checkSchema({ name: 'ABC' }, schema)).toEqual([{ path: 'name', message: 'expected a string matching ^[a-z]+$' }]);
  });

  it('checks anyOf: one matching branch is enough, else the closest branch is reported', () => {
    const s: StructuralSchema = { anyOf: [{ type: 'integer' }, { type: 'object', properties: { a: { type: 'string' } } }] };
    expect(checkSchema(3, s)).toEqual([]);
    expect(checkSchema({ a: 'x' }, s)).toEqual([]);
    expect(checkSchema({ b: 'x' }, s)).toEqual([{ path: 'b', message: 'unknown field "b"; did you mean "a"?' }]);
  });
});

describe('didYouMean', () => {
  it('suggests the closest key: a swap or a missing letter is one edit; far-off words get nothing', () => {
    expect(editDistance('protocolVersoin', 'protocolVersion')).toBe(1);
    expect(didYouMean('protocolVersoin', ['protocolVersion', 'runtime'])).toBe('protocolVersion');
    expect(didYouMean('resource', ['resources', 'runtime'])).toBe('resources');
    expect(didYouMean('storageURI', ['storageUri'])).toBe('storageUri');
    expect(didYouMean('replicas', ['minReplicas', 'maxReplicas', 'args'])).toBeUndefined();
    expect(didYouMean('x', [])).toBeUndefined();
  });
});
