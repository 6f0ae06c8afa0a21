import type { InferenceService } from '../contract/inference-service.js';

/**
 * The `Host` header that reaches `isvc` through an ingress: the host part of `status.url`, or, for a
 * manifest not yet served, KServe's serverless default `{name}.{namespace}.{domain}`.
 */
export function ingressHostOf(isvc: InferenceService, domain = 'example.com'): string {
  const url = isvc.status?.url;
  if (url) {
    try {
      return new URL(url).host;
    } catch {
      // a status.url without a scheme: take it as the host itself
      return url.replace(/\/.*$/, '');
    }
  }
  return `${isvc.metadata.name}.${isvc.metadata.namespace ?? 'default'}.${domain}`;
}

/**
 * The name a model is served under: the last `--model_name=` runtime argument (the model form's
 * `args`, else the first container's), else `metadata.name`.
 */
export function modelNameOf(isvc: InferenceService): string {
  const p = isvc.spec.predictor;
  const args = p.model?.args ?? p.containers?.[0]?.args ?? [];
  let name: string | undefined;
  for (const a of args) {
    const m = /^--model_name=(.+)$/.exec(a);
    if (m) {
      name = m[1];
    }
  }
  return name ?? isvc.metadata.name;
}
