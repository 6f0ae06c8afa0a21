import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { containerService } from './container-service.js';
import { inferenceService } from './inference-service.js';
import { toYaml } from './manifest-yaml.js';
import type { Manifest } from './manifest.js';
import { parseManifest, validateManifest } from './validate-manifest.js';

const written: Array<[string, Manifest]> = [
  ['model form, V1', inferenceService({ name: 'bert', modelId: 'dslim/bert-base-NER', disableLowerCase: true })],
  ['model form, V2, namespace, task', inferenceService({ name: 'b', namespace: 'nlp', modelId: 'o/m', protocol: 'v2', task: 'token_classification' })],
  ['GPU resources', inferenceService({ name: 'g', modelId: 'o/m', resources: { cpu: 4, memory: '16Gi', gpu: 2, limits: { 'ephemeral-storage': '10Gi' } } })],
  ['Secret + InferenceService', inferenceService({ name: 's', modelId: 'o/gated', hubToken: 'hf_x', resources: { cpu: '1' } })],
  ['storageUri', inferenceService({ name: 'u', storageUri: 'hf://o/m', modelFormat: 'huggingface' })],
  ['containers form', containerService({ name: 'c', image: 'kserve/huggingfaceserver:latest', modelId: 'o/m', httpPort: 8081, resources: { gpu: 1 } })],
  ['containers form, Secret + InferenceService', containerService({ name: 'cs', image: 'img:1', hubToken: 'hf_y' })],
];

describe('validateManifest', () => {
  it.each(written)('passes the %s manifest inferkit writes, without warnings', async (_, m) => {
    const r = await validateManifest(toYaml(m));
    expect(r).toMatchObject({ errors: [], warnings: [], count: m.secret ? 2 : 1 });
    expect(r.documents.map((d) => d.kind)).toEqual(m.secret ? ['Secret', 'InferenceService'] : ['InferenceService']);
  });

  it.each(readdirSync(resolve(process.cwd(), 'examples')).filter((f) => f.endsWith('.yaml')))('passes examples/%s', async (file) => {
    const r = await validateManifest(readFileSync(resolve(process.cwd(), 'examples', file), 'utf8'));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('reports contract and CRD errors of every document once, each with its document index and path', async () => {
    const text = `apiVersion: v1
kind: Secret
metadata: {name: tok}
stringdata: {HF_TOKEN: x}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: bert, lables: {a: b}}
spec:
  predictor:
    minReplicas: -1
    model:
      modelFormat: {name: huggingface}
      protocolVersion: v3
      storageURI: hf://o/m
`;
    const r = await validateManifest(text);
    expect(r.errors).toEqual([
      { path: 'documents[0].stringdata', message: 'unknown field "stringdata"; did you mean "stringData"?' },
      { path: 'documents[1].spec.predictor.model.protocolVersion', message: 'expected protocolVersion v1, v2 or grpc-v2' },
      { path: 'documents[1].spec.predictor.minReplicas', message: 'Too small: expected number to be >=0' },
      { path: 'documents[1].metadata.lables', message: 'unknown field "lables"; did you mean "labels"?' },
      { path: 'documents[1].spec.predictor.model.storageURI', message: 'unknown field "storageURI"; did you mean "storageUri"?' },
    ]);
    expect(r.documents).toEqual([]);
    await expect(parseManifest(text)).rejects.toThrow(ValidationError);
    await expect(parseManifest(text)).rejects.toThrow(/^manifest: documents\[0\]\.stringdata: unknown field/);
  });

  it('flags credentials in clear in the model and container forms, never printing them; $(VAR) and plain vars pass', async () => {
    const m = containerService({ name: 'c', image: 'img:1' }).service;
    const container = m.spec.predictor.containers?.[0];
    const env = [
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'OPENAI_API_KEY', value: 'sk-clear-1' },
      { name: 'db_password', value: 'clear-2' },
      { name: 'HF_TOKEN', value: '$(HF_TOKEN_FROM_SECRET)' },
      { name: 'HUGGING_FACE_HUB_TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'HF_TOKEN' } } },
    ];
    const doc = { ...m, spec: { predictor: { containers: [{ ...container, env }] } } };
    const r = await validateManifest(toYaml([doc]));
    expect(r.errors.map((i) => i.path)).toEqual([
      'documents[0].spec.predictor.containers[0].env[1].value',
      'documents[0].spec.predictor.containers[0].env[2].value',
    ]);
    expect(r.errors[0].message).toMatch(/^env OPENAI_API_KEY holds a credential in clear text \(value not shown\); .*valueFrom\.secretKeyRef.*hubToken/);
    expect(JSON.stringify(r)).not.toMatch(/sk-clear-1|clear-2/);

    const allowed = await validateManifest(toYaml([doc]), { allowInlineSecrets: true });
    expect(allowed.errors).toEqual([]);
    expect(allowed.warnings).toHaveLength(2);
    expect(allowed.documents).toHaveLength(1);

    const model = inferenceService({ name: 'b', modelId: 'o/m' }).service;
    const inline = { ...model, spec: { predictor: { model: { ...model.spec.predictor.model, env: [{ name: 'HF_TOKEN', value: 'hf_clear3' }] } } } };
    const rm = await validateManifest(toYaml([inline]));
    expect(rm.errors.map((i) => i.path)).toEqual(['documents[0].spec.predictor.model.env[0].value']);
    expect(JSON.stringify(rm)).not.toContain('hf_clear3');
  });

  it('counts documents, skips empty ones, and reports YAML syntax errors per document', async () => {
    expect(await validateManifest('')).toEqual({ documents: [], count: 0, errors: [], warnings: [] });
    const r = await validateManifest('---\nkind: Secret\nmetadata:\n\tname: x\n');
    expect(r.count).toBe(1);
    expect(r.errors).toEqual([{ path: 'documents[0]', message: expect.stringMatching(/^YAML syntax error at line 4, column 1/) }]);
  });
});
