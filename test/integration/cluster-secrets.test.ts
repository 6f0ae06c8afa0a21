import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster, type Cluster } from '../../src/cluster/cluster.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { fromYaml, MASKED_SECRET } from '../../src/manifest/manifest-yaml.js';
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
    expect(model(got).env).toEqual([{ name: 'HF_TOKEN', value: '<masked>' }, { name: 'MAX_NEW_TOKENS', value: '12' }]);
    expect(model(got).args).toEqual(['--model_name=bert', '--model_id=inferkit/ner-fixture', '--hf_token=<masked>']);
    const listed = await c.list();
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    expect(model(listed[0] as InferenceService).env?.[0]?.value).toBe('<masked>');
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

const WITH_SECRET = `apiVersion: v1
kind: Secret
metadata:
  name: hub-token
type: Opaque
stringData:
  HF_TOKEN: ${TOKEN}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: tokened
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=bert
        - --model_id=inferkit/ner-fixture
      env:
        - name: HF_TOKEN
          valueFrom:
            secretKeyRef:
              name: hub-token
              key: HF_TOKEN
`;

describe('cluster: apply returns masked objects', () => {
  const b64 = Buffer.from(TOKEN).toString('base64');

  it("masks a Secret's values in what apply returns, while the API server gets the real one", async () => {
    const applied = await c.apply(WITH_SECRET);
    expect(applied.map((r) => `${r.kind}/${r.name} ${r.action}`)).toEqual(['Secret/hub-token created', 'InferenceService/tokened created']);
    const text = JSON.stringify(applied);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(b64);
    const secret = applied[0]?.object as { data?: Record<string, string>; stringData?: Record<string, string>; metadata: { name: string } };
    expect(secret.metadata.name).toBe('hub-token');
    expect({ ...secret.data, ...secret.stringData }).toEqual({ HF_TOKEN: MASKED_SECRET });
    // the service comes back whole: its valueFrom reference is not a credential
    expect(model(applied[1]?.object as InferenceService).env).toEqual([{ name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hub-token', key: 'HF_TOKEN' } } }]);
    // what was sent and stored is the real token
    expect(standIn.store.get('secrets', 'default', 'hub-token')?.data).toEqual({ HF_TOKEN: b64 });
  });

  it('masks on a second (unchanged) apply, a server dry run and inline credentials of a service', async () => {
    const again = await c.apply(WITH_SECRET, { dryRun: true });
    expect(again.map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    expect(JSON.stringify(again)).not.toContain(b64);
    const leaky = await c.apply(fromYaml(MANIFEST));
    expect(leaky[0]?.action).toBe('unchanged');
    expect(JSON.stringify(leaky)).not.toContain(TOKEN);
    expect(model(leaky[0]?.object as InferenceService).args).toContain('--hf_token=<masked>');
  });

  it("returns the values with { secrets: 'show' }", async () => {
    const shown = await c.apply(WITH_SECRET, { secrets: 'show' });
    expect((shown[0]?.object as { data?: Record<string, string> }).data).toEqual({ HF_TOKEN: b64 });
  });
});
