import type { InferenceService } from '../contract/inference-service.js';
import { ValidationError } from '../errors.js';

/** How KServe exposes services: Knative (`serverless`) or plain Deployments (`raw`). */
export type DeploymentMode = 'serverless' | 'raw';

/** Options of {@link defaultServiceUrl}. */
export interface ServiceUrlOptions {
  /** Ingress domain. @default 'example.com' */
  domain?: string;
  /** Host form: `serverless` → `{name}.{namespace}.{domain}`, `raw` → `{name}-{namespace}.{domain}`. @default 'serverless' */
  mode?: DeploymentMode;
}

/** The URL KServe gives a service when no status is known: `http://{name}.{namespace}.example.com`. */
export function defaultServiceUrl(name: string, namespace = 'default', options: ServiceUrlOptions = {}): string {
  const domain = options.domain ?? 'example.com';
  const host = options.mode === 'raw' ? `${name}-${namespace}.${domain}` : `${name}.${namespace}.${domain}`;
  return `http://${host}`;
}

/**
 * The service hostname to send as `Host` through an ingress: the host of `status.url`, or of the
 * default URL form when the service has no status yet.
 */
export function serviceHostname(isvc: InferenceService, options: ServiceUrlOptions = {}): string {
  const url = isvc.status?.url ?? defaultServiceUrl(isvc.metadata.name, isvc.metadata.namespace, options);
  try {
    return new URL(url).hostname;
  } catch (cause) {
    throw new ValidationError([{ path: 'status.url', message: `expected an absolute URL, got "${url}"` }], { cause });
  }
}
