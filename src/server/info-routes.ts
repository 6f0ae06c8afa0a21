import { maskManifestSecrets } from '../manifest/secret-env.js';
import type { FastifyInstance } from 'fastify';
import type { V1ModelList } from '../contract/v1.js';
import type { V2Live, V2Ready, V2ServerMetadata } from '../contract/v2.js';
import { openApiDocument } from './openapi-document.js';
import type { ServedModel } from './model-loader.js';
import { route, scopeOf, type ServerContext } from './server-context.js';

/** Path of inferkit's own listing of served services (used by `inferkit get`). */
export const SERVICES_PATH = '/inferkit/v1/services';

/**
 * Server-level routes: `GET /` (KServe liveness), `/v1/models`, `/v2`, `/v2/` (307 to `/v2`),
 * `/v2/models` (names, as KServe lists them), `/v2/health/live`,
 * `/v2/health/ready` (a service Host: 200 when its model is ready; a direct address: 200 once
 * every model has settled, loaded or failed for good, with one at least ready; else 503), `/metrics`,
 * `/openapi.json`, and `/inferkit/v1/services` (states, status objects and manifests).
 */
export function registerInfoRoutes(app: FastifyInstance, ctx: ServerContext): void {
  /** Each loaded model's compute milliseconds at the last scrape. */
  const computeSeen = new WeakMap<ServedModel, number>();
  route(app, '/', { GET: async () => ({ status: 'alive' }) });
  route(app, '/v1/models', {
    GET: async (request): Promise<V1ModelList> => ({ models: ctx.registry.inScope(scopeOf(ctx, request)).map((e) => e.name) }),
  });
  route(app, '/v2', {
    GET: async (): Promise<V2ServerMetadata> => ({ name: 'inferkit', version: ctx.version, extensions: [] }),
  });
  route(app, '/v2/', { GET: async (_request, reply) => reply.redirect('/v2', 307) });
  route(app, '/v2/models', {
    GET: async (request): Promise<V1ModelList> => ({ models: ctx.registry.inScope(scopeOf(ctx, request)).map((e) => e.name) }),
  });
  route(app, '/v2/health/live', { GET: async (): Promise<V2Live> => ({ live: true }) });
  route(app, '/v2/health/ready', {
    GET: async (request, reply): Promise<V2Ready> => {
      const scope = scopeOf(ctx, request);
      const entries = ctx.registry.inScope(scope);
      // A service's Host: ready when its model is (as KServe's pod). A direct address: the server as
      // a whole is ready once no model is loading or waiting for a retry and one at least serves; a
      // model that failed for good is reported on its own routes, in metrics and the log.
      const ready =
        scope.kind === 'service'
          ? entries.length > 0 && entries.every((e) => e.phase === 'ready')
          : entries.some((e) => e.phase === 'ready') && entries.every((e) => e.phase === 'ready' || (e.phase === 'failed' && e.retry === undefined));
      reply.code(ready ? 200 : 503);
      return { ready };
    },
  });
  route(app, '/metrics', {
    GET: async (_request, reply) => {
      for (const e of ctx.registry.entries) {
        ctx.metrics.modelReady.set({ model: e.name }, e.phase === 'ready' ? 1 : 0);
        // Compute time: the loaded model's own running total, added as its growth since the last scrape.
        const busyMs = modelBusyMs(e.model);
        if (e.model !== undefined && busyMs !== undefined) {
          ctx.metrics.computeSeconds.inc({ model: e.name }, Math.max(0, busyMs - (computeSeen.get(e.model) ?? 0)) / 1000);
          computeSeen.set(e.model, busyMs);
        }
      }
      reply.header('content-type', ctx.metrics.registry.contentType);
      return ctx.metrics.registry.metrics();
    },
  });
  const openapi = openApiDocument(ctx.version);
  route(app, '/openapi.json', { GET: async () => openapi });
  route(app, SERVICES_PATH, {
    GET: async (request) => {
      const scope = scopeOf(ctx, request);
      const states = ctx.registry.states();
      // Masked as a whole: a credential may also stand in a state's url or reason, not only in the manifest.
      return maskManifestSecrets({
        services: ctx.registry.entries
          .map((e, i) => ({ entry: e, state: states[i] }))
          .filter(({ entry }) => ctx.registry.inScope(scope).includes(entry))
          .map(({ entry, state }) => ({
            ...state,
            manifest: {
              ...entry.isvc,
              metadata: { ...entry.isvc.metadata, creationTimestamp: entry.isvc.metadata.creationTimestamp ?? ctx.startedAt },
              status: state.status,
            },
          })),
      });
    },
  });
}

/** Milliseconds a served model's worker threads spent on runs; undefined when it runs in-thread or cannot tell. */
function modelBusyMs(model: ServedModel | undefined): number | undefined {
  if (model === undefined) {
    return undefined;
  }
  return model.task === 'token_classification' ? model.busyMs?.() : model.model?.busyMs;
}
