import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/fixtures/contract/load.js';
import { containerService } from './container-service.js';
import { inferenceService } from './inference-service.js';
import { fromYaml, toYaml } from './manifest-yaml.js';

const EXAMPLES = resolve(process.cwd(), 'examples');
const exampleFiles = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));

describe('toYaml', () => {
  it('writes the Secret first, then the InferenceService, as separate documents', () => {
    const m = inferenceService({ name: 'gated', modelId: 'org/m', hubToken: 'tok' });
    const text = toYaml(m);
    const docs = text.split(/^---$/m);
    expect(docs).toHaveLength(2);
    expect(docs[0]).toMatch(/^apiVersion: v1\nkind: Secret\n/);
    expect(docs[1]).toMatch(/^\napiVersion: serving.kserve.io\/v1beta1\nkind: InferenceService\n/);
  });

  it('orders top-level and metadata keys canonically whatever the input order', () => {
    const text = toYaml([{ spec: { a: 1 }, metadata: { namespace: 'n', name: 'x' }, kind: 'K', apiVersion: 'v' }]);
    expect(text).toBe('apiVersion: v\nkind: K\nmetadata:\n  name: x\n  namespace: n\nspec:\n  a: 1\n');
  });

  it('masks every Secret value with secrets: "mask", leaving the InferenceService and key names as they are', () => {
    const m = inferenceService({ name: 'gated', modelId: 'org/m', hubToken: 'hf_visibleSecret123' });
    const masked = toYaml(m, { secrets: 'mask' });
    expect(masked).not.toContain('hf_visibleSecret123');
    expect(masked).toContain('HF_TOKEN: <masked>');
    expect(masked.split('---\n')[1]).toBe(toYaml(m).split('---\n')[1]);
    expect(toYaml([{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ==' } }], { secrets: 'mask' })).toContain('a: <masked>');
    expect(toYaml(m)).toContain('hf_visibleSecret123');
  });

  it('quotes quantities that YAML would read as numbers', () => {
    const text = toYaml(inferenceService({ name: 'x', modelId: 'm', resources: { cpu: 1, gpu: 1 } }));
    expect(text).toContain('cpu: "1"');
    expect(text).toContain('nvidia.com/gpu: "1"');
  });
});

describe('fromYaml', () => {
  it('round-trips builder output: YAML → objects → YAML is identical', () => {
    const manifests = [
      inferenceService({ name: 'a', namespace: 'ns', modelId: 'o/m', protocol: 'v2', resources: { cpu: '1', memory: '2Gi', gpu: 1 }, hubToken: 'h' }),
      containerService({ name: 'b', image: 'img:1', modelId: 'o/m', httpPort: 9000 }),
    ];
    for (const m of manifests) {
      const text = toYaml(m);
      const docs = fromYaml(text);
      expect(docs).toEqual(m.secret ? [m.secret, m.service] : [m.service]);
      expect(toYaml(docs)).toBe(text);
    }
  });

  it.each(exampleFiles)('reads examples/%s and round-trips it stably', (file) => {
    const docs = fromYaml(readFileSync(resolve(EXAMPLES, file), 'utf8'));
    expect(docs.length).toBeGreaterThan(0);
    const once = toYaml(docs);
    expect(toYaml(fromYaml(once))).toBe(once);
  });

  it('names the document index and path of every problem', () => {
    const text = [
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: ok\nstringData:\n  HF_TOKEN: x\n',
      'apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: Bad\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: huggingface\n      protocolVersion: v9\n',
    ].join('---\n');
    const err = validationError(() => fromYaml(text));
    expect(err.issues.map((i) => i.path)).toEqual(['documents[1].metadata.name', 'documents[1].spec.predictor.model.protocolVersion']);
    expect(err.message).toMatch(/^manifest: documents\[1\]\.metadata\.name: expected a lower-case DNS label/);
  });

  it('rejects unknown kinds and non-mapping documents by index', () => {
    const err = validationError(() => fromYaml('apiVersion: apps/v1\nkind: Deployment\n---\n- a list\n'));
    expect(err.issues).toMatchInlineSnapshot(`
      [
        {
          "message": "unknown kind "Deployment"; expected InferenceService or Secret",
          "path": "documents[0].kind",
        },
        {
          "message": "expected a mapping with apiVersion and kind",
          "path": "documents[1]",
        },
      ]
    `);
  });

  it('reports YAML syntax errors with line and column', () => {
    const ok = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n';
    const err = validationError(() => fromYaml(`${ok}---\nkind: Secret\nmetadata:\n\tname: x\n`));
    expect(err.issues).toEqual([
      { path: 'documents[1]', message: 'YAML syntax error at line 8, column 1: Tabs are not allowed as indentation' },
    ]);
    const quote = validationError(() => fromYaml(`${ok}  x: "unterminated\n`));
    expect(quote.issues[0].message).toMatch(/^YAML syntax error at line \d+, column \d+: Missing closing "quote$/);
  });

  it('reports duplicate keys', () => {
    const err = validationError(() => fromYaml('kind: Secret\nkind: Secret\n'));
    expect(err.issues[0].message).toMatch(/YAML syntax error at line 2, column 1/);
  });

  it('skips empty documents and returns nothing for an empty file', () => {
    expect(fromYaml('')).toEqual([]);
    expect(fromYaml('---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\n')).toHaveLength(1);
  });
});
