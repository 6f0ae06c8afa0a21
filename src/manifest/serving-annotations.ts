import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import type { RuntimeConfig } from './runtime-config.js';

/** Annotation that picks the ONNX graph of a token-classification service (KServe ignores it). */
export const ONNX_VARIANT_ANNOTATION = 'serving.inferkit.dev/onnx-variant';
/** Runtime arg with the same meaning (`--onnx_variant=quantized`; KServe's `parse_known_args` ignores it). */
export const ONNX_VARIANT_ARG = 'onnx_variant';

/**
 * Annotation that sets a service's session replicas (a positive integer), overriding the server's
 * `replicas` (`inferkit serve --replicas`) for that service alone; at most one per thread of its share.
 * An annotation rather than a runtime arg: KServe ignores it, and the predictor's args stay what
 * KServe's runtime runs (a `--replicas` there would read as the pod replicas of `minReplicas`).
 */
export const REPLICAS_ANNOTATION = 'serving.inferkit.dev/replicas';

/** Which graph of a repo is served: `onnx/model.onnx` or the int8 `onnx/model_quantized.onnx`. */
export type OnnxVariant = 'default' | 'quantized';

/**
 * The session replicas a service asks for with annotation `serving.inferkit.dev/replicas`, or
 * undefined. Throws `config` naming the annotation for anything but a positive integer.
 */
export function serviceReplicas(isvc: InferenceService): number | undefined {
  const raw = isvc.metadata.annotations?.[REPLICAS_ANNOTATION] as unknown;
  if (raw === undefined) {
    return undefined;
  }
  const text = String(raw).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InferkitError('config', `annotation ${REPLICAS_ANNOTATION}: expected a positive integer (session replicas), got "${String(raw)}"`, { param: REPLICAS_ANNOTATION });
  }
  return n;
}

/**
 * The ONNX graph a service asks for: annotation `serving.inferkit.dev/onnx-variant`, else arg
 * `--onnx_variant`, else `quantized` when `forceQuantized`, else `default`. Throws `config` naming the
 * annotation or arg for another value.
 */
export function onnxVariant(isvc: InferenceService, config: RuntimeConfig, forceQuantized = false): OnnxVariant {
  const fromAnnotation = isvc.metadata.annotations?.[ONNX_VARIANT_ANNOTATION];
  const fromArg = config.args.values[ONNX_VARIANT_ARG];
  const raw = fromAnnotation ?? fromArg;
  if (raw === undefined) {
    return forceQuantized ? 'quantized' : 'default';
  }
  const value = raw.trim().toLowerCase();
  if (value === 'quantized' || value === 'int8') {
    return 'quantized';
  }
  if (value === 'default' || value === 'fp32') {
    return forceQuantized ? 'quantized' : 'default';
  }
  const where = fromAnnotation !== undefined ? `annotation ${ONNX_VARIANT_ANNOTATION}` : `--${ONNX_VARIANT_ARG}`;
  throw new InferkitError('config', `${where}: expected "quantized" (onnx/model_quantized.onnx) or "default" (onnx/model.onnx), got "${raw}"`, { param: where });
}
