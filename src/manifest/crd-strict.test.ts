import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadInferenceServiceJsonSchema, toJsonSchema } from '../../test/fixtures/crd-schema.js';
import { containerService } from './container-service.js';
import { inferenceService } from './inference-service.js';
import { fromYaml, toYaml } from './manifest-yaml.js';
import type { Manifest } from './manifest.js';

// Every manifest inferkit writes must pass KServe's own CRD schema, strictly (kubectl --validate=strict).
let validate: ValidateFunction;
let schema: object;
beforeAll(() => {
  schema = loadInferenceServiceJsonSchema();
  // The CRD schema is large: skip meta-validation and code optimisation to keep compile time down.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, code: { optimize: false } });
  validate = ajv.compile(schema);
});

const errorsOf = (doc: unknown): string[] =>
  validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);

const written: Array<[string, Manifest]> = [
  ['model form, V1', inferenceService({ name: 'bert', modelId: 'dslim/bert-base-NER', disableLowerCase: true })],
  ['model form, V2, namespace, task', inferenceService({ name: 'b', namespace: 'nlp', modelId: 'o/m', protocol: 'v2', task: 'token_classification' })],
  ['GPU resources', inferenceService({ name: 'g', modelId: 'o/m', resources: { cpu: 4, memory: '16Gi', gpu: 2, limits: { 'ephemeral-storage': '10Gi' } } })],
  ['Secret env', inferenceService({ name: 's', modelId: 'o/gated', hubToken: 'hf_x', resources: { cpu: '1' } })],
  ['storageUri', inferenceService({ name: 'u', storageUri: 'hf://o/m', modelFormat: 'huggingface' })],
  ['containers form', containerService({ name: 'c', image: 'kserve/huggingfaceserver:latest', modelId: 'o/m', httpPort: 8081, resources: { gpu: 1 } })],
  ['containers form, Secret env', containerService({ name: 'cs', image: 'img:1', hubToken: 'hf_y' })],
];

describe('KServe CRD (strict)', () => {
  it.each(written)('accepts the %s manifest, also after a YAML round trip', (_, m) => {
    expect(errorsOf(m.service)).toEqual([]);
    const back = fromYaml(toYaml(m)).find((d) => d.kind === 'InferenceService');
    expect(errorsOf(back)).toEqual([]);
  });

  it.each(readdirSync(resolve(process.cwd(), 'examples')).filter((f) => f.endsWith('.yaml')))('accepts examples/%s', (file) => {
    const docs = fromYaml(readFileSync(resolve(process.cwd(), 'examples', file), 'utf8'));
    for (const doc of docs.filter((d) => d.kind === 'InferenceService')) {
      expect(errorsOf(doc)).toEqual([]);
    }
  });

  it('is strict: an unknown field or a wrongly typed one is rejected', () => {
    const m = inferenceService({ name: 'x', modelId: 'o/m' }).service;
    expect(errorsOf({ ...m, spec: { predictor: { ...m.spec.predictor, modelz: {} } } })).toEqual([
      '/spec/predictor must NOT have additional properties',
    ]);
    expect(errorsOf({ ...m, spec: { predictor: { model: { ...m.spec.predictor.model, args: '--x' } } } })).toContain(
      '/spec/predictor/model/args must be array',
    );
  });

  it('converts int-or-string, nullable and preserve-unknown-fields', () => {
    expect(toJsonSchema({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] })).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    });
    expect(toJsonSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(toJsonSchema({ type: 'object', properties: { a: { type: 'string', format: 'byte' } } })).toEqual({
      type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false,
    });
    expect(toJsonSchema({ type: 'object', properties: {}, 'x-kubernetes-preserve-unknown-fields': true })).toEqual({
      type: 'object', properties: {},
    });
  });

  it('keeps spec.predictor strict and still rejects unknown spec components', () => {
    const root = schema as { properties: { spec: { additionalProperties: unknown; properties: Record<string, object> } } };
    expect(root.properties.spec.additionalProperties).toBe(false);
    expect(root.properties.spec.properties.predictor).toMatchObject({ additionalProperties: false });
  });

  it('fails with a clear message when the CRD file is missing', () => {
    expect(() => loadInferenceServiceJsonSchema('/nonexistent/crd.yaml')).toThrow(/KServe CRD not found at \/nonexistent\/crd\.yaml/);
  });
});
