/**
 * inferkit's public API: the one barrel. Internal code imports concrete files, never this one.
 * Grouped in the order data flows: contract → manifest → hub → runtime → protocol → server/client →
 * data/plot → eval.
 */

// Errors and configuration
export { InferkitError, ValidationError, HttpError, isInferkitError } from './errors.js';
export type { InferkitErrorCode, InferkitErrorOptions, ValidationIssue } from './errors.js';
export { envHubToken, envHubUrl, envOffline, envCacheDir, envIngress, envKubeconfig, envHasKubeconfig } from './config.js';

// Contract: wire schemas, enums, interfaces
export {
  FREQUENCIES, FREQUENCY_ALIASES, normalizeFrequency, FrequencySchema, STATUSES, StatusSchema,
  TIME_SERIES_TYPES, TimeSeriesTypeSchema,
} from './contract/enums.js';
export type { Frequency, Status, TimeSeriesType } from './contract/enums.js';
export { parseFrequency, formatFrequency } from './contract/frequency.js';
export type { FrequencySpec, FrequencyUnit } from './contract/frequency.js';
export {
  TimeSeriesSchema, TimeSeriesInputSchema, ForecastOptionsSchema, MetadataSchema, ForecastRequestSchema,
  ApiErrorSchema, TimeSeriesForecastSchema, ForecastOutputSchema, UsageSchema, ForecastResponseSchema,
} from './contract/forecast.js';
export type {
  TimeSeries, TimeSeriesInput, TimeSeriesInputFields, TimeSeriesInputExtensions, ForecastOptions, ForecastOptionsInput,
  ForecastRequest, ForecastRequestInput, ApiError, TimeSeriesForecast, ForecastOutput, Usage, ForecastResponse,
} from './contract/forecast.js';
export { V1PredictRequestSchema, V1PredictResponseSchema, ErrorBodySchema } from './contract/v1.js';
export type { V1PredictRequest, V1PredictResponse, ErrorBody } from './contract/v1.js';
export {
  V2InferRequestSchema, V2InferResponseSchema, V2TensorSchema, V2ModelMetadataSchema, V2ServerMetadataSchema,
} from './contract/v2.js';
export type {
  V2InferRequest, V2InferResponse, V2Tensor, V2ModelMetadata, V2ServerMetadata, V2Datatype,
} from './contract/v2.js';
export { InferenceServiceSchema, SecretSchema } from './contract/inference-service.js';
export type { InferenceService, InferenceServiceStatus, Secret, Resources } from './contract/inference-service.js';
export { parseContract, formatPath } from './contract/parse.js';
export type { Predictor, Forecaster, CallOptions } from './contract/predictor.js';

// Manifests
export { inferenceService } from './manifest/inference-service.js';
export type { InferenceServiceOptions } from './manifest/inference-service.js';
export type { HubTokenOptions } from './manifest/manifest.js';
export type { ResourceOptions, QuantityInput } from './manifest/to-resources.js';
export { containerService } from './manifest/container-service.js';
export type { ContainerServiceOptions } from './manifest/container-service.js';
export type { Manifest } from './manifest/manifest.js';
export { toYaml, fromYaml } from './manifest/manifest-yaml.js';
export type { ToYamlOptions } from './manifest/manifest-yaml.js';
export type { ManifestDocument } from './manifest/manifest-yaml.js';
export { validateManifest, parseManifest } from './manifest/validate-manifest.js';
export type { ValidateManifestOptions, ManifestValidation } from './manifest/validate-manifest.js';
export { findInlineSecrets } from './manifest/find-inline-secrets.js';
export { parseRuntimeArgs } from './manifest/parse-runtime-args.js';
export type { RuntimeArgs } from './manifest/parse-runtime-args.js';
export { runtimeConfig } from './manifest/runtime-config.js';
export type { RuntimeConfig } from './manifest/runtime-config.js';
export { defaultServiceUrl, serviceHostname } from './manifest/service-url.js';
export type { ServiceUrlOptions, DeploymentMode } from './manifest/service-url.js';
export { statusRow, formatStatusTable, STATUS_COLUMNS } from './manifest/status-row.js';
export type { StatusRow } from './manifest/status-row.js';
export { formatAge } from './manifest/format-age.js';

// Hub
export { resolveModel, DEFAULT_HUB_URL } from './hub/resolve-model.js';
export type { ResolveModelOptions, ResolvedModel, HubProgressEvent } from './hub/types.js';
export { TOKEN_CLASSIFICATION_FILES, FORECAST_FILES, tokenClassificationFiles } from './hub/file-spec.js';
export type { FileSpec, TokenClassificationFilesOptions } from './hub/file-spec.js';
export { hubOptionsFromEnv } from './hub/hub-options-from-env.js';
export { scanModelCache, pruneModelCache } from './model-cache/scan-model-cache.js';
export type { ModelCacheReport, ModelCacheEntry, ModelCacheKind } from './model-cache/scan-model-cache.js';

// Runtime (in-kernel models)
export { availableExecutionProviders } from './runtime/ort.js';
export type { SessionOptions, ExecutionProvider } from './runtime/ort.js';
export { availableCpus } from './runtime/cpu-budget.js';
export type { CpuBudget, AvailableCpusOptions, CpuSource } from './runtime/cpu-budget.js';
export { loadTokenClassifier } from './runtime/token-classification/load-token-classifier.js';
export type { TokenClassifierOptions, TokenClassifierSource } from './runtime/token-classification/load-token-classifier.js';
export type {
  TokenClassifier, ClassifyOptions, ClassifiedText, TokenIdsResult, TokenIdsOptions, TokenProbabilitiesResult, TokenClassifierInfo,
  TokenClassifierStats,
} from './runtime/token-classification/token-classifier.js';
export type { TokenizerEngine, LowerCaseSource, MaxLengthSource } from './runtime/token-classification/load-text-tokenizer.js';
export type { V1OutputKind } from './runtime/token-classification/kserve-outputs.js';
export type { ModelGraphInfo } from './checkpoint/resolve-model-graph.js';
export type { AggregationStrategy, Entity, GroupedEntity, TokenEntity } from './runtime/token-classification/group-entities.js';
export { loadChronosBolt } from './runtime/forecast/load-chronos-bolt.js';
export { loadForecastModel, FORECAST_LOADERS } from './runtime/forecast/load-forecast-model.js';
export type { ForecastLoader, ForecastLoaderOptions } from './runtime/forecast/load-forecast-model.js';
export { loadChronos2 } from './runtime/forecast/chronos-2/load-chronos-2.js';
export type { LoadChronos2Options } from './runtime/forecast/chronos-2/load-chronos-2.js';
export type { Chronos2Model, Chronos2Options, Chronos2PredictOptions } from './runtime/forecast/chronos-2/create-chronos-2.js';
export type { LoadChronosBoltOptions } from './runtime/forecast/load-chronos-bolt.js';
export type { ChronosBoltOptions } from './runtime/forecast/create-chronos-bolt.js';
export type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from './runtime/forecast/forecast-model.js';
export { seasonalNaive } from './runtime/forecast/seasonal-naive.js';
export { theta } from './runtime/forecast/theta.js';
export { autoEts } from './runtime/forecast/ets/auto-ets.js';
export type { AutoEtsOptions } from './runtime/forecast/ets/auto-ets.js';
export { selectEts } from './runtime/forecast/ets/select-ets.js';
export type { EtsSelection, SelectEtsOptions } from './runtime/forecast/ets/select-ets.js';
export { etsForecast } from './runtime/forecast/ets/ets-forecast.js';
export type { EtsForecast, EtsForecastOptions } from './runtime/forecast/ets/ets-forecast.js';
export type { EtsFit } from './runtime/forecast/ets/ets-fit.js';
export type { EtsParams, EtsStates } from './runtime/forecast/ets/ets-filter.js';
export type { EtsSpec, EtsError, EtsTrend, EtsSeason } from './runtime/forecast/ets/ets-spec.js';
export { mstl } from './runtime/forecast/mstl/mstl.js';
export type { MstlOptions } from './runtime/forecast/mstl/mstl.js';
export { mstlDecompose } from './runtime/forecast/mstl/mstl-decompose.js';
export type { MstlDecomposition, MstlDecomposeOptions } from './runtime/forecast/mstl/mstl-decompose.js';
export { autoArima, autoArimaForecast } from './runtime/forecast/arima/auto-arima.js';
export type { AutoArimaOptions, AutoArimaForecast, ArimaRegressors } from './runtime/forecast/arima/auto-arima.js';
export { selectArima } from './runtime/forecast/arima/select-arima.js';
export type { ArimaSelection, SelectArimaOptions } from './runtime/forecast/arima/select-arima.js';
export { fitArima } from './runtime/forecast/arima/arima-fit.js';
export type { ArimaFit, ArimaMethod, FitArimaOptions } from './runtime/forecast/arima/arima-fit.js';
export { arimaForecast } from './runtime/forecast/arima/arima-forecast.js';
export type { ArimaForecast } from './runtime/forecast/arima/arima-forecast.js';
export type { ArimaOrder } from './runtime/forecast/arima/arima-spec.js';
export { intermittent, INTERMITTENT_METHODS } from './runtime/forecast/intermittent/intermittent.js';
export type { IntermittentMethod, IntermittentOptions } from './runtime/forecast/intermittent/intermittent.js';
export { intermittentScore, zeroInflatedDemand } from './runtime/forecast/intermittent/intermittent-metrics.js';
export type { IntermittentScore } from './runtime/forecast/intermittent/intermittent-metrics.js';
export { statEnsemble } from './runtime/forecast/stat-ensemble.js';
export type { StatEnsembleOptions } from './runtime/forecast/stat-ensemble.js';
export type { QuantileCombination } from './runtime/forecast/combine-quantiles.js';
export type { BaselineOptions, PointAndSpread } from './runtime/forecast/baseline-model.js';
export { createBaseline } from './runtime/forecast/baseline-spec.js';
export type { BaselineKind, BaselineSpec } from './runtime/forecast/baseline-spec.js';
export { startWorkerBaseline, WorkerBaseline } from './runtime/worker/worker-baseline.js';
export type { WorkerBaselineOptions } from './runtime/worker/worker-baseline.js';
export { seasonalPeriods } from './runtime/forecast/seasonality.js';

// Protocol semantics (shared by the kernel and the server)
export { forecast } from './protocol/forecast/forecast.js';
export type { ForecastCallOptions } from './protocol/forecast/forecast.js';
export { ForecastRolloutSchema } from './contract/forecast.js';
export type { ForecastRollout } from './contract/forecast.js';
export { CovariatesSchema, ForecastWarningSchema } from './contract/forecast.js';
export type { Covariates, ForecastWarning } from './contract/forecast.js';
export { localForecaster } from './protocol/forecast/local-forecaster.js';
export { errorResponse, toApiError } from './protocol/forecast/error-response.js';
export { advanceTimestamp } from './protocol/forecast/advance-timestamp.js';

// Serving and remote calls
export { serve } from './server/serve.js';
export type { ServeOptions, RunningServer } from './server/serve.js';
export type { ServerLimits } from './server/guard-limits.js';
export type { LoadRetry } from './server/load-retry.js';
export { defaultLoaders, servedTokenClassifier, servedForecastModel } from './server/default-loaders.js';
export type { DefaultLoaderOptions } from './server/default-loaders.js';
export type { ServeTask } from './manifest/model-task.js';
export { mergingForecastModel } from './server/merging-forecast-model.js';
export type { BatcherOptions } from './server/batcher.js';
export type { ModelState, LoadRetryState } from './server/model-registry.js';
export type { ModelMemory } from './runtime/model-memory/model-memory.js';
export type { InferenceOptions, InferencePlan, ModelInference } from './server/inference-plan.js';
export type { OnnxVariant } from './manifest/serving-annotations.js';
export type {
  ModelLoader, ModelLoaders, LoaderContext, ServedModel, TokenClassificationModel, ForecastServedModel,
} from './server/model-loader.js';
export { remote } from './client/remote.js';
export type { RemoteTarget, RemoteOptions, RemoteModel } from './client/remote.js';
export { listInferenceServices } from './client/list-inference-services.js';
export type { RequestOptions } from './client/request.js';
export type { FetchLike } from './client/transport.js';

// DataFrames and batch forecasting
export { frameToInputs } from './data/frame-to-inputs.js';
export type { FrameToInputsOptions, SeriesInput } from './data/frame-to-inputs.js';
export type { FrameLike, Row, TableObject } from './data/columns.js';
export { toFrame } from './data/columns.js';
export { Frame, isFrame } from './data/frame/frame.js';
export type { ArrowTableLike } from './data/frame/arrow-table.js';
export type { DanfoFrameLike } from './data/frame/danfo-frame.js';
export { wideFrameToInputs } from './data/wide-frame-to-inputs.js';
export type { WideFrameToInputsOptions } from './data/wide-frame-to-inputs.js';
export { forecastToFrame, inputsToFrame } from './data/forecast-to-frame.js';
export type { ToFrameOptions } from './data/forecast-to-frame.js';
export { batchForecast } from './data/batch-forecast.js';
export type { BatchForecastOptions, ModelsBatchResult } from './data/batch-forecast.js';
export type { BatchForecastResult, BatchProgress, SeriesFailure, SeriesWarning } from './data/batch-result.js';
export type { FrameCovariates } from './data/frame-covariates.js';
export type { ModelLike, ModelSet } from './data/model-set.js';
export { crossValidation } from './data/cross-validation.js';
export type { CrossValidationOptions } from './data/cross-validation.js';
export { readFrameSeries } from './data/frame-to-inputs.js';
export type { FrameSeries } from './data/frame-to-inputs.js';
export { terminalProgress, notebookProgress } from './data/progress-bar.js';
export type { ProgressBarOptions } from './data/progress-bar.js';
export { readCsv, writeCsv, parseCsv, parseCsvFrame, toCsv } from './data/csv.js';
export type { CsvReadOptions } from './data/csv.js';
export { inferFrequency } from './data/infer-frequency.js';
export type { InferredFrequency } from './data/infer-frequency.js';
export type { ParsedTimestamp } from './data/timestamps.js';
export { isUnivariate, seriesValues } from './data/series-values.js';
export type { HasSeries, UnivariateValues } from './data/series-values.js';

// Plots
export { forecastFigure } from './plot/forecast-figure.js';
export type { ForecastFigureOptions } from './plot/forecast-figure.js';
export type { ForecastFigureSource } from './plot/forecast-models.js';
export type { HistorySource, ForecastSource } from './plot/series-points.js';
export { backtestFigure, scoreFigure } from './plot/backtest-figure.js';
export type { BacktestFigureOptions, ScoreFigureOptions } from './plot/backtest-figure.js';
export { crossValidationFigure } from './plot/cross-validation-figure.js';
export type { CrossValidationFigureOptions } from './plot/cross-validation-figure.js';
export { entityHtml, entitiesHtml } from './plot/entity-html.js';
export type { EntityHtmlOptions, HighlightEntity } from './plot/entity-html.js';
export { renderHtml } from './plot/render-html.js';
export type { RenderHtmlOptions } from './plot/render-html.js';
export { renderPng, closeRenderer, rendererStats } from './plot/render-png.js';
export type { RenderPngOptions } from './plot/render-png.js';
export { displayFigure } from './plot/display-figure.js';
export type { DisplayFigureOptions, DisplayedFigure, FigureDisplay, PngDisplay } from './plot/display-figure.js';
export { figureOutputHtml } from './plot/figure-output-html.js';
export type { FigureOutputHtmlOptions } from './plot/figure-output-html.js';
export { displayFrame } from './plot/display-frame.js';
export type { DisplayFrameOptions } from './plot/display-frame.js';
export type { HtmlDisplay } from './data/progress-bar.js';
export { frameHtml } from './plot/frame-html.js';
export type { FrameHtmlOptions, TableLike } from './plot/frame-html.js';
export type { PlotlyFigure, PlotlyTrace, PlotlyLayout } from './plot/figure.js';

// Evaluation
export { evaluate } from './eval/evaluate.js';
export type { EvaluateOptions, Evaluation, EvalSeries, SeriesScore } from './eval/evaluate.js';
export { mase, weightedQuantileLoss } from './eval/metrics.js';
export { loadDataset } from './eval/datasets.js';
export type { DatasetName, DatasetSeries, LoadDatasetOptions } from './eval/datasets.js';

// Fixture models built by the project (offline demos, tests)
export { writeNerFixtureRepo, writeChronosFixtureRepo, writeTokenClassifierRepo } from './onnx/model-repo.js';
export type { NerFixtureRepoOptions, ChronosFixtureRepoOptions, TokenClassifierRepoOptions } from './onnx/model-repo.js';
export { buildBertTokenClassifier } from './onnx/bert-token-classifier.js';
export type { BertTokenClassifierOptions } from './onnx/bert-token-classifier.js';
export { buildRuleForecaster, buildChronosBoltLike } from './onnx/chronos-bolt.js';
export type { RuleForecasterOptions, ChronosBoltLikeOptions } from './onnx/chronos-bolt.js';

// Cluster round trip (kubeconfig like kubectl; @kubernetes/client-node is loaded on first use)
export { cluster, FIELD_MANAGER } from './cluster/cluster.js';
export type { Cluster } from './cluster/cluster.js';
export type {
  ApplyAction,
  ApplyOptions,
  ApplyResult,
  ClusterOptions,
  GetOptions,
  ListOptions,
  NamespaceOptions,
  RemoteForOptions,
  SecretsOptions,
  WaitOptions,
  WaitProgressEvent,
} from './cluster/cluster-types.js';
