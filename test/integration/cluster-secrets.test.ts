import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster, type Cluster } from '../../src/cluster/cluster.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { fromYaml } from '../../src/manifest/manifest-yaml.js';
import { writeStandInKubeconfig } from '../kube-stand-in/kubeconfig.js';
import { startKubeStandIn, type KubeStandIn } from '../kube-stand-in/server.js';

// The API server here is a STAND-IN (test/kube-stand-in), not Kubernetes.
const TOKEN = 'hf_cleartext_not_real_0123456789';
const MANIFEST = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: leaky
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=bert
        - --model_id=inferkit/ner-fixture
        - --hf_token=${TOKEN}
      env:
        - name: HF_TOKEN
          value: ${TOKEN}
        - name: MAX_NEW_TOKENS
          value: "12"
`;

let dir: string;
let standIn: KubeStandIn;
let c: Cluster;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-cluster-secrets-'));
  standIn = await startKubeStandIn({ readyDelayMs: 50 });
  c = cluster({ kubeconfig: await writeStandInKubeconfig(dir, standIn.url) });
  await c.apply(fromYaml(MANIFEST) as InferenceService[]);
});

afterAll(async () => {
  await standIn?.close();
  await rm(dir, { recursive: true, force: true });
});

const model = (s: InferenceService) => s.spec.predictor.model as { args?: string[]; env?: Array<{ name: string; value?: string }> };

describe('cluster: secrets masked in what get/list/waitReady return', () => {
  it('masks secret-named env values and args by default', async () => {
    const got = await c.get('leaky');
    expect(model(got).env).toEqual([{ name: 'HF_TOKEN', value: '***' }, { name: 'MAX_NEW_TOKENS', value: '12' }]);
    expect(model(got).args).toEqual(['--model_name=bert', '--model_id=inferkit/ner-fixture', '--hf_token=***']);
    const listed = await c.list();
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    expect(model(listed[0] as InferenceService).env?.[0]?.value).toBe('***');
    const ready = await c.waitReady('leaky', { timeoutMs: 10_000 });
    expect(JSON.stringify(ready)).not.toContain(TOKEN);
  });

  it("shows them with { secrets: 'show' }", async () => {
    const got = await c.get('leaky', { secrets: 'show' });
    expect(model(got).env?.[0]).toEqual({ name: 'HF_TOKEN', value: TOKEN });
    const listed = await c.list({ secrets: 'show' });
    expect(model(listed[0] as InferenceService).args).toContain(`--hf_token=${TOKEN}`);
  });

  it('keeps the cluster object unchanged (masking is on the copy returned)', () => {
    expect(JSON.stringify(standIn.store.get('inferenceservices', 'default', 'leaky'))).toContain(TOKEN);
  });
});
