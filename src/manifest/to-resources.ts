import type { Resources } from '../contract/inference-service.js';

/** A resource quantity as a builder accepts it (`"1"`, `"500m"`, `"4Gi"`, or a number). */
export type QuantityInput = string | number;

/**
 * Resource options of the builders. The shorthands `cpu`, `memory` and `gpu` set both requests and
 * limits to the same value (GPUs as `nvidia.com/gpu`, which Kubernetes requires equal in both);
 * explicit `requests` / `limits` maps are merged over them.
 */
export interface ResourceOptions {
  /** CPU for requests and limits, e.g. `"1"` or `"500m"`. */
  cpu?: QuantityInput;
  /** Memory for requests and limits, e.g. `"4Gi"`. */
  memory?: QuantityInput;
  /** Whole number of NVIDIA GPUs (`nvidia.com/gpu`). */
  gpu?: QuantityInput;
  /** Extra or overriding limits, keyed by resource name. */
  limits?: Record<string, QuantityInput>;
  /** Extra or overriding requests, keyed by resource name. */
  requests?: Record<string, QuantityInput>;
}

/**
 * Turns builder resource options into a `resources` block with string quantities, or undefined when
 * nothing was asked for. Quantities are checked later by the contract schema.
 */
export function toResources(options: ResourceOptions | undefined): Resources | undefined {
  if (!options) {
    return undefined;
  }
  const base: Record<string, string> = {};
  if (options.cpu !== undefined) {
    base.cpu = String(options.cpu);
  }
  if (options.memory !== undefined) {
    base.memory = String(options.memory);
  }
  if (options.gpu !== undefined) {
    base['nvidia.com/gpu'] = String(options.gpu);
  }
  const limits = { ...base, ...stringify(options.limits) };
  const requests = { ...base, ...stringify(options.requests) };
  const out: Resources = {};
  if (Object.keys(limits).length > 0) {
    out.limits = limits;
  }
  if (Object.keys(requests).length > 0) {
    out.requests = requests;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function stringify(map: Record<string, QuantityInput> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map ?? {})) {
    out[k] = String(v);
  }
  return out;
}
