import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-validate-crd-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const TYPOS = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: bert
spec:
  predictor:
    timeout: "30"
    model:
      modelFormat:
        name: huggingface
      protocolVersoin: v2
      args: "--model_id=o/m"
      resource:
        limits:
          memory: 2Gi
`;

const INLINE = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: gated
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args: [--model_id=o/gated]
      env:
        - name: HF_TOKEN
          value: hf_inlineDoNotPrint42
`;

describe('inferkit validate (KServe CRD schema)', () => {
  it('rejects unknown and wrongly typed fields with their full path and a "did you mean" hint', async () => {
    const file = join(dir, 'typos.yaml');
    await writeFile(file, TYPOS);
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stdout.replaceAll(dir, 'DIR').trim().split('\n')).toEqual([
      'DIR/typos.yaml: documents[0].spec.predictor.model.args: Invalid input: expected array, received string',
      'DIR/typos.yaml: documents[0].spec.predictor.timeout: expected an integer, got a string',
      'DIR/typos.yaml: documents[0].spec.predictor.model.protocolVersoin: unknown field "protocolVersoin"; did you mean "protocolVersion"?',
      'DIR/typos.yaml: documents[0].spec.predictor.model.resource: unknown field "resource"; did you mean "resources"?',
    ]);
  });

  it('flags a hub token written in clear into env[].value without printing it; --allow-inline-secrets warns', async () => {
    const file = join(dir, 'inline.yaml');
    await writeFile(file, INLINE);
    const strict = await runCli(['validate', file]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('documents[0].spec.predictor.model.env[0].value: env HF_TOKEN holds a credential in clear text');
    expect(strict.stdout).toContain('valueFrom.secretKeyRef');
    expect(strict.stdout + strict.stderr).not.toContain('hf_inlineDoNotPrint42');

    const allowed = await runCli(['validate', '--allow-inline-secrets', file]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout.replaceAll(dir, 'DIR').trim().split('\n')).toEqual([
      expect.stringMatching(/^DIR\/inline\.yaml: warning: documents\[0\]\.spec\.predictor\.model\.env\[0\]\.value: env HF_TOKEN /),
      'DIR/inline.yaml: ok (1 document)',
    ]);
    expect(allowed.stdout + allowed.stderr).not.toContain('hf_inlineDoNotPrint42');
  });
});
