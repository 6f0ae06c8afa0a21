import { describe, expect, it } from 'vitest';
import type { InferenceService } from '../contract/inference-service.js';
import { validateManifest } from '../manifest/validate-manifest.js';
import { fromYaml } from '../manifest/manifest-yaml.js';
import { runtimeConfig } from '../manifest/runtime-config.js';
import type { CpuBudget } from '../runtime/cpu-budget.js';
import { onnxVariant, REPLICAS_ANNOTATION, serviceReplicas } from '../manifest/serving-annotations.js';
import { planInference, type PlannedService } from './inference-plan.js';
import { inferTask } from '../manifest/model-task.js';

const BUDGET: CpuBudget = { cpus: 8, source: 'affinity', affinity: 8 };

const MANIFEST = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: ner-int8
  annotations:
    serving.inferkit.dev/onnx-variant: quantized
spec:
  predictor:
    model:
      modelFormat: { name: huggingface }
      args: [--model_name=ner, --model_id=org/ner, --task=token_classification]
      resources:
        limits: { cpu: 500m, memory: 1Gi }
`;

function service(name: string, opts: { args?: string[]; cpu?: string; annotations?: Record<string, string> } = {}): PlannedService {
  const isvc: InferenceService = {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      predictor: {
        model: {
          modelFormat: { name: 'huggingface' },
          args: [`--model_name=${name}`, ...(opts.args ?? ['--model_id=org/ner', '--task=token_classification'])],
          ...(opts.cpu ? { resources: { limits: { cpu: opts.cpu } } } : {}),
        },
      },
    },
  };
  const config = runtimeConfig(isvc);
  return { isvc, config, task: inferTask(config) };
}

describe('planInference', () => {
  it('gives one model every CPU, in a worker thread, spinning off: a float graph as one session up to 4 threads, then replicas of about 4 threads sharing one packed copy', () => {
    const plan = planInference([service('ner')], { threads: 4 }, BUDGET);
    expect(plan).toMatchObject({ threads: 4, source: 'option', warnings: [] });
    expect(plan.models).toEqual([{ threads: 4, worker: true, spinning: false, onnxVariant: 'default', replicaThreads: [4] }]);
    const float = (threads: number) => planInference([service('ner')], { threads }, BUDGET).models[0]?.replicaThreads;
    expect([1, 2, 3].map(float)).toEqual([[1], [2], [3]]);
    expect(float(4)).toEqual([4]);
    expect(float(5)).toEqual([3, 2]);
    expect(float(16)).toEqual([4, 4, 4, 4]);
    // Spare threads go to the first replicas.
    expect(float(18)).toEqual([4, 4, 4, 3, 3]);
    expect(float(64)).toEqual(Array(16).fill(4));
    expect(planInference([service('ner')], {}, BUDGET).models[0]).toEqual({ threads: 8, worker: true, spinning: false, onnxVariant: 'default', replicaThreads: [4, 4], latencyThreads: 8 });
    // --replicas asks for replicas of a float graph.
    expect(planInference([service('ner')], { replicas: 4 }, BUDGET).models[0]).toEqual({ threads: 8, worker: true, spinning: false, onnxVariant: 'default', replicaThreads: [2, 2, 2, 2], latencyThreads: 8 });
  });

  it('an int8 graph (--quantized or the onnx-variant annotation) gets one replica per thread up to four, plus a latency session', () => {
    const plan = planInference([service('ner')], { quantized: true }, BUDGET);
    // Eight threads go to four 2-thread session replicas (at most four unasked), plus an 8-thread session for lone requests.
    expect(plan.models).toEqual([{ threads: 8, worker: true, spinning: false, onnxVariant: 'quantized', replicaThreads: [2, 2, 2, 2], latencyThreads: 8 }]);
    const annotated = service('ner', { annotations: { 'serving.inferkit.dev/onnx-variant': 'quantized' } });
    expect(planInference([annotated], { threads: 2 }, BUDGET).models[0]).toEqual({ threads: 2, worker: true, spinning: false, onnxVariant: 'quantized', replicaThreads: [1, 1], latencyThreads: 2 });
  });

  it('shares an int8 model\'s threads among session replicas: one per thread up to four, spare threads to the first ones; replicas (serve --replicas) overrides', () => {
    const split = (threads: number, replicas?: number) =>
      planInference([service('ner')], { threads, quantized: true, ...(replicas !== undefined ? { replicas } : {}) }, BUDGET).models[0]?.replicaThreads;
    expect(split(1)).toEqual([1]);
    expect(split(2)).toEqual([1, 1]);
    expect(split(4)).toEqual([1, 1, 1, 1]);
    expect(split(6)).toEqual([2, 2, 1, 1]);
    expect(split(7)).toEqual([2, 2, 2, 1]);
    expect(split(2, 1)).toEqual([2]);
    expect(split(8, 3)).toEqual([3, 3, 2]);
    // Never more replicas than threads.
    expect(split(2, 5)).toEqual([1, 1]);
    // Sessions in the main thread keep one session.
    expect(planInference([service('ner')], { workerThreads: false }, BUDGET).models[0]?.replicaThreads).toBeUndefined();
    expect(() => planInference([service('a')], { replicas: 0 }, BUDGET)).toThrow(/replicas must be a positive integer/);
    // The latency session: only beside replicas with fewer threads than the share, and not when turned off.
    const latency = (threads: number, o: { replicas?: number; latencySession?: boolean } = {}) => planInference([service('ner')], { threads, quantized: true, ...o }, BUDGET).models[0]?.latencyThreads;
    expect(latency(2)).toBe(2);
    expect(latency(1)).toBeUndefined();
    expect(latency(2, { replicas: 1 })).toBeUndefined();
    expect(latency(2, { latencySession: false })).toBeUndefined();
  });

  it('shares the CPUs among ONNX models and worker baselines, caps by resources.limits.cpu ("500m", "2"), and skips cheap baselines', () => {
    const plan = planInference(
      [
        service('a', { cpu: '500m' }),
        service('b', { cpu: '2' }),
        service('c'),
        service('theta', { args: ['--model_id=theta', '--task=time_series_forecast'] }),
        service('naive', { args: ['--model_id=baseline/seasonal-naive', '--task=time_series_forecast'] }),
      ],
      {},
      BUDGET,
    );
    // Theta (like AutoETS and MSTL) runs in worker threads on its share; seasonal naive is too cheap to.
    expect(plan.models.map((m) => m?.threads)).toEqual([1, 2, 3, 2, undefined]);
    expect(plan.models.map((m) => m?.cpuLimit)).toEqual([0.5, 2, undefined, undefined, undefined]);
  });

  it('threads (serve --threads) override the CPU count; workerThreads and spinning are passed on', () => {
    const plan = planInference([service('a'), service('b')], { threads: 3, workerThreads: false, spinning: true }, BUDGET);
    expect(plan).toMatchObject({ threads: 3, source: 'option' });
    expect(plan.models).toEqual([
      { threads: 2, worker: false, spinning: true, onnxVariant: 'default' },
      { threads: 1, worker: false, spinning: true, onnxVariant: 'default' },
    ]);
    expect(() => planInference([service('a')], { threads: 0 }, BUDGET)).toThrow(/threads must be a positive integer/);
  });

  it('an unreadable CPU limit is a warning naming the service, not a failure', () => {
    const plan = planInference([service('a', { cpu: 'lots' })], {}, BUDGET);
    expect(plan.models[0]?.threads).toBe(8);
    expect(plan.warnings).toEqual([expect.stringContaining('service a: resources.limits.cpu: expected a CPU quantity')]);
  });
});

describe('onnxVariant', () => {
  it('reads the annotation, else --onnx_variant, else serve --quantized', () => {
    const s = (o: Parameters<typeof service>[1]) => service('ner', o);
    const v = (p: PlannedService, force = false) => onnxVariant(p.isvc, p.config as NonNullable<PlannedService['config']>, force);
    expect(v(s({ annotations: { 'serving.inferkit.dev/onnx-variant': 'quantized' } }))).toBe('quantized');
    expect(v(s({ args: ['--model_id=org/ner', '--task=token_classification', '--onnx_variant=int8'] }))).toBe('quantized');
    expect(v(s({}))).toBe('default');
    expect(v(s({}), true)).toBe('quantized');
    expect(planInference([s({})], { quantized: true }, BUDGET).models[0]?.onnxVariant).toBe('quantized');
  });

  it('refuses another value, naming the annotation', () => {
    const p = service('ner', { annotations: { 'serving.inferkit.dev/onnx-variant': 'fp16' } });
    expect(() => onnxVariant(p.isvc, p.config as NonNullable<PlannedService['config']>)).toThrow(
      /annotation serving\.inferkit\.dev\/onnx-variant: expected "quantized".*got "fp16"/,
    );
  });

  it('a manifest carrying the annotation, --onnx_variant and a CPU limit is valid against KServe\'s CRD schema', async () => {
    const withArg = MANIFEST.replace('--task=token_classification]', '--task=token_classification, --onnx_variant=quantized]');
    for (const text of [MANIFEST, withArg]) {
      const result = await validateManifest(text);
      expect(result.errors).toEqual([]);
    }
    const [isvc] = fromYaml(MANIFEST) as InferenceService[];
    const config = runtimeConfig(isvc);
    const plan = planInference([{ isvc, config, task: inferTask(config) }], {}, BUDGET);
    expect(plan.models[0]).toEqual({ threads: 1, worker: true, spinning: false, cpuLimit: 0.5, onnxVariant: 'quantized', replicaThreads: [1] });
  });
});

describe('session replicas of Chronos-Bolt and per service (annotation serving.inferkit.dev/replicas)', () => {
  const BOLT = ['--model_id=amazon/chronos-bolt-tiny', '--task=time_series_forecast'];
  const bolt = (annotations?: Record<string, string>) => service('bolt', { args: BOLT, ...(annotations ? { annotations } : {}) });

  it('Chronos-Bolt services in worker threads get one session unless replicas are asked for, then replicas and a latency session as token classification does; baselines never', () => {
    expect(planInference([bolt()], { threads: 2 }, BUDGET).models[0]).toEqual({ threads: 2, worker: true, spinning: false, replicaThreads: [2] });
    expect(planInference([bolt()], { threads: 2, replicas: 2 }, BUDGET).models[0]).toEqual({ threads: 2, worker: true, spinning: false, replicaThreads: [1, 1], latencyThreads: 2 });
    expect(planInference([bolt()], { threads: 8, replicas: 4 }, BUDGET).models[0]?.replicaThreads).toEqual([2, 2, 2, 2]);
    expect(planInference([bolt({ [REPLICAS_ANNOTATION]: '2' })], { threads: 2 }, BUDGET).models[0]?.replicaThreads).toEqual([1, 1]);
    expect(planInference([bolt()], { threads: 2, replicas: 1 }, BUDGET).models[0]).toEqual({ threads: 2, worker: true, spinning: false, replicaThreads: [2] });
    expect(planInference([bolt()], { threads: 2, replicas: 2, latencySession: false }, BUDGET).models[0]?.latencyThreads).toBeUndefined();
    expect(planInference([bolt()], { threads: 2, workerThreads: false }, BUDGET).models[0]?.replicaThreads).toBeUndefined();
    for (const id of ['theta', 'auto-ets', 'MSTL', 'baseline/ets']) {
      const plan = planInference([service('b', { args: [`--model_id=${id}`, '--task=time_series_forecast'] })], { threads: 2 }, BUDGET);
      expect(plan.models[0]).toEqual({ threads: 2, worker: true, spinning: false });
    }
  });

  it('the annotation overrides the server-wide replicas for its service alone (at most one per thread)', () => {
    const plan = planInference([bolt({ [REPLICAS_ANNOTATION]: '1' }), service('ner', { annotations: { [REPLICAS_ANNOTATION]: ' 3 ' } }), bolt()], { threads: 12, replicas: 2 }, BUDGET);
    expect(plan.models.map((m) => m?.replicaThreads)).toEqual([[4], [2, 1, 1], [2, 2]]);
    expect(planInference([bolt({ [REPLICAS_ANNOTATION]: '9' })], { threads: 2 }, BUDGET).models[0]?.replicaThreads).toEqual([1, 1]);
    expect(serviceReplicas(bolt().isvc)).toBeUndefined();
    expect(serviceReplicas(bolt({ [REPLICAS_ANNOTATION]: '2' }).isvc)).toBe(2);
  });

  it('refuses anything but a positive integer, naming the annotation (the plan leaves the service to fail at load)', () => {
    for (const bad of ['0', '-1', '1.5', 'two', '', '2x']) {
      const p = bolt({ [REPLICAS_ANNOTATION]: bad });
      expect(() => serviceReplicas(p.isvc)).toThrow(expect.objectContaining({ code: 'config', param: REPLICAS_ANNOTATION, message: expect.stringContaining(`annotation ${REPLICAS_ANNOTATION}: expected a positive integer`) }));
      expect(planInference([p], { threads: 2, replicas: 1 }, BUDGET).models[0]?.replicaThreads).toEqual([2]);
    }
  });

  it('a manifest carrying the annotation is valid against KServe\'s CRD schema', async () => {
    const text = MANIFEST.replace('serving.inferkit.dev/onnx-variant: quantized', `serving.inferkit.dev/onnx-variant: quantized\n    ${REPLICAS_ANNOTATION}: "2"`).replace('cpu: 500m', 'cpu: "2"');
    expect((await validateManifest(text)).errors).toEqual([]);
    const [isvc] = fromYaml(text) as InferenceService[];
    const config = runtimeConfig(isvc);
    expect(planInference([{ isvc, config, task: inferTask(config) }], { replicas: 1 }, BUDGET).models[0]?.replicaThreads).toEqual([1, 1]);
  });
});
