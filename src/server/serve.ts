import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { InferenceService, Secret } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { registerForecastRoute } from './forecast-route.js';
import { registerInferenceRoutes } from './inference-routes.js';
import { registerInfoRoutes } from './info-routes.js';
import { defaultLoaders } from './default-loaders.js';
import type { ModelLoaders } from './model-loader.js';
import type { InferenceOptions, InferencePlan } from './inference-plan.js';
import { ModelRegistry, type ModelState } from './model-registry.js';
import { rejectionLogLine, RejectedRequests } from './rejected-requests.js';
import { requestLogLine } from './request-log.js';
import { requestLabels } from './request-labels.js';
import { scopeOf, type ServerContext } from './server-context.js';
import { createServerMetrics } from './server-metrics.js';
import { applyServerLimits, checkingInterval, ModelQueue, resolveLimits, type ServerLimits } from './guard-limits.js';
import { installHostAllowList, isLoopback } from './guard-host.js';
import { installEncodingGuard } from './guard-encoding.js';
import { installBodyBudget } from './guard-body-budget.js';
import { installApiKey } from './guard-auth.js';
import { wasAborted } from './guard-abort.js';
import { DEFAULT_MAX_JSON_DEPTH } from './guard-json-depth.js';
import { installJsonParser } from './json-body-parser.js';
import { clipText } from './clip-echo.js';
import { clientErrorReply, errorReply, frameworkErrorReply, MAX_PARAM_LENGTH } from './error-reply.js';
import { DEFAULT_LOAD_RETRY, resolveLoadRetry, type LoadRetry } from './load-retry.js';
import { installGracefulClose } from './graceful-close.js';
import { installConnectionGuard, installProbeHeadroom } from './guard-connections.js';
import { listenOn } from './listen.js';
import { lowerThreadPriority, MAX_NICE } from './event-loop-priority/event-loop-priority.js';
import { maskSecretText } from '../manifest/secret-text.js';

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
  /** Retries of failed model loads (exponential backoff); `{ attempts: 1 }` never retries. @default DEFAULT_LOAD_RETRY (4 attempts, 1 s doubling, at most 30 s) */
  loadRetry?: Partial<LoadRetry>;
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
  /**
   * Stops accepting connections, closes idle keep-alive ones, lets in-flight requests finish (their
   * answers carry `Connection: close`; connections still open after `limits.shutdownTimeoutMs` are
   * cut), then releases the models. Idempotent.
   */
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
 * (e.g. `127.0.0.1:8080`) reach any model by the name in the path. Takes what `fromYaml` returns: its Secrets
 * are skipped, as `inferkit serve` skips them.
 */
export async function serve(documents: readonly (InferenceService | Secret)[], given: ServeOptions = {}): Promise<RunningServer> {
  const manifests = documents.filter((d): d is InferenceService => d.kind === 'InferenceService');
  // Every log line (warnings, request lines with their bodies) has its credentials masked (issue 28 N3).
  const sink = given.log ?? stderrLine;
  const options: ServeOptions = { ...given, log: (line) => sink(maskSecretText(line)) };
  const warn = options.log ?? stderrLine;
  const nice = options.inference?.eventLoopNice ?? 0;
  if (!Number.isInteger(nice) || nice < 0 || nice > MAX_NICE) {
    throw new InferkitError('config', `inference.eventLoopNice must be a whole number from 0 to ${MAX_NICE}, got ${String(nice)}`);
  }
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
    loadRetry: resolveLoadRetry(options.loadRetry ?? DEFAULT_LOAD_RETRY),
    onLoadFailure: (f) => {
      metrics.loadFailures.inc({ model: f.model });
      const next = f.retryInMs === undefined ? 'giving up' : `retrying in ${f.retryInMs} ms`;
      warn(`warning: service ${f.namespace}/${f.service}: model ${f.model} failed to load (attempt ${f.attempt} of ${f.attempts}, ${next}): ${f.message}`);
    },
    ...(options.inference ? { inference: options.inference } : {}),
  });
  for (const w of registry.plan.warnings) {
    warn(`warning: ${w}`);
  }
  for (const e of registry.entries) {
    for (const w of e.warnings ?? []) {
      warn(`warning: service ${e.service}: ${w}`);
    }
  }
  const ctx: ServerContext = { registry, metrics, domain, version: SERVER_VERSION, startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), modelOf: new WeakMap(), entryOf: new WeakMap(), queue: new ModelQueue(limits.maxQueuePerModel), textCaps: limits };
  const rejected = new RejectedRequests(metrics, options.logRequests ? (options.log ?? stderrLine) : undefined);
  const app = Fastify({
    logger: false,
    bodyLimit,
    // graceful-close.ts ends idle connections itself, after a short drain.
    forceCloseConnections: false,
    // graceful-close.ts answers requests that arrive while closing (503 in the contract's form).
    return503OnClosing: false,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // No Host → our allow-list answers a 400 in the contract's form (Node's own has no body).
    http: { connectionsCheckingInterval: checkingInterval(limits), headersTimeout: limits.headersTimeoutMs, requireHostHeader: false },
    // KServe model names may be long (DNS labels, hub ids); the default 100 made them unreachable.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (e, request, reply) => frameworkErrorReply(e, request, reply, (r) => rejected.observe(r)),
    clientErrorHandler: (e, socket) => clientErrorReply(e, socket, (r, s) => rejected.observe(r, s)),
  });
  applyServerLimits(app.server, limits);
  const guard = installConnectionGuard(app.server, limits, (reason) => metrics.connectionsClosed.inc({ reason }));
  const close = installGracefulClose(app, guard, limits.shutdownTimeoutMs, () => registry.close());
  installProbeHeadroom(app, guard);
  installJsonParser(app, options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
  installHostAllowList(app, { served: registry.hosts, domain, bindHost: options.host ?? '127.0.0.1', extra: options.allowedHosts ?? [] });
  installHooks(app, ctx, options, rejected);
  if (options.apiKey !== undefined) {
    installApiKey(app, options.apiKey);
  }
  installEncodingGuard(app);
  // After the key check: a caller without the key reserves no body bytes.
  installBodyBudget(app, limits.maxBodyBytesInFlight, bodyLimit);
  app.setErrorHandler(async (error, request, reply) => errorReply(error, request, reply, bodyLimit));
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404);
    return { error: `no route ${request.method} ${clipText(request.url.split('?')[0] ?? '')}` };
  });
  registerInfoRoutes(app, ctx);
  registerInferenceRoutes(app, ctx);
  registerForecastRoute(app, ctx);

  const host = options.host ?? '127.0.0.1';
  if (options.apiKey === undefined && !isLoopback(host)) {
    warn(`warning: serving on ${host} (beyond loopback) without an API key: anyone who can reach the port can use the models; set apiKey (--api-key, --api-key-file or INFERKIT_API_KEY)`);
  }
  const port = await listenOn(app, host, options.port ?? 8080);
  registry.start(options.loaders ?? defaultLoaders());
  if (nice > 0) {
    // After the sessions' threads have started (they keep the old priority; threads started later inherit the new one).
    void registry.settled().then(() => {
      try {
        lowerThreadPriority(nice);
      } catch (e) {
        warn(`warning: could not lower the event loop's priority (inference.eventLoopNice ${nice}): ${(e as Error).message}`);
      }
    });
  }

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
    close,
  };
}

function stderrLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

function installHooks(app: FastifyInstance, ctx: ServerContext, options: ServeOptions, rejected: RejectedRequests): void {
  const log = options.log ?? stderrLine;
  app.addHook('onRequest', async (request, reply) => {
    const route = routeLabel(request);
    ctx.metrics.inFlight.inc({ route });
    rejected.track(request, reply);
    // 'close' fires once whether the response was written or the client went away.
    reply.raw.once('close', () => {
      ctx.metrics.inFlight.dec({ route });
      if (!wasAborted(reply)) {
        return;
      }
      // Node answered 408 itself (a body not received in time): a timeout, not a client abort.
      const timedOut = rejected.timedOutRequest(request);
      ctx.metrics.requests.inc({ ...requestLabels(ctx, request), route, status: timedOut ? '408' : 'aborted' });
      if (timedOut && options.logRequests) {
        log(rejectionLogLine({ status: 408, reason: 'ERR_HTTP_REQUEST_TIMEOUT', method: request.method, path: request.url }));
      }
    });
  });
  app.addHook('onRequest', async (request) => rejectUnknownHost(ctx, request));
  app.addHook('onResponse', async (request, reply) => {
    const route = routeLabel(request);
    const labels = { ...requestLabels(ctx, request), route, status: String(reply.statusCode) };
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
