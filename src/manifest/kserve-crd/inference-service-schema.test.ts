import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRD_SOURCE, SCHEMA_MODULE, deriveCrdSchema, renderSchemaModule } from '../../../scripts/derive-crd-schema.js';
import { inferenceServiceSchema } from './inference-service-schema.js';

const crdYaml = (): string => readFileSync(resolve(process.cwd(), CRD_SOURCE), 'utf8');

describe('inferenceServiceSchema (generated from ../shared/kserve-crd)', () => {
  it('is byte-identical to what scripts/gen-crd-schema.ts derives from the CRD today (no drift)', () => {
    const committed = readFileSync(resolve(process.cwd(), SCHEMA_MODULE), 'utf8');
    const regenerated = renderSchemaModule(deriveCrdSchema(crdYaml()));
    // Compare lengths first so a mismatch does not print half a megabyte.
    expect(committed.length).toBe(regenerated.length);
    expect(committed === regenerated, 'run: npx tsx scripts/gen-crd-schema.ts').toBe(true);
  });

  it('expands its shared subtrees back to exactly the derived schema, and stays small', () => {
    expect(inferenceServiceSchema).toEqual(deriveCrdSchema(crdYaml()));
    expect(readFileSync(resolve(process.cwd(), SCHEMA_MODULE)).length).toBeLessThan(80_000);
    const text = JSON.stringify(inferenceServiceSchema);
    expect(text).not.toContain('"description"');
    expect(text).not.toContain('"default"');
    const model = inferenceServiceSchema.properties?.spec.properties?.predictor.properties?.model;
    expect(model?.properties?.protocolVersion).toEqual({ type: 'string' });
    expect(model?.properties?.resources?.type).toBe('object');
  });

  it('refuses a keyword the checker does not enforce, rather than silently dropping a rule', () => {
    const crd = (extra: string): string => `spec:
  versions:
    - name: v1beta1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            description: {type: string, description: a field named description stays}
            spec: {type: object, ${extra}}
`;
    expect(deriveCrdSchema(crd('description: dropped'))).toEqual({
      type: 'object', properties: { description: { type: 'string' }, spec: { type: 'object' } },
    });
    expect(() => deriveCrdSchema(crd('oneOf: []'))).toThrow('openAPIV3Schema.spec: keyword "oneOf" is neither enforced nor ignored');
  });
});
