import type { InferenceService, InferenceServiceStatus } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { runtimeConfig, type RuntimeConfig } from '../manifest/runtime-config.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { hostOfUrl, type HostScope } from './host-routing.js';
import { isRetryableLoadError, retryDelayMs, sleep, type LoadRetry } from './load-retry.js';
import { redactPaths } from './redact-paths.js';
import { serviceReplicas } from '../manifest/serving-annotations.js';
import { planInference, type InferenceOptions, type InferencePlan, type ModelInference } from './inference-plan.js';
import type { ModelLoaders, ServeTask, ServedModel } from './model-loader.js';
import { mergingForecastModel } from './merging-forecast-model.js';
import { inferTask } from '../manifest/model-task.js';
import { unimplementedArgWarnings } from '../manifest/runtime-args-report.js';
import type { BatcherOptions } from './batcher.js';
import { createTokenRunner, type TokenRunner } from './token-runner.js';
import { maskSecretText } from '../manifest/secret-text.js';
import { measureModelLoad } from '../runtime/model-memory/measure-model-load.js';
import type { ModelMemory } from '../runtime/model-memory/model-memory.js';
import type { ModelGraphInfo } from '../checkpoint/resolve-model-graph.js';

/** Public view of one served model. */
export interface ModelState {
  /** Served model name (`--model_name`, default metadata.name). */
  name: string;
  /** InferenceService name and namespace. */
  service: string;
  namespace: string;
  /** Host the ingress routes on (host of `status.url`). */
  host: string;
  /** `status.url`. */
  url: string;
  /** Task served; undefined when it could not be decided. */
  task: ServeTask | undefined;
  /** Protocol of the inference route. */
  protocol: 'v1' | 'v2';
  /** `loading` until the loader settles. */
  phase: 'loading' | 'ready' | 'failed';
  /** True when the model answers. */
  ready: boolean;
  /** Why it is not ready (load error message), when failed. */
  reason: string | undefined;
  /** KServe-style status (`url`, `Ready` condition, predictor revision and traffic). */
  status: InferenceServiceStatus;
  /** Runtime args inferkit ignored (not implemented), one sentence each; absent when none. */
  warnings?: string[];
  /** While a failed load waits to be retried (or is being retried): the next attempt, out of how many, and when. */
  retry?: LoadRetryState;
  /** Threads, worker thread, spinning and graph variant of its ONNX session; absent for models without one. */
  inference?: ModelInference;
  /** Its memory at load (see {@link ModelMemory}): RSS/PSS growth while its tokenizer and sessions loaded, alone, and its weights' size; absent until loaded, or when its loader opened no session. */
  memory?: ModelMemory;
  /** Where its graph came from: a published ONNX file, or built from the checkpoint's weights file (see {@link ModelGraphInfo}); absent until loaded, or for a model without a graph (the baselines). */
  graph?: ModelGraphInfo;
}

/** A pending retry of a failed load. */
export interface LoadRetryState {
  /** The attempt to come (2 for the first retry). */
  attempt: number;
  /** Attempts in all. */
  of: number;
  /** When it starts (ISO 8601). */
  at: string;
}

/** One failed load attempt, as reported to {@link ModelRegistryOptions.onLoadFailure}. */
export interface LoadFailure {
  model: string;
  service: string;
  namespace: string;
  /** The error's full message (file paths included: for the log, not for HTTP answers). */
  message: string;
  attempt: number;
  attempts: number;
  /** Wait before the next attempt; undefined when the failure is final. */
  retryInMs: number | undefined;
}

/** Internal record of one served model: the public fields (less the derived ones) and what serves it. */
export interface ModelEntry extends Omit<ModelState, 'ready' | 'status'> {
  isvc: InferenceService;
  config: RuntimeConfig | undefined;
  model: ServedModel | undefined;
  tokens: TokenRunner | undefined;
  since: string;
}

/** Options of the registry. */
export interface ModelRegistryOptions {
  /** Serving domain of default service URLs. */
  domain: string;
  /** Batching limits for each model (texts per token-classification call, series per forecast call). */
  batching: BatcherOptions;
  /** Observes each model call's merged size. */
  onBatch?: (model: string, items: number, requests: number) => void;
  /** How failed loads are retried. @default one attempt, no retry */
  loadRetry?: LoadRetry;
  /** Observes every failed load attempt. */
  onLoadFailure?: (failure: LoadFailure) => void;
  /** Threads, worker threads, spinning, int8 (see {@link planInference}). */
  inference?: InferenceOptions;
}

/**
 * The served models: one entry per InferenceService, loaded in the background, looked up by Host
 * and name. A model that fails to load stays listed as failed with its reason.
 */
export class ModelRegistry {
  readonly entries: ModelEntry[];
  readonly hosts: ReadonlySet<string>;
  /** How inference runs: the thread budget and each model's share. */
  readonly plan: InferencePlan;
  private readonly abort = new AbortController();
  private readonly pending = new Set<Promise<void>>();

  constructor(manifests: readonly InferenceService[], private readonly options: ModelRegistryOptions) {
    this.entries = manifests.map((isvc) => makeEntry(isvc, options.domain));
    const seen = new Map<string, string>();
    for (const e of this.entries) {
      const other = seen.get(e.host);
      if (other !== undefined) {
        throw new InferkitError('config', `services ${other} and ${e.namespace}/${e.service} both have host ${e.host}; give them different names or namespaces`);
      }
      seen.set(e.host, `${e.namespace}/${e.service}`);
    }
    this.hosts = new Set(seen.keys());
    this.plan = planInference(this.entries, options.inference);
    this.entries.forEach((e, i) => {
      const inference = this.plan.models[i];
      if (inference !== undefined) {
        e.inference = inference;
      }
    });
  }

  /** Starts loading every model that is not already failed; returns at once. */
  start(loaders: ModelLoaders): void {
    for (const entry of this.entries) {
      if (entry.phase !== 'loading') {
        continue;
      }
      const p = this.load(entry, loaders).finally(() => this.pending.delete(p));
      this.pending.add(p);
    }
  }

  /** Resolves when every model has loaded or failed. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.all([...this.pending]);
    }
  }

  /** Models reachable from a Host scope. */
  inScope(scope: HostScope): ModelEntry[] {
    if (scope.kind === 'unknown') {
      return [];
    }
    return scope.kind === 'service' ? this.entries.filter((e) => e.host === scope.host) : this.entries;
  }

  /** The model `name` within a Host scope; throws `model_not_found` (unknown Host or name) or `invalid_request` (ambiguous). */
  find(scope: HostScope, name: string): ModelEntry {
    if (scope.kind === 'unknown') {
      throw new InferkitError('model_not_found', `no InferenceService is served at host "${scope.host}"; list the services with GET /inferkit/v1/services`);
    }
    const matches = this.inScope(scope).filter((e) => e.name === name);
    if (matches.length === 1) {
      return matches[0];
    }
    if (matches.length > 1) {
      throw new InferkitError('invalid_request', `model "${name}" is served by several services (${matches.map((m) => m.host).join(', ')}); send the Host header of one`);
    }
    const elsewhere = this.entries.find((e) => e.name === name);
    const hint = elsewhere && scope.kind === 'service' ? ` (it is served at host "${elsewhere.host}")` : '';
    throw new InferkitError('model_not_found', `model "${name}" is not served here${hint}`, { param: 'model' });
  }

  /** Public states, in manifest order. */
  states(): ModelState[] {
    return this.entries.map(toState);
  }

  /** Stops pending loads and disposes loaded models (after the HTTP server has drained). */
  async close(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.pending]);
    await Promise.allSettled(this.entries.map((e) => e.model?.dispose?.()));
  }

  /**
   * Loads a model, retrying a failure that may go away (network, hub, I/O) with exponential
   * backoff; between attempts the model is failed with its reason and `retry` says what comes next.
   */
  private async load(entry: ModelEntry, loaders: ModelLoaders): Promise<void> {
    const retry = this.options.loadRetry ?? { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 };
    for (let attempt = 1; attempt <= retry.attempts && !this.abort.signal.aborted; attempt++) {
      try {
        await this.loadOnce(entry, loaders);
        entry.retry = undefined;
        return;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const last = attempt >= retry.attempts || !isRetryableLoadError(e) || this.abort.signal.aborted;
        const retryInMs = last ? undefined : retryDelayMs(retry, attempt);
        setPhase(entry, 'failed', redactPaths(message));
        entry.retry = retryInMs === undefined ? undefined : { attempt: attempt + 1, of: retry.attempts, at: new Date(Date.now() + retryInMs).toISOString() };
        this.options.onLoadFailure?.({ model: entry.name, service: entry.service, namespace: entry.namespace, message: maskSecretText(message), attempt, attempts: retry.attempts, retryInMs });
        if (retryInMs === undefined) {
          return;
        }
        await sleep(retryInMs, this.abort.signal);
      }
    }
    entry.retry = undefined;
  }

  private async loadOnce(entry: ModelEntry, loaders: ModelLoaders): Promise<void> {
    const task = entry.task as ServeTask;
    const loader = loaders[task];
    if (loader === undefined) {
      throw new InferkitError('unsupported', `no loader for task ${task}; this server has loaders for: ${Object.keys(loaders).join(', ') || 'none'}`);
    }
    const context = { isvc: entry.isvc, config: entry.config as RuntimeConfig, task, signal: this.abort.signal };
    // Loads run side by side, but each one's sessions open (and warm up) alone, so that the process's growth meanwhile is its memory.
    const { value: model, memory } = await measureModelLoad(() => loader(entry.inference ? { ...context, inference: entry.inference } : context));
    if (model.task !== task) {
      await model.dispose?.();
      throw new InferkitError('model_load_failed', `loader for ${task} returned a ${model.task} model`);
    }
    if (this.abort.signal.aborted) {
      await model.dispose?.();
      return;
    }
    const onBatch = this.options.onBatch;
    const batching = {
      ...this.options.batching,
      // Sessions in workers: a merged call per replica, plus the next one prepared while they run (models with a
      // run queue below: as many as come).
      ...(entry.inference?.worker === true ? { maxConcurrentCalls: (entry.inference.replicaThreads?.length ?? 1) + 1 } : {}),
      onBatch: onBatch ? (items: number, requests: number) => onBatch(entry.name, items, requests) : undefined,
    };
    entry.model = model;
    entry.memory = memory;
    if (model.graph !== undefined) {
      entry.graph = model.graph;
    }
    // A model with a run queue (token classifiers, Chronos-Bolt, TimesFM): every turn's requests go out as a call at
    // once; the queue packs the runs from everything waiting (issue #25: the same rates as the gating it replaced,
    // within noise).
    const callsOf = (sharesRunQueue: boolean | undefined): BatcherOptions => (sharesRunQueue === true ? { ...batching, maxConcurrentCalls: QUEUED_CALLS } : batching);
    if (model.task === 'token_classification') {
      entry.tokens = createTokenRunner(entry.name, model, callsOf(model.sharesRunQueue));
    } else if (model.model !== undefined) {
      const inner = model.model;
      entry.model = { ...model, forecaster: localForecaster(mergingForecastModel(inner, callsOf(inner.sharesRunQueue))) };
    }
    setPhase(entry, 'ready', undefined);
  }
}

/** Merged calls of a run-queue model (classifier or forecaster) in flight at most: past that, requests wait in the batcher (each call holds at most maxBatchSize texts). */
const QUEUED_CALLS = 64;

function setPhase(entry: ModelEntry, phase: ModelEntry['phase'], reason: string | undefined): void {
  entry.phase = phase;
  entry.reason = reason;
  entry.since = new Date().toISOString();
}

function makeEntry(isvc: InferenceService, domain: string): ModelEntry {
  const service = isvc.metadata.name;
  const namespace = isvc.metadata.namespace ?? 'default';
  const url = isvc.status?.url ?? `http://${service}.${namespace}.${domain}`;
  const base = { isvc, service, namespace, url, host: hostOfUrl(url), model: undefined, tokens: undefined, since: new Date().toISOString() };
  try {
    const config = runtimeConfig(isvc);
    const task = inferTask(config);
    serviceReplicas(isvc); // a bad replica count fails the service, naming the annotation
    const warnings = unimplementedArgWarnings(config.args, task);
    return { ...base, config, task, name: config.modelName, protocol: config.protocol, phase: 'loading', reason: undefined, ...(warnings.length > 0 ? { warnings } : {}) };
  } catch (e) {
    const reason = maskSecretText(e instanceof Error ? e.message : String(e));
    const protocol = isvc.spec.predictor.model?.protocolVersion === 'v2' ? 'v2' : 'v1';
    return { ...base, config: undefined, task: undefined, name: service, protocol, phase: 'failed', reason };
  }
}

function toState(e: ModelEntry): ModelState {
  const ready = e.phase === 'ready';
  const condition = (type: string) => ({
    type,
    status: ready ? 'True' : e.phase === 'failed' ? 'False' : 'Unknown',
    ...(e.phase === 'loading' ? { reason: 'Loading', message: 'model is loading' } : {}),
    ...(e.phase === 'failed' ? { reason: 'ModelLoadFailed', message: `${e.reason ?? 'load failed'}${e.retry ? `; retry ${e.retry.attempt} of ${e.retry.of} at ${e.retry.at}` : ''}` } : {}),
    ...(ready && e.warnings ? { reason: 'IgnoredRuntimeArgs', message: e.warnings.join('; ') } : {}),
    lastTransitionTime: e.since,
  }) as const;
  const revision = `${e.service}-predictor-00001`;
  const status: InferenceServiceStatus = {
    ...(e.isvc.status ?? {}),
    url: e.url,
    address: { url: `http://${e.service}.${e.namespace}.svc.cluster.local` },
    conditions: [condition('PredictorReady'), condition('Ready')],
    components: {
      predictor: {
        url: e.url,
        latestCreatedRevision: revision,
        ...(ready ? { latestReadyRevision: revision, latestRolledoutRevision: revision } : {}),
        traffic: [{ revisionName: revision, percent: 100, latestRevision: true }],
      },
    },
  };
  return {
    name: e.name,
    service: e.service,
    namespace: e.namespace,
    host: e.host,
    url: e.url,
    task: e.task,
    protocol: e.protocol,
    phase: e.phase,
    ready,
    reason: e.reason,
    status,
    ...(e.warnings ? { warnings: [...e.warnings] } : {}),
    ...(e.retry ? { retry: { ...e.retry } } : {}),
    ...(e.inference ? { inference: { ...e.inference } } : {}),
    ...(e.memory ? { memory: { ...e.memory, phase: { ...e.memory.phase } } } : {}),
    ...(e.graph ? { graph: { ...e.graph } } : {}),
  };
}
