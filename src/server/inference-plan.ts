import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { baselineOf } from '../manifest/baseline-args.js';
import type { RuntimeConfig } from '../manifest/runtime-config.js';
import { availableCpus, parseCpuQuantity, planThreads, type CpuBudget } from '../runtime/cpu-budget.js';
import { evenSizes } from '../runtime/even-sizes.js';
import type { ServeTask } from '../manifest/model-task.js';
import { onnxVariant, serviceReplicas, type OnnxVariant } from '../manifest/serving-annotations.js';

/** How the server runs inference, chosen once at start. */
export interface InferenceOptions {
  /** Intra-op threads shared by all ONNX models of the server. @default the CPUs the process may use (affinity, cgroup quota) */
  threads?: number;
  /** Run ONNX sessions in worker threads, off the event loop. @default true */
  workerThreads?: boolean;
  /** Let ORT's idle intra-op threads spin (see `SessionOptions.spinning`). @default false */
  spinning?: boolean;
  /** Serve every token-classification model's `onnx/model_quantized.onnx` (`inferkit serve --quantized`). @default false */
  quantized?: boolean;
  /**
   * Session replicas per token-classification or Chronos-Bolt model (worker threads each; the model's threads are
   * shared out among them). `1` = one session with all its threads: the fastest single request, and one
   * (prepacked) copy of the weights.
   * @default an int8 token-classification graph (the quantized variant): up to {@link MAX_DEFAULT_REPLICAS}, one
   * per thread of the model's share; a float one: 1 up to 4 threads, then one per 4 threads; Chronos-Bolt: 1 (see {@link defaultReplicas})
   */
  replicas?: number;
  /**
   * With replicas of fewer threads than the model's share, one more session with all of them for
   * lone requests (see `SessionOptions.latencyThreads`; it maps the replicas' copy of float weights). @default true
   */
  latencySession?: boolean;
  /**
   * Raise the event loop thread's nice value by this much once every model has loaded (Linux, where it is per
   * thread; see src/server/event-loop-priority/): under saturation the sessions' threads win the cores.
   * @default 0 (the caller's thread is left alone; `inferkit serve`: 10)
   */
  eventLoopNice?: number;
}

/**
 * Most replicas the server gives an int8 token-classification model unasked. On int8, replicas with one thread
 * each beat one many-thread session on throughput (bench/RESULTS.md); each keeps its own prepacked copy of the
 * (small) weights. Past four, threads are added to the replicas instead.
 */
export const MAX_DEFAULT_REPLICAS = 4;

/**
 * Most threads the default plan gives one session of a float token-classification graph: a share up to this many is
 * one session; a larger one is shared out among replicas of about this many threads each.
 */
export const FLOAT_SESSION_MAX_THREADS = 4;

/**
 * Replicas a model gets unless asked, given its share of `threads`: an int8 token classifier,
 * {@link MAX_DEFAULT_REPLICAS}; a float one, one session while the share is at most {@link FLOAT_SESSION_MAX_THREADS}
 * threads, else one replica per {@link FLOAT_SESSION_MAX_THREADS} threads (16 threads: 4 × 4), all mapping one packed
 * copy of the weights (src/runtime/shared-weights/packed-graph.ts), plus the latency session with all of them for lone
 * requests; everything else one session.
 *
 * Served on a 16-core host (bench/server-plans.ts, BERT-base, docs/gpu.md "The server on a many-core host"), 4 × 4
 * beat one-thread replicas (16 × 1) on short texts (14 tokens: 0.79× against 0.50× of the limit at c=32, 0.44× against
 * 0.29× at c=8) and long ones (62 tokens: 0.98× against 0.80×), and one 16-thread session on long ones (0.71×). With
 * the shared packed copy (docs/gpu.md "The default plan served on 16 cores…") 4 × 4 read 0.96–1.18× on short texts and
 * 0.87–1.14× on long ones, at 1.00–1.32× the weights; 8 × 2 was no better (0.92–1.08×, 1.06–1.12×).
 * On 4 cores one session is within 0.91× of four replicas and answers a lone request in a quarter of the time.
 * Chronos-Bolt: on single-series load replicas did not beat one session (bench/RESULTS.md round 5).
 */
export function defaultReplicas(task: ServeTask | undefined, variant: OnnxVariant | undefined, threads = 1): number {
  if (task !== 'token_classification') {
    return 1;
  }
  if (variant === 'quantized') {
    return MAX_DEFAULT_REPLICAS;
  }
  return threads <= FLOAT_SESSION_MAX_THREADS ? 1 : Math.ceil(threads / FLOAT_SESSION_MAX_THREADS);
}

/** Replicas of a model with `threads`, and the latency session when its replicas have fewer threads than it. */
function replicaPlan(threads: number, replicas: number, latencySession: boolean): Pick<ModelInference, 'replicaThreads' | 'latencyThreads'> {
  const split = replicaThreads(threads, replicas);
  const latency = latencySession && split.length > 1 && Math.max(...split) < threads;
  return { replicaThreads: split, ...(latency ? { latencyThreads: threads } : {}) };
}

/** `threads` shared out among `replicas` replicas (at most one per thread), the first ones getting the spare threads. */
export function replicaThreads(threads: number, replicas: number): number[] {
  return evenSizes(Math.max(1, threads), Math.max(1, replicas));
}

/** What one model runs with (shown in `/inferkit/v1/services` and the CLI's startup lines). */
export interface ModelInference {
  /** Intra-op threads of its ONNX session, or worker threads of a Theta/AutoETS/MSTL baseline. */
  threads: number;
  /** The session runs in a worker thread. */
  worker: boolean;
  /** ORT intra-op spinning. */
  spinning: boolean;
  /** The manifest's `resources.limits.cpu` in CPUs, when set. */
  cpuLimit?: number;
  /** Graph variant (token classification). */
  onnxVariant?: OnnxVariant;
  /** Intra-op threads of each session replica (token classification and Chronos-Bolt in worker threads); one entry = one session. */
  replicaThreads?: number[];
  /** Threads of the latency session beside the replicas (lone requests), when there is one. */
  latencyThreads?: number;
}

/** The server's inference plan: the CPU budget and each model's share, in manifest order. */
export interface InferencePlan {
  /** Threads shared out, and where the number came from (`option` = `threads` given). */
  threads: number;
  source: CpuBudget['source'] | 'option';
  cpus: CpuBudget;
  models: Array<ModelInference | undefined>;
  /** Problems with a manifest's CPU limit (ignored), one sentence each. */
  warnings: string[];
}

/** One service as the planner sees it. */
export interface PlannedService {
  isvc: InferenceService;
  config: RuntimeConfig | undefined;
  task: ServeTask | undefined;
}

/**
 * True for forecast model ids served by a cheap offline baseline in the main thread (no ONNX
 * session, no cores). Theta, AutoETS and MSTL are not: they run in worker threads on the model's
 * share of the CPUs.
 */
export function isBaselineModelId(id: string): boolean {
  const baseline = baselineOf(id);
  return baseline === 'seasonal-naive' || baseline === 'naive';
}

/** Whether a service runs ONNX sessions that can be replicated: token classification, and Chronos-Bolt forecasting. */
function hasReplicableSession(s: PlannedService): boolean {
  if (s.task === 'token_classification') {
    return true;
  }
  // Theta, AutoETS and MSTL run in worker threads of their own (no ONNX session to replicate).
  return s.task === 'time_series_forecast' && baselineOf(s.config?.modelId) === undefined;
}

/** The service's own replica count (annotation), when valid; a bad one fails the service at load, not the plan. */
function ownReplicas(s: PlannedService): number | undefined {
  try {
    return serviceReplicas(s.isvc);
  } catch {
    return undefined;
  }
}

function usesCores(s: PlannedService): boolean {
  if (s.config === undefined || s.task === undefined) {
    return false;
  }
  return s.task === 'token_classification' || !isBaselineModelId(s.config.modelId ?? '');
}

/**
 * Shares the server's threads among its ONNX models (see `planThreads`): `options.threads`, else the
 * CPUs the process may use; each model capped by its manifest's `resources.limits.cpu`.
 */
export function planInference(services: readonly PlannedService[], options: InferenceOptions = {}, budget: CpuBudget = availableCpus()): InferencePlan {
  if (options.threads !== undefined && (!Number.isInteger(options.threads) || options.threads < 1)) {
    throw new InferkitError('config', `threads must be a positive integer, got ${options.threads}`, { param: 'threads' });
  }
  if (options.replicas !== undefined && (!Number.isInteger(options.replicas) || options.replicas < 1)) {
    throw new InferkitError('config', `replicas must be a positive integer, got ${options.replicas}`, { param: 'replicas' });
  }
  const total = options.threads ?? budget.cpus;
  const warnings: string[] = [];
  const limits = services.map((s) => {
    const cpu = s.config?.resources?.limits?.cpu;
    if (cpu === undefined) {
      return undefined;
    }
    try {
      return parseCpuQuantity(cpu as string | number);
    } catch (e) {
      warnings.push(`service ${s.isvc.metadata.name}: ${(e as Error).message}; no CPU cap applied`);
      return undefined;
    }
  });
  const threads = planThreads(total, services.map((s, i) => ({ cap: limits[i], usesCores: usesCores(s) })));
  const worker = options.workerThreads !== false;
  const spinning = options.spinning === true;
  const models = services.map((s, i): ModelInference | undefined => {
    if (!usesCores(s)) {
      return undefined;
    }
    let variant: OnnxVariant | undefined;
    if (s.task === 'token_classification' && s.config !== undefined) {
      try {
        variant = onnxVariant(s.isvc, s.config, options.quantized === true);
      } catch {
        variant = undefined; // the loader reports it as the model's load error
      }
    }
    const limit = limits[i];
    const replicas = ownReplicas(s) ?? options.replicas ?? defaultReplicas(s.task, variant, threads[i]);
    const split = worker && hasReplicableSession(s) && threads[i] > 0 ? replicaPlan(threads[i], replicas, options.latencySession !== false) : {};
    return { threads: threads[i], worker, spinning, ...(limit !== undefined ? { cpuLimit: limit } : {}), ...(variant ? { onnxVariant: variant } : {}), ...split };
  });
  return { threads: total, source: options.threads !== undefined ? 'option' : budget.source, cpus: budget, models, warnings };
}
