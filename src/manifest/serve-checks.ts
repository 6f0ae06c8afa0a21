import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { baselineArgProblems, unknownBaselineProblem, type BaselineArgProblem } from './baseline-args.js';
import { modelBuildFindings } from './model-buildability.js';
import { inferTask, taskNote, type ServeTask } from './model-task.js';
import type { RuntimeConfig } from './runtime-config.js';
import { unimplementedArgWarnings } from './runtime-args-report.js';
import { onnxVariant, serviceReplicas } from './serving-annotations.js';

/**
 * inferkit's own args that a service of `task` would not use: the baseline args its model does not take
 * ({@link baselineArgProblems}) and `--onnx_variant` on a forecast service (only token-classification
 * repos have an int8 graph); and a `--model_id=baseline/…` naming no baseline. `inferkit serve` fails
 * such a service, naming the arg: a user who sets one expects an effect. Empty when all is well.
 */
export function unusedArgProblems(config: Pick<RuntimeConfig, 'modelId' | 'args'>, task: ServeTask): BaselineArgProblem[] {
  const unknown = unknownBaselineProblem(config.modelId);
  const problems = [...(unknown ? [unknown] : []), ...baselineArgProblems(config, task === 'time_series_forecast')];
  if (task === 'time_series_forecast' && (config.args.values.onnx_variant !== undefined || config.args.flags.has('onnx_variant'))) {
    problems.push({ param: 'onnx_variant', message: '--onnx_variant is used only by token-classification models (an int8 graph); forecast models have no such variant: remove the arg' });
  }
  return problems;
}

/** One finding of {@link serveChecks}: in the predictor's args, or in an annotation (its key). */
export interface ServeFinding {
  /** `args`, or the annotation's key. */
  at: string;
  message: string;
}

/**
 * What `inferkit serve` would say of a service from its manifest alone, before any download: the errors
 * that fail it (a `--task` neither KServe nor inferkit knows, inferkit's args its model would not use, an
 * unknown `baseline/…`, no model named at all, a bad `serving.inferkit.dev/replicas` or `onnx-variant`) and the warnings its status would carry (args it
 * ignores, a task only one of the two servers takes). `inferkit validate` reports both.
 */
export function serveChecks(isvc: InferenceService, config: RuntimeConfig): { errors: ServeFinding[]; warnings: ServeFinding[] } {
  const errors: ServeFinding[] = [];
  const warnings: ServeFinding[] = [];
  const note = taskNote(config.task);
  // A custom container's image may be no Hugging Face runtime at all: there its task is only a warning.
  (note?.severity === 'error' && config.form === 'model' ? errors : warnings).push(...(note ? [{ at: 'args', message: note.message }] : []));
  const annotation = (check: () => unknown): void => {
    try {
      check();
    } catch (e) {
      if (!(e instanceof InferkitError)) {
        throw e;
      }
      const at = e.param ?? 'args';
      // Validation never quotes a value: the load error's `got "…"` stays out.
      errors.push({ at: at.startsWith('--') ? 'args' : at.replace(/^annotation /, ''), message: e.message.replace(/, got "[^]*"$/, '') });
    }
  };
  annotation(() => serviceReplicas(isvc));
  let task: ServeTask | undefined;
  try {
    task = inferTask(config);
  } catch {
    // An unknown --task: the note above says what of it.
  }
  if (task === 'token_classification') {
    annotation(() => onnxVariant(isvc, config));
  }
  const problems = task === undefined ? baselineArgProblems(config) : unusedArgProblems(config, task);
  errors.push(...problems.map((p) => ({ at: 'args', message: p.message })));
  // Neither server can load a model-form service that names no model and gives KServe nothing to put in
  // /mnt/models (storageUri, storage, storageUris); a custom container may find its model by other means.
  if (config.form === 'model' && config.modelId === undefined && config.args.values.model_dir === undefined && !hasStorage(isvc)) {
    errors.push({ at: 'args', message: 'the service names no model: set --model_id=<hub id or folder> or --model_dir=<folder>, or give KServe storage (storageUri: hf://org/name, s3://…; storage; storageUris)' });
  }
  // Whether inferkit can build the named forecaster (hub id it knows, or the folder's config.json), before any download.
  const build = modelBuildFindings(config, task);
  errors.push(...build.errors.map((message) => ({ at: 'args', message })));
  warnings.push(...build.warnings.map((message) => ({ at: 'args', message })));
  warnings.push(...unimplementedArgWarnings(config.args, task).map((message) => ({ at: 'args', message })));
  return { errors, warnings };
}

/** Whether KServe's storage initializer has something to download for the predictor (any storage form of the CRD). */
function hasStorage(isvc: InferenceService): boolean {
  const predictor = isvc.spec.predictor as { model?: { storageUri?: unknown; storage?: unknown }; storageUris?: unknown };
  return predictor.model?.storageUri !== undefined || predictor.model?.storage !== undefined || (Array.isArray(predictor.storageUris) && predictor.storageUris.length > 0);
}
