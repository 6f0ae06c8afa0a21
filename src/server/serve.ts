import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { errorResponse } from '../protocol/forecast/error-response.js';
import { FORECAST_PATH, registerForecastRoute, requestedModel } from './forecast-route.js';
import { registerInferenceRoutes } from './inference-routes.js';
import { registerInfoRoutes } from './info-routes.js';
import { defaultLoaders } from './default-loaders.js';
import type { ModelLoaders } from './model-loader.js';
import type { InferenceOptions, InferencePlan } from './inference-plan.js';
import { ModelRegistry, type ModelState } from './model-registry.js';
import { requestLogLine } from './request-log.js';
import { scopeOf, type ServerContext } from './server-context.js';
import { createServerMetrics } from './server-metrics.js';
import { applyServerLimits, checkingInterval, ModelQueue, resolveLimits, type ServerLimits } from './guard-limits.js';
import { installHostAllowList, isLoopback } from './guard-host.js';
import { installEncodingGuard } from './guard-encoding.js';
import { installApiKey } from './guard-auth.js';
import { wasAborted } from './guard-abort.js';
import { assertJsonDepth, DEFAULT_MAX_JSON_DEPTH } from './guard-json-depth.js';
import { toErrorResponse } from './to-error-response.js';

/** Version reported by `GET /v2` and the OpenAPI document. */
export const SERVER_VERSION = '0.1.0';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Task → loader (fixture loaders in tests and demos). @default defaultLoaders() — hub ids need `defaultLoaders({ cacheDir, … })` */
  loaders?: ModelLoaders;
  /** TCP port; `0` picks a free one. @default 8080 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Domain of default service hosts `{name}.{namespace}.{domain}` (when a manifest has no status.url). @default 'example.com' */
  domain?: string;
  /** Most texts (token classification) or series (forecast) merged into one model call; `0`/`1` disables batching. @default 32 */
  maxBatchSize?: number;
  /** `0` disables batching; otherwise an idle model starts at once and a busy one merges what queued (see `waitWhenIdle`). @default 2 */
  maxWaitMs?: number;
  /** Hold the first request of an idle model up to `maxWaitMs` for others to join (the old window: more merging, a latency tax). @default false */
  waitWhenIdle?: boolean;
  /** Largest request body in bytes (413 above). @default 10 MiB */
  bodyLimit?: number;
  /** Deepest nesting of arrays/objects in a request body (400 beyond). @default 64 */
  maxJsonDepth?: number;
  /** Timeouts, connection cap and per-model queue limit; each defaults to `DEFAULT_LIMITS` (see README). */
  limits?: Partial<ServerLimits>;
  /** Host names accepted besides loopback names, the served hosts, sub-domains of `domain` and the bound host (others: 400, against DNS rebinding). */
  allowedHosts?: readonly string[];
  /** Bearer token required on every route but liveness (`/`, `/v2/health/live`); 401 otherwise. Off when unset. */
  apiKey?: string;
  /** Log one line per request with a truncated body (input texts included). Off by default: texts may be personal data. */
  logRequests?: boolean;
  /** Where log lines go. @default process.stderr */
  log?: (line: string) => void;
  /** Threads (default: the CPUs the process may use, shared among the models), worker threads (default on), spinning, int8. */
  inference?: InferenceOptions;
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  host: string;
  /** Stops accepting connections, lets in-flight requests finish, then releases the models. Idempotent. */
  close(): Promise<void>;
  /** Every served model's state, in manifest order. */
  models(): ModelState[];
  /** Resolves with the states once every model has loaded or failed. */
  loaded(): Promise<ModelState[]>;
  /** The Fastify instance (for `inject` and extra routes). */
  app: FastifyInstance;
  /** How inference runs: thread budget and each model's share (also in `/inferkit/v1/services`). */
  inference: InferencePlan;
}

/**
 * Serves InferenceServices on one port, routed by `Host` (the host of each service's
 * `status.url`, default `{name}.{namespace}.{domain}`). Answers at once: models load in the
 * background (503 on their routes meanwhile); one that fails to load is READY False with its
 * reason while the others serve. Requests whose Host is no service host but not under the domain
 * (e.g. `127.0.0.1:8080`) reach any model by the name in the path.
 */
export async function serve(manifests: readonly InferenceService[], options: ServeOptions = {}): Promise<RunningServer> {
  const domain = options.domain ?? 'example.com';
  const bodyLimit = options.bodyLimit ?? 10 * 1024 * 1024;
  const limits = resolveLimits(options.limits);
  const metrics = createServerMetrics();
  const registry = new ModelRegistry(manifests, {
    domain,
    batching: { maxBatchSize: options.maxBatchSize ?? 32, maxWaitMs: options.maxWaitMs ?? 2, ...(options.waitWhenIdle ? { waitWhenIdle: true } : {}) },
    onBatch: (model, items, requests) => {
      metrics.batchSize.observe({ model }, items);
      metrics.batchRequests.observe({ model }, requests);
    },
    ...(options.inference ? { inference: options.inference } : {}),
  });
  const warn = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  for (const w of registry.plan.warnings) {
    warn(`warning: ${w}`);
  }
  for (const e of registry.entries) {
    for (const w of e.warnings ?? []) {
      warn(`warning: service ${e.service}: ${w}`);
    }
  }
  const ctx: ServerContext = { registry, metrics, domain, version: SERVER_VERSION, startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), modelOf: new WeakMap(), queue: new ModelQueue(limits.maxQueuePerModel) };
  const app = Fastify({
    logger: false,
    bodyLimit,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { connectionsCheckingInterval: checkingInterval(limits), headersTimeout: limits.headersTimeoutMs },
    // KServe model names may be long (DNS labels, hub ids); the default 100 made them unreachable.
    routerOptions: { maxParamLength: 1024 },
  });
  applyServerLimits(app.server, limits);
  installJsonParser(app, options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
  installHostAllowList(app, { served: registry.hosts, domain, bindHost: options.host ?? '127.0.0.1', extra: options.allowedHosts ?? [] });
  installHooks(app, ctx, options);
  installEncodingGuard(app);
  if (options.apiKey !== undefined) {
    installApiKey(app, options.apiKey);
  }
  app.setErrorHandler(async (error, request, reply) => errorReply(error, request, reply, bodyLimit));
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404);
    return { error: `no route ${request.method} ${request.url.split('?')[0]}` };
  });
  registerInfoRoutes(app, ctx);
  registerInferenceRoutes(app, ctx);
  registerForecastRoute(app, ctx);

  const host = options.host ?? '127.0.0.1';
  if (options.apiKey === undefined && !isLoopback(host)) {
    warn(`warning: serving on ${host} (beyond loopback) without an API key: anyone who can reach the port can use the models; set apiKey (--api-key or INFERKIT_API_KEY)`);
  }
  await app.listen({ port: options.port ?? 8080, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 8080);
  registry.start(options.loaders ?? defaultLoaders());

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    host,
    app,
    inference: registry.plan,
    models: () => registry.states(),
    loaded: async () => {
      await registry.settled();
      return registry.states();
    },
    close: () => {
      closing ??= app.close().then(() => registry.close());
      return closing;
    },
  };
}

/**
 * Every body is read as JSON whatever its Content-Type (curl's default form type included); a
 * body that is not JSON is a 400 naming the content type. Fastify's 415 is never answered.
 */
function installJsonParser(app: FastifyInstance, maxDepth: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim().length === 0) {
      done(null, undefined);
      return;
    }
    try {
      assertJsonDepth(text, maxDepth);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch (cause) {
      const type = request.headers['content-type'] ?? 'none';
      const why = cause instanceof Error ? cause.message : 'parse error';
      done(new InferkitError('invalid_request', `request body is not valid JSON (content-type ${type}): ${why}`, { cause }), undefined);
    }
  });
}

function installHooks(app: FastifyInstance, ctx: ServerContext, options: ServeOptions): void {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  app.addHook('onRequest', async (request, reply) => {
    const route = routeLabel(request);
    ctx.metrics.inFlight.inc({ route });
    // 'close' fires once whether the response was written or the client went away.
    reply.raw.once('close', () => {
      ctx.metrics.inFlight.dec({ route });
      if (wasAborted(reply)) {
        ctx.metrics.requests.inc({ model: ctx.modelOf.get(request) ?? '', route, status: 'aborted' });
      }
    });
  });
  app.addHook('onRequest', async (request) => rejectUnknownHost(ctx, request));
  app.addHook('onResponse', async (request, reply) => {
    const route = routeLabel(request);
    const labels = { model: ctx.modelOf.get(request) ?? '', route, status: String(reply.statusCode) };
    ctx.metrics.requests.inc(labels);
    ctx.metrics.duration.observe(labels, reply.elapsedTime / 1000);
    if (options.logRequests) {
      log(requestLogLine(request, reply, labels.model));
    }
  });
}

/** inferkit's own paths, reached whatever the Host (not KServe routes). */
const OWN_PATHS = /^\/(metrics|openapi\.json|inferkit\/)/;

/**
 * A Host under the serving domain that no service has gets 404 on every KServe route, health and
 * server metadata included, as KServe's ingress answers it (it never reaches a model server).
 */
function rejectUnknownHost(ctx: ServerContext, request: FastifyRequest): void {
  if (OWN_PATHS.test(request.url)) {
    return;
  }
  const scope = scopeOf(ctx, request);
  if (scope.kind === 'unknown') {
    throw new InferkitError('model_not_found', `no InferenceService is served at host "${scope.host}"; list the services with GET /inferkit/v1/services`);
  }
}

/** Route pattern (bounded label set), `unmatched` for 404s. */
function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

function errorReply(error: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): unknown {
  const e = clearerFastifyError(error, request, bodyLimit);
  const mapped = toErrorResponse(e);
  reply.code(mapped.status);
  if (request.url.split('?')[0] === FORECAST_PATH) {
    return errorResponse(mapped.status === 500 ? e : asInferkit(e, mapped.code, mapped.body.error), requestedModel(request.body));
  }
  return mapped.body;
}

/** Fastify's body-limit and content-type errors with messages that say what to do. */
function clearerFastifyError(error: unknown, request: FastifyRequest, bodyLimit: number): unknown {
  if (error instanceof InferkitError) {
    return error;
  }
  const code = toErrorResponse(error).code;
  if (code === 'payload_too_large') {
    return new InferkitError('payload_too_large', `request body is larger than the limit of ${bodyLimit} bytes`, { cause: error });
  }
  const fst = (error as { code?: unknown }).code;
  if (code === 'invalid_request' && typeof fst === 'string' && fst.startsWith('FST_ERR_CTP_')) {
    const type = JSON.stringify(request.headers['content-type'] ?? '');
    return new InferkitError('invalid_request', `request body could not be read (content-type ${type}): ${(error as Error).message}; send JSON with content-type application/json`, { cause: error });
  }
  return error;
}

/** Fastify's own errors as InferkitErrors, so the forecast error body gets the right code and type. */
function asInferkit(e: unknown, code: InferkitError['code'], message: string): unknown {
  return e instanceof InferkitError ? e : new InferkitError(code, message, { cause: e });
}
