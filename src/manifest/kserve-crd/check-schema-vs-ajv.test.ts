import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadInferenceServiceJsonSchema } from '../../../test/fixtures/crd-schema.js';
import { containerService } from '../container-service.js';
import { inferenceService } from '../inference-service.js';
import { checkSchema } from './check-schema.js';
import { inferenceServiceSchema } from './inference-service-schema.js';

// The walker must agree with ajv running the CRD as JSON Schema (the strict CRD test's validator) on
// every mutation of what inferkit writes: an unknown key in each object, each leaf swapped for each type.
let ajv: ValidateFunction;
beforeAll(() => {
  ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, code: { optimize: false } }).compile(loadInferenceServiceJsonSchema());
});

type Json = unknown;
type Mutation = [string, Json];

function mutations(doc: Json): Mutation[] {
  const out: Mutation[] = [];
  const visit = (node: Json, path: Array<string | number>, set: (v: Json) => Json): void => {
    const at = path.join('.');
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, [...path, i], (x) => set(node.map((y, j) => (j === i ? x : y)))));
    } else if (typeof node === 'object' && node !== null) {
      out.push([`${at}.zz (unknown key)`, set({ ...node, zz: 1 })]);
      for (const [k, v] of Object.entries(node)) {
        visit(v, [...path, k], (x) => set({ ...node, [k]: x }));
      }
    }
    for (const swap of [7, 1.5, 'x', true, [], {}]) {
      out.push([`${at} = ${JSON.stringify(swap)}`, set(swap)]);
    }
  };
  const spec = (doc as { spec: Json }).spec;
  visit(spec, ['spec'], (s) => ({ ...(doc as object), spec: s }));
  return out;
}

const docs = [
  inferenceService({ name: 'b', modelId: 'o/m', protocol: 'v2', hubToken: 'hf_x', resources: { cpu: 1, memory: '2Gi', gpu: 1 } }).service,
  containerService({ name: 'c', image: 'img:1', modelId: 'o/m', httpPort: 8081, resources: { cpu: '500m' } }).service,
];

describe('checkSchema agrees with ajv on the CRD', () => {
  it.each(docs.map((d) => [d.spec.predictor.model ? 'model form' : 'containers form', d] as const))('for every mutation of the %s', (_, doc) => {
    const results = mutations(doc).map(([what, m]) => ({ what, walker: checkSchema(m, inferenceServiceSchema).length === 0, ajv: ajv(m) }));
    expect(results.filter((r) => r.walker !== r.ajv)).toEqual([]);
    // Both outcomes occur: int-or-string quantities and ports take 7 and "x", most leaves reject a swap.
    expect(results.filter((r) => r.ajv).length).toBeGreaterThan(10);
    expect(results.filter((r) => !r.ajv).length).toBeGreaterThan(100);
  });
});
