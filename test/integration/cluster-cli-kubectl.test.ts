import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli.js';
import { writeStandInKubeconfig } from '../kube-stand-in/kubeconfig.js';
import { startKubeStandIn, type KubeStandIn } from '../kube-stand-in/server.js';

// `inferkit` as a child process, spelled as kubectl users type it, against the STAND-IN API server (not Kubernetes).
const EXAMPLE = readFileSync('examples/token-classification.yaml', 'utf8');
const SECRET = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: bert-hub-token\nstringData:\n  HF_TOKEN: hf_not_a_real_token\n---\n';
const ISVC = 'inferenceservice.serving.kserve.io/huggingface-bert';

let dir: string;
let standIn: KubeStandIn;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-kubectl-'));
  standIn = await startKubeStandIn({ readyDelayMs: 100 });
  env = { KUBECONFIG: await writeStandInKubeconfig(dir, standIn.url) };
});

afterAll(async () => {
  await standIn?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('kubectl spellings: apply -f, --dry-run=client, get -o name|jsonpath, TYPE/NAME', () => {
  it('checks with --dry-run=client without a cluster, applies with -f, reads with -o name and jsonpath, deletes TYPE/NAME', { timeout: 400_000 }, async () => {
    const manifest = join(dir, 'bert.yaml');
    await writeFile(manifest, `${SECRET}${EXAMPLE}`, 'utf8');

    // Client dry run: validated here, nothing sent (the kubeconfig points nowhere).
    const dry = await runCli(['apply', '-f', manifest, '--dry-run=client'], { KUBECONFIG: join(dir, 'missing-kubeconfig') });
    expect([dry.code, dry.stdout]).toEqual([0, `secret/bert-hub-token valid (client dry run: nothing sent)\n${ISVC} valid (client dry run: nothing sent)\n`]);
    expect((await runCli(['get', '-o', 'name'], env)).stdout).toBe('');

    const applied = await runCli(['apply', '-f', manifest], env);
    expect([applied.code, applied.stdout]).toEqual([0, `secret/bert-hub-token created\n${ISVC} created\n`]);

    expect((await runCli(['get', '-o', 'name'], env)).stdout).toBe(`${ISVC}\n`);
    expect((await runCli(['get', 'isvc', 'huggingface-bert', '-o', 'name'], env)).stdout).toBe(`${ISVC}\n`);
    const url = await runCli(['get', 'inferenceservice/huggingface-bert', '-o', 'jsonpath={.metadata.namespace}'], env);
    expect([url.code, url.stdout]).toEqual([0, 'default']);
    const range = await runCli(['get', 'isvc', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}'], env);
    expect(range.stdout).toBe('huggingface-bert\n');

    const dryDelete = await runCli(['delete', `${ISVC}`, '--dry-run=client'], env);
    expect([dryDelete.code, dryDelete.stdout]).toEqual([0, `${ISVC} deleted (client dry run: nothing sent)\n`]);
    expect((await runCli(['get', '-o', 'name'], env)).stdout).toBe(`${ISVC}\n`);
    const deleted = await runCli(['delete', 'inferenceservice/huggingface-bert'], env);
    expect([deleted.code, deleted.stdout]).toEqual([0, `${ISVC} deleted\n`]);
    expect((await runCli(['get', '-o', 'name'], env)).stdout).toBe('');
  });

  it('names what it does not take', { timeout: 200_000 }, async () => {
    const secret = await runCli(['delete', 'secret/bert-hub-token'], env);
    expect(secret.code).toBe(1);
    expect(secret.stderr).toContain('"secret" is not a resource type inferkit handles here; expected inferenceservice/NAME (or isvc/NAME); Secrets go through -f FILE');
    const mode = await runCli(['apply', '-f', 'examples/forecast.yaml', '--dry-run=everything'], env);
    expect(mode.stderr).toContain('--dry-run: expected client, server or none, got "everything"');
    const output = await runCli(['get', '-o', 'xml'], env);
    expect(output.stderr).toContain('unknown output format "xml"; expected wide, yaml, json, name or jsonpath=TEMPLATE');
    const none = await runCli(['apply'], env);
    expect(none.stderr).toContain('apply: give manifest files or folders, as arguments or with -f FILE');
  });
});
