import type { FastifyRequest } from 'fastify';
import { scopeOf, type ServerContext } from './server-context.js';

/** The labels of a request in `inferkit_requests_total` and `inferkit_request_duration_seconds` besides route and status. */
export interface RequestLabels {
  /** The served model's name, `''` when the request reached none. */
  model: string;
  /** The InferenceService's `metadata.name`: the model's, else the one whose Host the request named (a 4xx before any model), else `''`. */
  service: string;
  /** Its namespace, `''` with no service. */
  namespace: string;
}

/**
 * Labels a request by the model it reached, else by the service its `Host` names: two services
 * serving a model of the same name are two series, and a 400 or 404 sent to a service's Host
 * counts against that service (issue 28).
 */
export function requestLabels(ctx: ServerContext, request: FastifyRequest): RequestLabels {
  const entry = ctx.entryOf.get(request);
  if (entry !== undefined) {
    return { model: entry.name, service: entry.service, namespace: entry.namespace };
  }
  const scope = scopeOf(ctx, request);
  const service = scope.kind === 'service' ? ctx.registry.inScope(scope)[0] : undefined;
  return { model: ctx.modelOf.get(request) ?? '', service: service?.service ?? '', namespace: service?.namespace ?? '' };
}
