import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli.js';
import { writeStandInKubeconfig } from '../kube-stand-in/kubeconfig.js';
import { startKubeStandIn, type KubeStandIn } from '../kube-stand-in/server.js';

// `inferkit` as a child process against the STAND-IN API server (test/kube-stand-in), not Kubernetes.
const EXAMPLE = readFileSync('examples/token-classification.yaml', 'utf8');
const SECRET = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: bert-hub-token\nstringData:\n  HF_TOKEN: hf_not_a_real_token\n---\n';

let dir: string;
let standIn: KubeStandIn;
let kubeconfig: string;

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, 'utf8');
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-cluster-cli-'));
  standIn = await startKubeStandIn({ readyDelayMs: 300 });
  kubeconfig = await writeStandInKubeconfig(dir, standIn.url);
});

afterAll(async () => {
  await standIn?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('inferkit apply / wait / get / delete', () => {
  it('applies Secrets first, waits, lists as a table, yaml and json, reapplies unchanged and deletes', async () => {
    const manifest = await file('bert.yaml', `${EXAMPLE}---\n${SECRET}`);
    const applied = await runCli(['apply', manifest, '--wait', '--timeout', '30s'], { KUBECONFIG: kubeconfig });
    expect(applied.stderr).toContain('huggingface-bert: PredictorReady=Unknown (RevisionMissing)');
    expect(applied.stderr).toContain('Ready=True');
    expect(applied.stdout).toBe(
      'secret/bert-hub-token created\ninferenceservice.serving.kserve.io/huggingface-bert created\ninferenceservice.serving.kserve.io/huggingface-bert condition met\n',
    );
    expect(applied.code).toBe(0);

    const table = await runCli(['get', '--kubeconfig', kubeconfig]);
    expect(table.code).toBe(0);
    const [head, row] = table.stdout.trimEnd().split('\n');
    expect(head.split(/\s+/)).toEqual(['NAME', 'URL', 'READY', 'PREV', 'LATEST', 'PREVROLLEDOUTREVISION', 'LATESTREADYREVISION', 'AGE']);
    expect(row.split(/\s+/).slice(0, 5)).toEqual(['huggingface-bert', 'http://huggingface-bert.default.example.com', 'True', '100', 'huggingface-bert-predictor-00001']);

    const yaml = await runCli(['get', 'huggingface-bert', '-o', 'yaml', '--kubeconfig', kubeconfig]);
    expect(parse(yaml.stdout)).toMatchObject({ kind: 'InferenceService', metadata: { name: 'huggingface-bert', namespace: 'default' }, status: { url: 'http://huggingface-bert.default.example.com' } });
    const json = await runCli(['get', '-A', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'List', items: [{ metadata: { name: 'huggingface-bert' } }] });
    const wide = await runCli(['get', '-A', '-o', 'wide', '--kubeconfig', kubeconfig]);
    expect(wide.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+NAME\s+URL\s.*\sMODEL\s+PROTOCOL\s+REASON$/);
    expect(wide.stdout.split('\n')[1]).toMatch(/^default\s+huggingface-bert\s+http\S+\s+True\s.*\sbert\s+v1$/);

    const rv = standIn.store.get('inferenceservices', 'default', 'huggingface-bert')?.metadata.resourceVersion;
    const again = await runCli(['apply', manifest, '--kubeconfig', kubeconfig]);
    expect(again.stdout).toBe('secret/bert-hub-token unchanged\ninferenceservice.serving.kserve.io/huggingface-bert unchanged\n');
    expect(standIn.store.get('inferenceservices', 'default', 'huggingface-bert')?.metadata.resourceVersion).toBe(rv);

    const deleted = await runCli(['delete', '-f', manifest, '--kubeconfig', kubeconfig]);
    expect(deleted.stdout).toBe('inferenceservice.serving.kserve.io/huggingface-bert deleted\nsecret/bert-hub-token deleted\n');
    const missing = await runCli(['get', 'huggingface-bert', '--kubeconfig', kubeconfig]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('inferkit: get inferenceservice/huggingface-bert -n default: inferenceservices.serving.kserve.io "huggingface-bert" not found [NotFound]');
  });

  it('wait exits non-zero with the reason and message of a failed revision', async () => {
    const failing = await file('crash.yaml', EXAMPLE.replace('name: huggingface-bert', 'name: crashing\n  annotations:\n    stand-in.inferkit/fail: "CrashLoopBackOff: back-off 40s restarting failed container"'));
    expect((await runCli(['apply', failing, '-n', 'team-a', '--kubeconfig', kubeconfig])).code).toBe(0);
    const waited = await runCli(['wait', 'crashing', '--for=Ready', '--timeout', '20s', '-n', 'team-a', '--kubeconfig', kubeconfig]);
    expect(waited.code).toBe(1);
    const lines = waited.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe('inferkit: inferenceservice/crashing failed: PredictorReady CrashLoopBackOff: back-off 40s restarting failed container');
    expect(waited.stderr).not.toMatch(/\n\s+at /);
    expect((await runCli(['delete', 'crashing', '-n', 'team-a', '--kubeconfig', kubeconfig])).stdout).toBe('inferenceservice.serving.kserve.io/crashing deleted\n');
  });

  it('a wrong field fails with one line naming it; --dry-run=server creates nothing', async () => {
    const typo = await file('typo.yaml', EXAMPLE.replace('modelFormat:', 'protocolVersoin: v2\n      modelFormat:'));
    const sent = standIn.requests.length;
    const bad = await runCli(['apply', typo, '--kubeconfig', kubeconfig]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('spec.predictor.model.protocolVersoin: unknown field "protocolVersoin"; did you mean "protocolVersion"?');
    expect(standIn.requests.length).toBe(sent); // refused before any request

    const good = await file('good.yaml', `${SECRET}${EXAMPLE}`);
    const dry = await runCli(['apply', good, '--dry-run=server', '--kubeconfig', kubeconfig]);
    expect(dry.stdout).toBe('secret/bert-hub-token created (server dry run)\ninferenceservice.serving.kserve.io/huggingface-bert created (server dry run)\n');
    expect(standIn.store.list('inferenceservices', undefined)).toEqual([]);
    expect(standIn.store.list('secrets', undefined)).toEqual([]);
    const none = await runCli(['get', '--kubeconfig', kubeconfig]);
    expect(none.stderr).toBe('No resources found in default namespace.\n');
  });
});
