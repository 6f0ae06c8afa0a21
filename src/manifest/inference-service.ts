import { ValidationError } from '../errors.js';
import { assembleManifest, hubTokenEnv, hubTokenSecret, type HubTokenOptions, type Manifest } from './manifest.js';
import { toResources, type ResourceOptions } from './to-resources.js';

/** Options of {@link inferenceService}: the `spec.predictor.model` form served by the hub runtime. */
export interface InferenceServiceOptions extends HubTokenOptions {
  /** `metadata.name`; must match `^[a-z]([-a-z0-9]*[a-z0-9])?$`. */
  name: string;
  /** `metadata.namespace` (of the Secret too). */
  namespace?: string;
  /** Hub model id, written as `--model_id=`. One of `modelId` or `storageUri` is required. */
  modelId?: string;
  /** Served name, written as `--model_name=`. @default name */
  modelName?: string;
  /** `spec.predictor.model.storageUri`, e.g. `hf://org/model`. */
  storageUri?: string;
  /** `v2` sets `protocolVersion: v2`; `v1` leaves it out (KServe's default). @default 'v1' */
  protocol?: 'v1' | 'v2';
  /** `--task=` (e.g. `token_classification`, `time_series_forecast`). */
  task?: string;
  /** Writes the `--disable_lower_case` flag. */
  disableLowerCase?: boolean;
  /** Further runtime args, appended after the generated ones (the last repeated value wins). */
  args?: string[];
  /** CPU, memory and GPU requests/limits. */
  resources?: ResourceOptions;
  /** `modelFormat.name`. @default 'huggingface' */
  modelFormat?: string;
}

/**
 * Builds a validated InferenceService in the `model` form (plus the hub-token Secret when `hubToken`
 * is given). Throws a ValidationError naming the field (`metadata.name`, `…resources.limits.cpu`).
 */
export function inferenceService(options: InferenceServiceOptions): Manifest {
  const { name, namespace } = options;
  const hasModelIdArg = (options.args ?? []).some((a) => a === '--model_id' || a.startsWith('--model_id='));
  if (options.modelId === undefined && options.storageUri === undefined && !hasModelIdArg) {
    throw new ValidationError([{ path: 'modelId', message: 'expected a hub model id (modelId) or a storageUri' }]);
  }
  const { secretName, secret } = hubTokenSecret(name, namespace, options);
  const args = runtimeArgs(options);
  const resources = toResources(options.resources);
  const model = {
    modelFormat: { name: options.modelFormat ?? 'huggingface' },
    ...(options.protocol === 'v2' ? { protocolVersion: 'v2' } : {}),
    ...(options.storageUri !== undefined ? { storageUri: options.storageUri } : {}),
    args,
    ...(secretName !== undefined ? { env: hubTokenEnv(secretName) } : {}),
    ...(resources ? { resources } : {}),
  };
  return assembleManifest(serviceObject(name, namespace, { model }), secret);
}

/** The generated runtime args of both forms (`--model_name`, `--model_id`, `--http_port`, `--task`, flags), then extra args. */
export function runtimeArgs(options: {
  name: string;
  modelName?: string;
  modelId?: string;
  task?: string;
  disableLowerCase?: boolean;
  httpPort?: number;
  args?: string[];
}): string[] {
  const args = [`--model_name=${options.modelName ?? options.name}`];
  if (options.modelId !== undefined) {
    args.push(`--model_id=${options.modelId}`);
  }
  if (options.httpPort !== undefined) {
    args.push(`--http_port=${options.httpPort}`);
  }
  if (options.task !== undefined) {
    args.push(`--task=${options.task}`);
  }
  if (options.disableLowerCase) {
    args.push('--disable_lower_case');
  }
  return [...args, ...(options.args ?? [])];
}

/** An InferenceService object in canonical key order (apiVersion, kind, metadata, spec). */
export function serviceObject(name: string, namespace: string | undefined, predictor: Record<string, unknown>): unknown {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: namespace === undefined ? { name } : { name, namespace },
    spec: { predictor },
  };
}
