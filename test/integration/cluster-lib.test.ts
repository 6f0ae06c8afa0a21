import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster, type Cluster } from '../../src/cluster/cluster.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { HttpError, ValidationError, isInferkitError } from '../../src/errors.js';
import { fromYaml } from '../../src/manifest/manifest-yaml.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { writeStandInKubeconfig } from '../kube-stand-in/kubeconfig.js';
import { startKubeStandIn, type KubeStandIn } from '../kube-stand-in/server.js';

// The API server here is a STAND-IN (test/kube-stand-in), not Kubernetes; the ingress is a real `inferkit serve`.
const EXAMPLE = readFileSync('examples/token-classification.yaml', 'utf8');
const SECRET = `apiVersion: v1
kind: Secret
metadata:
  name: bert-hub-token
stringData:
  HF_TOKEN: hf_not_a_real_token
---
`;

let dir: string;
let standIn: KubeStandIn;
let ingress: RunningServer;
let c: Cluster;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-cluster-'));
  standIn = await startKubeStandIn({ readyDelayMs: 150 });
  c = cluster({ kubeconfig: await writeStandInKubeconfig(dir, standIn.url) });
  ingress = await serve(fromYaml(EXAMPLE) as InferenceService[], { port: 0, loaders: defaultLoaders({ cacheDir: join(dir, 'cache') }), log: () => undefined });
});

afterAll(async () => {
  await ingress?.close();
  await standIn?.close();
  await rm(dir, { recursive: true, force: true });
});

function rvOf(name: string): { rv: unknown; generation: unknown } {
  const o = standIn.store.get('inferenceservices', 'default', name);
  return { rv: o?.metadata.resourceVersion, generation: o?.metadata.generation };
}

describe('cluster', () => {
  it('applies Secrets first, waits for Ready with progress, calls the model through remoteFor, deletes', async () => {
    const applied = await c.apply(`${SECRET}${EXAMPLE}`);
    expect(applied.map((r) => `${r.resource}/${r.name} ${r.action}`)).toEqual([
      'secret/bert-hub-token created',
      'inferenceservice.serving.kserve.io/huggingface-bert created',
    ]);
    const writes = standIn.requests.filter((r) => r.startsWith('PATCH'));
    expect(writes[0]).toMatch(/^PATCH \/api\/v1\/namespaces\/default\/secrets\/bert-hub-token\?.*fieldManager=inferkit.*force=true/);
    expect(writes[1]).toMatch(/^PATCH \/apis\/serving\.kserve\.io\/v1beta1\/namespaces\/default\/inferenceservices\/huggingface-bert\?.*fieldValidation=Strict/);
    expect(standIn.store.get('secrets', 'default', 'bert-hub-token')?.data).toEqual({ HF_TOKEN: Buffer.from('hf_not_a_real_token').toString('base64') });

    const events: string[] = [];
    const ready = await c.waitReady('huggingface-bert', { timeoutMs: 10_000, onProgress: (e) => events.push(...e.changed) });
    expect(events).toContain('PredictorReady=Unknown (RevisionMissing)');
    expect(events).toContain('Ready=True');
    expect(ready.status?.url).toBe('http://huggingface-bert.default.example.com');

    const got = await c.get('huggingface-bert');
    expect(got.status?.components?.predictor?.latestReadyRevision).toBe('huggingface-bert-predictor-00001');
    expect((await c.list()).map((i) => i.metadata.name)).toEqual(['huggingface-bert']);

    const model = await c.remoteFor('huggingface-bert', { ingressHost: ingress.host, ingressPort: ingress.port });
    expect(model.host).toBe('huggingface-bert.default.example.com');
    const answer = await model.predictV1({ instances: ['My name is Wolfgang and I live in Berlin'] });
    // the NER fixture's ids (dslim/bert-base-NER order): B-PER=3 on "wolfgang", B-LOC=7 on "berlin"
    expect(answer.predictions).toEqual([[[0, 0, 0, 0, 3, 0, 0, 0, 0, 7, 0]]]);

    expect(await c.delete(fromYaml(`${SECRET}${EXAMPLE}`))).toEqual(['inferenceservice.serving.kserve.io/huggingface-bert', 'secret/bert-hub-token']);
    const gone = await c.get('huggingface-bert').catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(HttpError);
    expect((gone as HttpError).status).toBe(404);
    expect((gone as HttpError).message).toBe('get inferenceservice/huggingface-bert -n default: inferenceservices.serving.kserve.io "huggingface-bert" not found [NotFound]');
  });

  it('a second apply of the same file is unchanged: no new resourceVersion, no new generation', async () => {
    const yaml = EXAMPLE.replace('name: huggingface-bert', 'name: twice');
    expect((await c.apply(yaml))[0].action).toBe('created');
    await c.waitReady('twice', { timeoutMs: 10_000 });
    const before = rvOf('twice');
    expect((await c.apply(yaml))[0].action).toBe('unchanged');
    expect(rvOf('twice')).toEqual(before);
    expect((await c.apply(yaml.replace('cpu: "1"', 'cpu: "2"')))[0].action).toBe('configured');
    expect(rvOf('twice').generation).toBe(2);
    await c.delete('twice');
  });

  it('YAML text with a wrong field is refused locally with a hint, before any request', async () => {
    const before = standIn.requests.length;
    const e = await c.apply(EXAMPLE.replace('modelFormat:', 'protocolVersoin: v2\n      modelFormat:')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).message).toContain('spec.predictor.model.protocolVersoin: unknown field "protocolVersoin"; did you mean "protocolVersion"?');
    expect(standIn.requests.length).toBe(before);
  });

  it('a wrong field is rejected with the API server 422 shape, naming the field', async () => {
    // Parsed documents skip the local CRD check, so this reaches the API server's strict field validation.
    const docs = fromYaml(EXAMPLE.replace('modelFormat:', 'protocolVersoin: v2\n      modelFormat:'));
    const e = await c.apply(docs).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpError);
    const err = e as HttpError;
    expect(err.status).toBe(422);
    expect(err.param).toBe('spec.predictor.model.protocolVersoin');
    expect(err.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.predictor.model.protocolVersoin' }] } });
    expect(err.message).toContain('spec.predictor.model.protocolVersoin: Invalid value: field not declared in schema');
    expect(standIn.store.get('inferenceservices', 'default', 'huggingface-bert')).toBeUndefined();
  });

  it('dryRun validates on the server and stores nothing', async () => {
    const r = await c.apply(`${SECRET}${EXAMPLE}`, { dryRun: true });
    expect(r.map((x) => `${x.action}${x.dryRun ? ' (dry run)' : ''}`)).toEqual(['created (dry run)', 'created (dry run)']);
    expect(standIn.requests.filter((q) => q.startsWith('PATCH')).slice(-2).every((q) => q.includes('dryRun=All'))).toBe(true);
    expect(standIn.store.list('inferenceservices', undefined)).toEqual([]);
    expect(standIn.store.list('secrets', undefined)).toEqual([]);
  });

  it('waitReady rejects with the reason and message of a failed revision', async () => {
    const failing = EXAMPLE.replace('name: huggingface-bert', 'name: crashing\n  annotations:\n    stand-in.inferkit/fail: "CrashLoopBackOff: back-off 40s restarting failed container kserve-container"');
    await c.apply(failing);
    const e = await c.waitReady('crashing', { timeoutMs: 10_000 }).catch((x: unknown) => x);
    expect(isInferkitError(e)).toBe(true);
    expect((e as Error).message).toBe('inferenceservice/crashing failed: PredictorReady CrashLoopBackOff: back-off 40s restarting failed container kserve-container');
    await c.delete('crashing');
  });

  it('waitReady times out, and honours the namespace of the context and of options', async () => {
    const slow = await startKubeStandIn({ readyDelayMs: 60_000 });
    try {
      const other = cluster({ kubeconfig: await writeStandInKubeconfig(dir, slow.url), context: 'stand-in-other' });
      expect(await other.namespace).toBe('other');
      await other.apply(EXAMPLE);
      expect(slow.store.get('inferenceservices', 'other', 'huggingface-bert')).toBeDefined();
      const e = await other.waitReady('huggingface-bert', { timeoutMs: 300 }).catch((x: unknown) => x);
      expect((e as { code?: string }).code).toBe('timeout');
      expect((await other.list({ allNamespaces: true })).map((i) => i.metadata.namespace)).toEqual(['other']);
      expect(await other.list({ namespace: 'default' })).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('waitReady resumes when the API server ends the watch, and a missing service is a 404 at once', async () => {
    const short = await startKubeStandIn({ readyDelayMs: 700, watchTimeoutMs: 150 });
    try {
      const k = cluster({ kubeconfig: await writeStandInKubeconfig(join(dir), short.url) });
      await k.apply(EXAMPLE);
      const ready = await k.waitReady('huggingface-bert', { timeoutMs: 10_000 });
      expect(ready.status?.url).toBe('http://huggingface-bert.default.example.com');
      const watches = short.requests.filter((r) => r.includes('watch=true'));
      expect(watches.length).toBeGreaterThan(2);
      expect(watches.slice(1).every((w) => /resourceVersion=\d+/.test(w))).toBe(true);
      const missing = await k.waitReady('nope', { timeoutMs: 10_000 }).catch((e: unknown) => e);
      expect((missing as HttpError).status).toBe(404);
    } finally {
      await short.close();
    }
  });

  it('names a missing kubeconfig or context', async () => {
    await expect(cluster({ kubeconfig: join(dir, 'nope.yaml') }).list()).rejects.toThrow(/no kubeconfig at .*nope\.yaml/);
    const kc = await writeStandInKubeconfig(dir, standIn.url);
    await expect(cluster({ kubeconfig: kc, context: 'prod' }).list()).rejects.toThrow('context "prod" not found');
  });
});
