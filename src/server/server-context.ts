import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteHandlerMethod } from 'fastify';
import { InferkitError } from '../errors.js';
import { resolveHostScope, type HostScope } from './host-routing.js';
import type { ModelEntry, ModelRegistry } from './model-registry.js';
import type { ModelQueue } from './guard-limits.js';
import type { TextCaps } from './guard-text-caps.js';
import { LOADING_RETRY_AFTER_S, secondsUntil, setRetryAfter } from './retry-after.js';
import type { ServerMetrics } from './server-metrics.js';

/** What every route module needs. */
export interface ServerContext {
  registry: ModelRegistry;
  metrics: ServerMetrics;
  /** Serving domain (`example.com`). */
  domain: string;
  /** Server version for `/v2` and the OpenAPI document. */
  version: string;
  /** Server start (ISO 8601), the creationTimestamp of manifests that have none. */
  startedAt: string;
  /** Model label of a request for metrics and logs (set once the route knows the model). */
  modelOf: WeakMap<FastifyRequest, string>;
  /** The model entry a request reached (service and namespace labels of its metrics; request-labels.ts). */
  entryOf: WeakMap<FastifyRequest, ModelEntry>;
  /** Per-model request limit (503 with `Retry-After` beyond it). */
  queue?: ModelQueue;
  /** Per-request caps on texts and tokens of token-classification requests (400 beyond them). */
  textCaps?: TextCaps;
}

/** The Host scope of a request. */
export function scopeOf(ctx: ServerContext, request: FastifyRequest): HostScope {
  return resolveHostScope(request.headers.host, ctx.registry.hosts, ctx.domain);
}

/** Finds the model `name` for a request (Host + name) and records it for metrics. */
export function findModel(ctx: ServerContext, request: FastifyRequest, name: string): ModelEntry {
  const entry = ctx.registry.find(scopeOf(ctx, request), name);
  ctx.modelOf.set(request, entry.name);
  ctx.entryOf.set(request, entry);
  return entry;
}

/**
 * Throws `model_not_ready` (503) while the model loads or after it failed to load. With `reply`,
 * sets `Retry-After`: a second while loading, the seconds until the next attempt while a failed
 * load waits for its retry, none once the load failed for good.
 */
export function ensureReady(entry: ModelEntry, reply?: FastifyReply): void {
  if (entry.phase === 'loading') {
    setRetryAfter(reply, LOADING_RETRY_AFTER_S);
    throw new InferkitError('model_not_ready', `model "${entry.name}" is loading; retry shortly`);
  }
  if (entry.phase === 'failed') {
    const retry = entry.retry ? `; retry ${entry.retry.attempt} of ${entry.retry.of} at ${entry.retry.at}` : '';
    if (entry.retry) {
      setRetryAfter(reply, secondsUntil(entry.retry.at));
    }
    throw new InferkitError('model_not_ready', `model "${entry.name}" failed to load: ${entry.reason ?? 'unknown reason'}${retry}`);
  }
}

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * Registers `handlers` on `url` and answers every other method with 405 and an `Allow` header
 * (Fastify itself would answer 404). HEAD follows GET.
 */
export function route(app: FastifyInstance, url: string, handlers: Partial<Record<'GET' | 'POST', RouteHandlerMethod>>): void {
  const allowed = Object.keys(handlers) as Array<'GET' | 'POST'>;
  for (const m of allowed) {
    app.route({ method: m, url, handler: handlers[m] as RouteHandlerMethod });
  }
  const allow = [...allowed, ...(handlers.GET ? ['HEAD'] : [])].join(', ');
  const others = METHODS.filter((m) => !allowed.includes(m as 'GET' | 'POST'));
  if (!handlers.GET) {
    others.push('HEAD');
  }
  app.route({
    method: others,
    url,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('allow', allow);
      throw new InferkitError('method_not_allowed', `method ${request.method} is not allowed on ${url}; use ${allow}`);
    },
  });
}
