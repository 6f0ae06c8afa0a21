import type { EnvVar, InferenceService, Resources } from '../contract/inference-service.js';
import { ValidationError } from '../errors.js';
import { IMPLEMENTED_ARGS } from './implemented-args.js';
import { parseRuntimeArgs, RUNTIME_FLAGS, type RuntimeArgs } from './parse-runtime-args.js';

/** What a runtime serving an InferenceService needs, read from its predictor and args. */
export interface RuntimeConfig {
  /** Which predictor form the service uses. */
  form: 'model' | 'containers';
  /** `--model_name`. @default metadata.name */
  modelName: string;
  /** `--model_id`, else the repo of an `hf://org/model[:revision]` storageUri. */
  modelId?: string;
  /** `--model_revision`, else the revision of an `hf://…:revision` storageUri. */
  modelRevision?: string;
  /** `spec.predictor.model.storageUri`. */
  storageUri?: string;
  /** `--model_dir`. @default '/mnt/models' */
  modelDir: string;
  /** `--task`, e.g. `token_classification`, `time_series_forecast`. */
  task?: string;
  /** True when `--disable_lower_case` is set. */
  disableLowerCase: boolean;
  /** `--return_probabilities`: V1 entries hold per-token class probabilities. */
  returnProbabilities: boolean;
  /** `--return_raw_logits`: V1 entries hold per-token raw logits (wins over probabilities, as in KServe). */
  returnRawLogits: boolean;
  /** `--http_port`. @default 8080 */
  httpPort: number;
  /** `protocolVersion` v2 (or grpc-v2) → `v2`; absent → `v1`. Containers: a `--protocol=v2` arg, else `v1`. */
  protocol: 'v1' | 'v2';
  /** `--max_length` in tokens. */
  maxLength?: number;
  /** Container image (containers form). */
  image?: string;
  /** Where the runtime's `HF_TOKEN` env comes from, when it references a Secret. */
  hubTokenSecret?: { name: string; key: string };
  /** Resource requirements of the predictor. */
  resources?: Resources;
  /** Every parsed arg, for options not listed above. */
  args: RuntimeArgs;
}

/**
 * Args inferkit reads that take a value (every implemented arg but the flags). Given bare (`--max_length` last, or before another `--arg`)
 * KServe's argparse stops with "expected one argument"; inferkit refuses them too rather than serve
 * without the value.
 */
const VALUE_ARGS: ReadonlySet<string> = new Set([...IMPLEMENTED_ARGS].filter((name) => !RUNTIME_FLAGS.has(name)));

/**
 * Reads the runtime configuration of an InferenceService from its model or (first) container args.
 * Throws a ValidationError naming the args for a bad `--http_port`/`--max_length`, an arg of
 * inferkit's that needs a value given without one, or a flag given a value other than true/false.
 */
export function runtimeConfig(isvc: InferenceService): RuntimeConfig {
  const { model, containers } = isvc.spec.predictor;
  const container = containers?.[0];
  const argsPath = model ? 'spec.predictor.model.args' : 'spec.predictor.containers[0].args';
  const parsed = parseRuntimeArgs([...(container?.command ?? []), ...(model?.args ?? container?.args ?? [])]);
  const { values, flags } = parsed;
  const misused = [
    ...[...flags].filter((f) => VALUE_ARGS.has(f)).map((f) => `--${f} needs a value (--${f}=…)`),
    // argparse stops on any `--flag=value`; inferkit takes =true and =false, and refuses the rest rather than read them as false.
    ...[...RUNTIME_FLAGS].filter((f) => values[f] !== undefined && !/^(true|false)$/i.test(values[f])).map((f) => `--${f} is a flag: write --${f} (or --${f}=true / --${f}=false), got "${values[f]}"`),
  ];
  if (misused.length > 0) {
    throw new ValidationError(misused.map((message) => ({ path: argsPath, message })));
  }
  const flagOn = (name: string): boolean => flags.has(name) || values[name]?.toLowerCase() === 'true';
  const storageUri = model?.storageUri;
  const fromUri = hubRef(storageUri);
  const protocol = model
    ? model.protocolVersion === 'v2' || model.protocolVersion === 'grpc-v2' ? 'v2' : 'v1'
    : values.protocol?.toLowerCase() === 'v2' ? 'v2' : 'v1';
  const secret = hubSecretRef(model?.env ?? container?.env ?? []);
  return {
    form: model ? 'model' : 'containers',
    modelName: values.model_name ?? isvc.metadata.name,
    ...defined('modelId', values.model_id ?? fromUri?.repo),
    ...defined('modelRevision', values.model_revision ?? fromUri?.revision),
    ...defined('storageUri', storageUri),
    modelDir: values.model_dir ?? '/mnt/models',
    ...defined('task', values.task),
    disableLowerCase: flagOn('disable_lower_case'),
    returnProbabilities: flagOn('return_probabilities'),
    returnRawLogits: flagOn('return_raw_logits'),
    httpPort: intArg(values.http_port, 'http_port', argsPath, 8080, 65535),
    protocol,
    ...defined('maxLength', values.max_length === undefined ? undefined : intArg(values.max_length, 'max_length', argsPath, 0)),
    ...defined('image', container?.image),
    ...defined('hubTokenSecret', secret),
    ...defined('resources', model?.resources ?? container?.resources),
    args: parsed,
  };
}

function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function intArg(raw: string | undefined, name: string, path: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) {
    return fallback;
  }
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new ValidationError([{ path, message: `--${name}: expected a positive integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got "${raw}"` }]);
  }
  return n;
}

/** `hf://org/model[:revision]` → repo and revision. */
function hubRef(uri: string | undefined): { repo: string; revision?: string } | undefined {
  const m = uri === undefined ? null : /^hf:\/\/([^:]+?)(?::([^/]+))?\/?$/.exec(uri);
  if (!m) {
    return undefined;
  }
  return m[2] === undefined ? { repo: m[1] } : { repo: m[1], revision: m[2] };
}

function hubSecretRef(env: readonly EnvVar[]): { name: string; key: string } | undefined {
  const entry = env.find((e) => (e.name === 'HF_TOKEN' || e.name === 'HUGGING_FACE_HUB_TOKEN') && e.valueFrom?.secretKeyRef);
  const ref = entry?.valueFrom?.secretKeyRef;
  return ref ? { name: ref.name, key: ref.key } : undefined;
}
