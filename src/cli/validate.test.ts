import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-validate-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const GOOD = `apiVersion: v1
kind: Secret
metadata:
  name: tok
stringData:
  HF_TOKEN: hf_doNotPrintMe123
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: bert
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args: [--model_name=bert, --model_id=o/m]
`;

const BAD = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: Bert
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      protocolVersion: v3
      resources:
        limits:
          memory: lots
---
apiVersion: apps/v1
kind: Deployment
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: port
spec:
  predictor:
    containers:
      - name: c
        image: img
        args: [--http_port=http]
`;

/** One InferenceService document of the model form with these args (a flow list) and annotation lines. */
const svc = (name: string, args: string, annotations = '') => `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: ${name}${annotations}
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args: [${args}]
`;

describe('inferkit validate', () => {
  it('prints ok per valid file, lists every error with file and document path, exits 1', async () => {
    const good = join(dir, 'good.yaml');
    const bad = join(dir, 'bad.yaml');
    const broken = join(dir, 'broken.yaml');
    await writeFile(good, GOOD);
    await writeFile(bad, BAD);
    const ports = join(dir, 'ports.yaml');
    await writeFile(broken, 'kind: Secret\nmetadata:\n\tname: x\n');
    await writeFile(ports, BAD.split('---\n')[2]);
    const r = await runCli(['validate', good, bad, broken, join(dir, 'missing.yaml'), ports]);
    expect(r.code).toBe(1);
    expect(r.stdout.replaceAll(dir, 'DIR').split('\n')).toEqual([
      'DIR/good.yaml: ok (2 documents)',
      'DIR/bad.yaml: documents[0].metadata.name: expected a lower-case DNS label: letters, digits and "-", starting with a letter, ending with a letter or digit',
      'DIR/bad.yaml: documents[0].spec.predictor.model.protocolVersion: expected protocolVersion v1, v2 or grpc-v2',
      'DIR/bad.yaml: documents[0].spec.predictor.model.resources.limits.memory: expected a Kubernetes quantity such as "1", "500m" or "4Gi"',
      'DIR/bad.yaml: documents[1].kind: unknown kind "Deployment"; expected InferenceService or Secret',
      // runtime args are checked per document once its schema passes
      'DIR/bad.yaml: documents[2].spec.predictor.containers[0].args: --http_port: expected a positive integer up to 65535, got "http"',
      'DIR/broken.yaml: documents[0]: YAML syntax error at line 3, column 1: Tabs are not allowed as indentation',
      'DIR/missing.yaml: cannot read file (ENOENT)',
      'DIR/ports.yaml: documents[0].spec.predictor.containers[0].args: --http_port: expected a positive integer up to 65535, got "http"',
      '',
    ]);
    expect(r.stdout + r.stderr).not.toContain('hf_doNotPrintMe123');
  });

  it('names a forecast arg the service\'s model would not use, and which models take it', async () => {
    const file = join(dir, 'forecast-args.yaml');
    await writeFile(file, [
      svc('chronos', '--model_id=amazon/chronos-bolt-small, --season=24'),
      svc('theta', '--model_id=theta, --seasonal_periods=7'),
      svc('mstl', '--model_id=mstl, "--seasonal_periods=7,14", --task=time_series_forecast'),
    ].join('---\n'));
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stdout.replaceAll(dir, 'DIR').trim().split('\n')).toEqual([
      'DIR/forecast-args.yaml: documents[0].spec.predictor.model.args: --season is used only by the baselines --model_id=seasonal-naive, theta, auto-ets, mstl, auto-arima and stat-ensemble; '
      + 'model "amazon/chronos-bolt-small" does not use it: remove the arg or change --model_id',
      'DIR/forecast-args.yaml: documents[1].spec.predictor.model.args: --seasonal_periods is used only by the baseline --model_id=mstl; '
      + 'model "theta" does not use it: remove the arg or change --model_id',
    ]);
  });

  it('says before any download what inferkit serve would refuse (errors) and ignore (warnings), quoting no value', async () => {
    const file = join(dir, 'serve-checks.yaml');
    await writeFile(file, [
      svc('typo', '--model_id=o/m, --task=tokn_classification'),
      svc('int8-forecast', '--model_id=amazon/chronos-bolt-small, --onnx_variant=quantized'),
      svc('replicas', '--model_id=o/m', '\n  annotations:\n    serving.inferkit.dev/replicas: "two"\n    serving.inferkit.dev/onnx-variant: int4'),
      svc('alias', '--model_id=o/m, --task=ner, --dtype=float16'),
      svc('kserve-only', '--model_id=o/m, --task=Fill_Mask'),
      svc('token-arg-on-forecast', '--model_id=theta, --disable_lower_case'),
      svc('no-model', '--model-id=o/m, --disable_lowercase'),
      svc('baseline-typo', '--model_id=baseline/Seasonal_Naiv, --seasn=12'),
    ].join('---\n'));
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(1);
    const lines = r.stdout.replaceAll(dir, 'DIR').trim().split('\n');
    const at = (i: number, rest = 'spec.predictor.model.args') => `DIR/serve-checks.yaml: documents[${i}].${rest}: `;
    expect(lines).toEqual([
      `${at(0)}--task names a task neither KServe's Hugging Face runtime nor inferkit has; expected one of table_question_answering, question_answering, `
      + 'token_classification, sequence_classification, fill_mask, text_generation, text2text_generation, multiple_choice, text_embedding, time_series_forecast',
      `${at(1)}--onnx_variant is used only by token-classification models (an int8 graph); forecast models have no such variant: remove the arg`,
      `${at(2, 'metadata.annotations["serving.inferkit.dev/replicas"]')}annotation serving.inferkit.dev/replicas: expected a positive integer (session replicas)`,
      `${at(2, 'metadata.annotations["serving.inferkit.dev/onnx-variant"]')}annotation serving.inferkit.dev/onnx-variant: expected "quantized" (onnx/model_quantized.onnx) or "default" (onnx/model.onnx)`,
      `${at(6)}the service names no model: set --model_id=<hub id or folder> or --model_dir=<folder>, or give KServe storage (storageUri: hf://org/name, s3://…; storage; storageUris)`,
      `${at(7)}--model_id=baseline/… names no baseline; did you mean baseline/seasonal-naive? (baselines: seasonal-naive, naive, theta, auto-ets, mstl, auto-arima, stat-ensemble, croston, croston-sba, tsb, adida, imapa)`,
      `DIR/serve-checks.yaml: warning: documents[3].spec.predictor.model.args: --task is an inferkit alias that KServe's runtime does not accept: write --task=token_classification so the manifest also deploys to a cluster`,
      'DIR/serve-checks.yaml: warning: documents[3].spec.predictor.model.args: runtime arg --dtype is not implemented by inferkit and was ignored',
      `DIR/serve-checks.yaml: warning: documents[4].spec.predictor.model.args: --task=fill_mask is served by KServe's runtime but not by inferkit serve (it serves token_classification and time_series_forecast): the service will fail there`,
      'DIR/serve-checks.yaml: warning: documents[5].spec.predictor.model.args: runtime arg --disable_lower_case applies to token classification only and was ignored by this forecasting model',
      // A typo'd arg name gets the arg it most likely meant.
      'DIR/serve-checks.yaml: warning: documents[6].spec.predictor.model.args: runtime arg --disable_lowercase is not implemented by inferkit and was ignored; did you mean --disable_lower_case?',
      'DIR/serve-checks.yaml: warning: documents[6].spec.predictor.model.args: runtime arg --model-id is not implemented by inferkit and was ignored; did you mean --model_id?',
      'DIR/serve-checks.yaml: warning: documents[7].spec.predictor.model.args: runtime arg --seasn is not implemented by inferkit and was ignored; did you mean --season?',
    ]);
    expect(r.stdout).not.toMatch(/"two"|int4|tokn/);
  });

  it('accepts what a cluster accepts: a model from storage, storageUris or a custom image with its own --task', async () => {
    const file = join(dir, 'cluster-forms.yaml');
    const storage = svc('storage', '--model_name=m').replace('      modelFormat:', '      storage:\n        key: s3-creds\n        path: models/bert\n      modelFormat:');
    const uris = svc('uris', '--model_name=m').replace('    model:', '    storageUris:\n      - uri: s3://bucket/bert\n        mountPath: /mnt/models\n    model:');
    const custom = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: custom
spec:
  predictor:
    containers:
      - name: kserve-container
        image: ghcr.io/acme/summarizer:1.0
        args: [--model_name=sum, --model_id=acme/sum, --task=summarization]
`;
    await writeFile(file, [storage, uris, custom].join('---\n'));
    const r = await runCli(['validate', file]);
    expect(r.stdout.replaceAll(dir, 'DIR').trim().split('\n')).toEqual([
      'DIR/cluster-forms.yaml: warning: documents[2].spec.predictor.containers[0].args: --task names a task neither KServe\'s Hugging Face runtime nor inferkit has; '
      + 'expected one of table_question_answering, question_answering, token_classification, sequence_classification, fill_mask, text_generation, text2text_generation, multiple_choice, text_embedding, time_series_forecast',
      'DIR/cluster-forms.yaml: ok (3 documents)',
    ]);
    expect(r.code).toBe(0);
  });

  it('reads links to files in a folder (a mounted ConfigMap), and checks the other paths past a folder without manifests', async () => {
    const linked = join(dir, 'linked');
    const empty = join(dir, 'empty');
    await mkdir(linked);
    await mkdir(empty);
    await symlink(resolve('examples/forecast.yaml'), join(linked, 'forecast.yaml'));
    const r = await runCli(['validate', empty, linked]);
    expect(r.code).toBe(1);
    expect(r.stdout.replaceAll(dir, 'DIR').trim().split('\n')).toEqual([
      'DIR/empty: a folder without manifest files (*.yaml, *.yml or *.json)',
      'DIR/linked/forecast.yaml: ok (1 document)',
    ]);
  });

  it('exits 0 on the shipped examples', async () => {
    const ok = await runCli(['validate', 'examples/token-classification.yaml', 'examples/token-classification-v2.yaml',
      'examples/forecast.yaml', 'examples/container-form.yaml', 'examples/gated-model.yaml']);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout.trim().split('\n')).toHaveLength(5);
  });
});
