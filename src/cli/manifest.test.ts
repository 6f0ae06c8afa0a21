import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';
import { fromYaml } from '../manifest/manifest-yaml.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('inferkit manifest', () => {
  it('prints a V2 model-form manifest with GPU resources that reads back', async () => {
    const r = await runCli(['manifest', '--name', 'bert', '--model-id', 'dslim/bert-base-NER', '--model-name', 'ner', '--namespace', 'nlp',
      '--protocol', 'v2', '--cpu', '2', '--memory', '8Gi', '--gpu', '1', '--disable-lower-case', '--task', 'token_classification']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [isvc] = fromYaml(r.stdout);
    expect(isvc).toMatchObject({
      metadata: { name: 'bert', namespace: 'nlp' },
      spec: { predictor: { model: {
        protocolVersion: 'v2',
        args: ['--model_name=ner', '--model_id=dslim/bert-base-NER', '--task=token_classification', '--disable_lower_case'],
        resources: { limits: { cpu: '2', memory: '8Gi', 'nvidia.com/gpu': '1' } },
      } } },
    });
  });

  it('reads the hub token from --hub-token-env into the Secret only; containers form with --http-port', async () => {
    const token = 'hf_cliSecretToken1234567890';
    const out = join(dir, 'gated.yaml');
    const r = await runCli(['manifest', '--name', 'gated', '--model-id', 'org/gated', '--hub-token-env', 'MY_TOKEN',
      '--image', 'kserve/huggingfaceserver:latest', '--http-port', '9000', '--arg=--max_length=64', '-o', out], { MY_TOKEN: token });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const text = await readFile(out, 'utf8');
    const [secretDoc, serviceDoc] = text.split(/^---$/m);
    expect(secretDoc).toContain(`HF_TOKEN: ${token}`);
    expect(serviceDoc).not.toContain(token);
    expect(serviceDoc).toContain('- --http_port=9000');
    expect(serviceDoc).toContain('- --max_length=64');
    expect(serviceDoc).toContain('name: gated-hub-token');
  });

  it('fails with exit 1 and a message naming the problem, never echoing a token', async () => {
    const token = 'hf_mustNotLeak0987654321';
    const bad = await runCli(['manifest', '--name', 'Bad_Name', '--model-id', 'x', '--hub-token-env', 'T'], { T: token });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^inferkit: InferenceService: metadata\.name: expected a lower-case DNS label/);
    expect(bad.stdout + bad.stderr).not.toContain(token);
    const unset = await runCli(['manifest', '--name', 'ok', '--model-id', 'x', '--hub-token-env', 'INFERKIT_UNSET_VAR_FOR_TEST']);
    expect(unset).toMatchObject({ code: 1, stdout: '' });
    expect(unset.stderr).toContain('environment variable INFERKIT_UNSET_VAR_FOR_TEST is not set or empty');
  });
});
