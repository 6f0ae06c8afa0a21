import type { ResolveModelOptions } from '../hub/types.js';
import { InferkitError } from '../errors.js';
import { baselineOf } from '../manifest/baseline-args.js';
import { unusedArgProblems } from '../manifest/serve-checks.js';
import type { RuntimeConfig } from '../manifest/runtime-config.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import type { SessionOptions } from '../runtime/ort.js';
import type { ForecastModel } from '../runtime/forecast/forecast-model.js';
import { loadForecastModel } from '../runtime/forecast/load-forecast-model.js';
import { createBaseline, type BaselineKind, type BaselineSpec } from '../runtime/forecast/baseline-spec.js';
import { MIN_AUTO_ETS_CONTEXT } from '../runtime/forecast/ets/auto-ets.js';
import { startWorkerBaseline } from '../runtime/worker/worker-baseline.js';
import { enterMemoryPhase } from '../runtime/model-memory/measure-model-load.js';
import { loadTokenClassifier } from '../runtime/token-classification/load-token-classifier.js';
import type { TokenClassifier } from '../runtime/token-classification/token-classifier.js';
import { builtinModels } from './builtin-models.js';
import { onnxVariant } from '../manifest/serving-annotations.js';
import { graphSourceOf } from './graph-source-arg.js';
import type { ModelInference } from './inference-plan.js';
import type { ForecastServedModel, ModelLoaders, ServeTask, TokenClassificationModel } from './model-loader.js';

/** Options of {@link defaultLoaders}: where models come from and how they run. */
export interface DefaultLoaderOptions extends Partial<Omit<ResolveModelOptions, 'files' | 'signal'>> {
  /** ONNX Runtime session options (threads, execution provider); they win over the server's plan. @default the server's plan (its share of the CPUs, worker thread), cpu */
  session?: SessionOptions;
}

/**
 * Options a service may pass to a baseline: `--season=N`, for MSTL `--seasonal_periods=48,336`,
 * for AutoETS `--max_context=N` (the most recent values it fits).
 */
interface BaselineArgs {
  name: string;
  season?: number;
  periods?: number[];
  maxContext?: number;
}

/** Session options of the server's plan for one model, overridden by the loader's own. */
function sessionFor(inference: ModelInference | undefined, own: SessionOptions | undefined): SessionOptions | undefined {
  if (inference === undefined) {
    return own;
  }
  const planned: SessionOptions = {
    worker: inference.worker,
    spinning: inference.spinning,
    ...(inference.threads > 0 ? { intraOpThreads: inference.threads } : {}),
    ...(inference.replicaThreads !== undefined && (own?.intraOpThreads === undefined || own.replicaThreads !== undefined) ? { replicaThreads: inference.replicaThreads } : {}),
    ...(inference.latencyThreads !== undefined && own?.intraOpThreads === undefined ? { latencyThreads: inference.latencyThreads } : {}),
  };
  return { ...planned, ...own };
}

/** The baseline a service names, with its `--season` (for MSTL `--seasonal_periods`, for AutoETS `--max_context`). */
function baselineSpec(kind: BaselineKind, { name, season, periods, maxContext }: BaselineArgs): BaselineSpec {
  if (kind === 'auto-ets') {
    return { kind, options: { name, season, ...(maxContext !== undefined ? { maxContext } : {}) } };
  }
  if (kind === 'mstl') {
    return { kind, options: { name, season, periods } };
  }
  return { kind, options: kind === 'naive' ? { name } : { name, season } };
}

/**
 * Fails the load (`config`, naming the arg) when the service carries one of inferkit's args its model
 * would not use (`unusedArgProblems`: `--seasonal_periods` on theta, `--season` on Chronos-Bolt or a
 * token classifier, `--onnx_variant` on a forecast service…): a user who sets one expects an effect.
 */
function refuseUnusedArgs(config: RuntimeConfig, task: ServeTask): void {
  const problems = unusedArgProblems(config, task);
  if (problems.length > 0) {
    throw new InferkitError('config', problems.map((p) => p.message).join('; '), { param: problems[0].param });
  }
}

/**
 * A served baseline: in worker threads (as many as the plan's share of the CPUs) when the plan
 * runs models off the event loop and gives this one cores, else in the main thread.
 */
async function servedBaseline(spec: BaselineSpec, inference: ModelInference | undefined, own: SessionOptions | undefined): Promise<ForecastModel> {
  await enterMemoryPhase(); // no session, no weights: its memory is what starting it costs
  const worker = own?.worker ?? inference?.worker ?? false;
  const workers = inference?.threads ?? 0;
  return worker && workers > 0 ? startWorkerBaseline(spec, { workers }) : createBaseline(spec);
}

/** `--season`, `--seasonal_periods` and `--max_context` of a baseline service (config errors name the flag). */
function baselineArgs(config: RuntimeConfig): BaselineArgs {
  const int = (raw: string, flag: string, min = 1): number => {
    const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      const expected = min === 1 ? 'positive integers' : `an integer ≥ ${min}`;
      throw new InferkitError('config', `--${flag}: expected ${expected}, got "${raw}"`, { param: flag });
    }
    return n;
  };
  const { season, seasonal_periods: periods, max_context: maxContext } = config.args.values;
  return {
    name: config.modelName,
    ...(season !== undefined ? { season: int(season, 'season') } : {}),
    ...(periods !== undefined ? { periods: periods.split(',').map((p) => int(p, 'seasonal_periods')) } : {}),
    ...(maxContext !== undefined ? { maxContext: int(maxContext, 'max_context', MIN_AUTO_ETS_CONTEXT) } : {}),
  };
}

/**
 * The model a service names: `--model_id`, else the hub repo of `storageUri: hf://…`, else a folder
 * given by `--model_dir` (KServe loads `--model_dir` when no `--model_id` is given; its default
 * `/mnt/models` is a cluster path, so only an explicit one counts here).
 */
function modelSource(config: RuntimeConfig): string {
  const id = config.modelId;
  if (id === undefined) {
    const dir = config.args.values.model_dir;
    if (dir !== undefined && dir.trim() !== '') {
      return dir;
    }
    throw new InferkitError('config', `service for model "${config.modelName}" names no model: set --model_id=<hub id or folder>, storageUri: hf://org/name or --model_dir=<folder>`);
  }
  return config.modelRevision !== undefined && !id.includes('@') ? `${id}@${config.modelRevision}` : id;
}

function flagOn(config: RuntimeConfig, name: string): boolean {
  return config.args.flags.has(name) || config.args.values[name]?.toLowerCase() === 'true';
}

/** `--max_model_len` (KServe's current name), else its deprecated alias `--max_length`. */
function maxLengthOf(config: RuntimeConfig): { maxLength?: number } {
  const raw = config.args.values.max_model_len;
  if (raw === undefined) {
    return config.maxLength !== undefined ? { maxLength: config.maxLength } : {};
  }
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InferkitError('config', `--max_model_len: expected a positive integer, got "${raw}"`, { param: 'max_model_len' });
  }
  return { maxLength: n };
}

/** Adapts an in-kernel token classifier for serving (its per-text ids feed dynamic batching). */
export function servedTokenClassifier(classifier: TokenClassifier): TokenClassificationModel {
  return {
    task: 'token_classification',
    predictor: classifier,
    classIds: async (texts, options) => (await classifier.predictTokenIds(texts, options)).classIds,
    sharesRunQueue: classifier.sharesRunQueue,
    busyMs: () => classifier.busyMs,
    v1Scores: classifier.info.v1Output !== 'class_ids',
    unbatched: classifier.info.offsetsMapping === true,
    graph: classifier.info.graph,
    dispose: () => classifier.dispose(),
  };
}

/** Adapts an in-kernel forecasting model for serving (`model` lets the server merge concurrent calls). */
export function servedForecastModel(model: ForecastModel): ForecastServedModel {
  return { task: 'time_series_forecast', forecaster: localForecaster(model), model, ...(model.graph ? { graph: model.graph } : {}), dispose: () => model.dispose() };
}

/**
 * The loaders `inferkit serve` uses. Token classification: `--model_id` (hub id, `hf://`, or local
 * folder; `inferkit/ner-fixture` = the generated offline fixture) through `loadTokenClassifier` with
 * `--disable_lower_case`, `--disable_special_tokens`, `--max_model_len` (or `--max_length`), `--return_probabilities`,
 * `--return_raw_logits` and `--return_offsets_mapping`; a repo without ONNX graph (or `--graph_source=checkpoint`)
 * has its graph built from `model.safetensors` or `pytorch_model.bin` (`--onnx_variant=quantized`: int8). Forecast: `--model_id` `seasonal-naive`, `naive`,
 * `theta`, `auto-ets` (also `autoets`, `ets`) or `mstl` (optionally `baseline/…`) → offline baseline, with
 * `--season=N` (season override), for MSTL `--seasonal_periods=48,336`, and for AutoETS
 * `--max_context=N` (fit only the last N values, N ≥ 5; default max(10 seasons, 1000)); anything else →
 * a transformer forecaster (hub id or folder; an ONNX graph or `config.json` + `model.safetensors` or `pytorch_model.bin`) through
 * `loadForecastModel`, which picks the family's loader by `config.json` → `architectures`. Both answer to `--model_name`.
 * A service with an arg its model does not use (`--season` on Chronos-Bolt, `--seasonal_periods` on
 * theta, `--onnx_variant` on a forecaster…) fails its load with a `config` error naming the arg.
 */
export function defaultLoaders(options: DefaultLoaderOptions = {}): ModelLoaders {
  const { session, ...hub } = options;
  const builtinModelDir = builtinModels(hub.cacheDir);
  return {
    token_classification: async ({ isvc, config, signal, inference }) => {
      const source = modelSource(config);
      refuseUnusedArgs(config, 'token_classification');
      const quantized = (inference?.onnxVariant ?? onnxVariant(isvc, config)) === 'quantized';
      const sessionOptions = sessionFor(inference, session);
      const builtin = await builtinModelDir(source, config.disableLowerCase);
      const classifier = await loadTokenClassifier(builtin ?? source, {
        ...hub,
        signal,
        modelName: config.modelName,
        // KServe's runtime lower-cases unless --disable_lower_case, overriding tokenizer_config.json
        // (even for cased models): served answers match the reference runtime's.
        disableLowerCase: config.disableLowerCase,
        returnProbabilities: config.returnProbabilities,
        returnRawLogits: config.returnRawLogits,
        disableSpecialTokens: flagOn(config, 'disable_special_tokens'),
        returnOffsetsMapping: flagOn(config, 'return_offsets_mapping'),
        ...maxLengthOf(config),
        ...(quantized ? { quantized } : {}),
        graphSource: graphSourceOf(config),
        ...(sessionOptions ? { session: sessionOptions } : {}),
      });
      return servedTokenClassifier(classifier);
    },
    time_series_forecast: async ({ config, signal, inference }) => {
      const source = modelSource(config);
      refuseUnusedArgs(config, 'time_series_forecast');
      const baseline = baselineOf(config.modelId);
      if (baseline) {
        return servedForecastModel(await servedBaseline(baselineSpec(baseline, baselineArgs(config)), inference, session));
      }
      const sessionOptions = sessionFor(inference, session);
      const model = await loadForecastModel(source, { ...hub, signal, name: config.modelName, ...(sessionOptions ? { session: sessionOptions } : {}) });
      return servedForecastModel(model);
    },
  };
}
