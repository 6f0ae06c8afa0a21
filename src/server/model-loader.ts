import type { ModelGraphInfo } from '../checkpoint/resolve-model-graph.js';
import type { InferenceService } from '../contract/inference-service.js';
import type { Forecaster, Predictor } from '../contract/predictor.js';
import type { TokenIdsOptions } from '../runtime/token-classification/token-classifier.js';
import type { RuntimeConfig } from '../manifest/runtime-config.js';
import type { ForecastModel } from '../runtime/forecast/forecast-model.js';
import type { ServeTask } from '../manifest/model-task.js';
import type { ModelInference } from './inference-plan.js';

export type { ServeTask } from '../manifest/model-task.js';

/** A loaded token-classification model. */
export interface TokenClassificationModel {
  task: 'token_classification';
  /** Answers V1 and V2 (and metadata) for one model. */
  predictor: Predictor;
  /**
   * Argmax class ids per text (`[CLS]`/`[SEP]` included), each text's own tokens only. Used for
   * dynamic batching; when absent the server calls `predictor.predictV1` on the merged texts.
   */
  classIds?: (texts: string[], options?: TokenIdsOptions) => Promise<number[][]>;
  /**
   * Its calls' texts wait in one run queue that forms every run from all of them (the classifier's `runTokenLogits`
   * with `sortByLength`): the server then hands requests over as they come, calls overlapping freely, and the queue
   * packs the runs. Otherwise a few merged calls run at a time (one per replica + 1 in worker threads).
   */
  sharesRunQueue?: boolean;
  /** Milliseconds the model's worker threads spent on runs so far (summed over replicas); reported in `/metrics`. */
  busyMs?: () => number | undefined;
  /**
   * True when V1 entries are not class ids (`--return_probabilities`, `--return_raw_logits`): V1
   * requests then go to `predictor.predictV1` one by one (V2, always ids, is still batched).
   */
  v1Scores?: boolean;
  /**
   * True when answers carry more than class ids in both protocols (`--return_offsets_mapping`):
   * every request then goes to the predictor itself, unbatched.
   */
  unbatched?: boolean;
  /** Where its graph came from (published ONNX, or built from the checkpoint): `inferkit serve` prints it, `/inferkit/v1/services` reports it. */
  graph?: ModelGraphInfo;
  /** Releases the model's sessions. */
  dispose?: () => Promise<void>;
}

/** A loaded forecasting model. */
export interface ForecastServedModel {
  task: 'time_series_forecast';
  /** Answers `POST /v1/timeseries/forecast`; request-level problems reject with an InferkitError. */
  forecaster: Forecaster;
  /**
   * The model behind `forecaster`. When given, the server answers with `localForecaster` over a
   * wrapper that merges concurrent `predict` calls (dynamic batching) instead of `forecaster`.
   */
  model?: ForecastModel;
  /** Where its graph came from, as for token classification; absent for the baselines (no graph). */
  graph?: ModelGraphInfo;
  /** Releases the model's sessions. */
  dispose?: () => Promise<void>;
}

/** What a loader returns. */
export type ServedModel = TokenClassificationModel | ForecastServedModel;

/** Everything a loader gets for one InferenceService. */
export interface LoaderContext {
  /** The manifest. */
  isvc: InferenceService;
  /** Its runtime configuration (`--model_name`, `--model_id`, `protocolVersion`, …). */
  config: RuntimeConfig;
  /** The task chosen for it. */
  task: ServeTask;
  /** Aborted when the server closes before the model has loaded. */
  signal: AbortSignal;
  /** The server's plan for this model's ONNX session (threads, worker thread, spinning, graph variant). */
  inference?: ModelInference;
}

/** Loads one model; rejects (any error) to mark the service READY False with the error's message. */
export type ModelLoader = (context: LoaderContext) => Promise<ServedModel>;

/** Task → loader. Tests and demos pass fixture loaders; `defaultLoaders()` loads hub models. */
export type ModelLoaders = Partial<Record<ServeTask, ModelLoader>>;
