import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseContract } from '../contract/parse.js';
import { V1PredictRequestSchema, type V1ModelStatus, type V1PredictResponse } from '../contract/v1.js';
import { V2InferRequestSchema, type V2InferResponse, type V2ModelMetadata, type V2ModelReady } from '../contract/v2.js';
import { InferkitError } from '../errors.js';
import { textsFromV2Request } from '../runtime/token-classification/kserve-outputs.js';
import { disconnectSignal } from './guard-abort.js';
import { checkTextCaps } from './guard-text-caps.js';
import type { ModelEntry } from './model-registry.js';
import { ensureReady, findModel, route, type ServerContext } from './server-context.js';
import type { TokenRunner } from './token-runner.js';

const PREDICT = ':predict';
const EXPLAIN = ':explain';

function nameParam(request: FastifyRequest): string {
  return (request.params as { name?: string }).name ?? '';
}

/** The per-request text and token caps (guard-text-caps.ts), with the model's own longest input. */
function checkCaps(ctx: ServerContext, entry: ModelEntry, texts: readonly string[], field: string): void {
  if (ctx.textCaps === undefined) {
    return;
  }
  const n = Number(entry.config?.args.values.max_model_len ?? entry.config?.maxLength ?? Number.NaN);
  checkTextCaps(texts, ctx.textCaps, field, n > 0 ? n : undefined);
}

/**
 * A model's readiness answer (`/v1/models/{m}`, `/v2/models/{m}/ready`): 200 `{name, ready: true}`
 * exactly when an inference request would be answered (ensureReady passes), else 503 with
 * `{name, ready: false, reason?}` and the `Retry-After` of the inference routes, as KServe's
 * ModelNotReady — a Kubernetes readiness probe reads the status, not the body (issue 28).
 */
function readiness(entry: ModelEntry, reply: FastifyReply): { name: string; ready: boolean; reason?: string } {
  try {
    ensureReady(entry, reply);
  } catch {
    reply.code(503);
    return { name: entry.name, ready: false, ...(entry.reason ? { reason: entry.reason } : {}) };
  }
  return { name: entry.name, ready: true };
}

/**
 * The token runner of a token-classification model. Like KServe's Hugging Face runtime, every
 * token-classification model answers both V1 `:predict` and V2 `/infer`, whatever `protocolVersion`.
 */
function tokenRunner(entry: ModelEntry, reply: FastifyReply): TokenRunner {
  if (entry.task === 'time_series_forecast') {
    throw new InferkitError('model_not_found', `model "${entry.name}" is a forecasting model: POST /v1/timeseries/forecast with "model": "${entry.name}"`);
  }
  ensureReady(entry, reply);
  if (entry.tokens === undefined) {
    throw new InferkitError('internal', `model "${entry.name}" has no runner`);
  }
  return entry.tokens;
}

/**
 * V1's columnar form `{"inputs": [...]}` read as `{"instances": [...]}` (KServe accepts both);
 * a body with `instances` is left as it is.
 */
export function v1InputsAlias(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'instances' in body || !('inputs' in body)) {
    return body;
  }
  const { inputs, ...rest } = body as { inputs: unknown };
  return { ...rest, instances: inputs };
}

/** KServe's answer to a model-version route: 501 (after a 404 for an unknown model). */
function versionsUnsupported(ctx: ServerContext, request: FastifyRequest): never {
  findModel(ctx, request, nameParam(request));
  throw new InferkitError('unsupported', 'Model versioning not supported yet.');
}

/**
 * V1 `:predict` (`:explain` → 501), V2 `/infer`, the per-model V1/V2 status and metadata routes,
 * and KServe's model-version routes (501: versioning is not supported, as in KServe).
 */
export function registerInferenceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  route(app, '/v1/models/:name', {
    GET: async (request, reply): Promise<V1ModelStatus> => {
      const name = nameParam(request);
      if (name.endsWith(PREDICT)) {
        reply.header('allow', 'POST');
        throw new InferkitError('method_not_allowed', `use POST for /v1/models/${name}`);
      }
      return readiness(findModel(ctx, request, name), reply);
    },
    POST: async (request, reply): Promise<V1PredictResponse> => {
      const raw = nameParam(request);
      if (raw.endsWith(EXPLAIN)) {
        const entry = findModel(ctx, request, raw.slice(0, -EXPLAIN.length));
        throw new InferkitError('unsupported', `model "${entry.name}" has no explainer: inferkit does not serve :explain`);
      }
      if (!raw.endsWith(PREDICT)) {
        if (raw.includes(':')) {
          throw new InferkitError('model_not_found', `unknown verb in /v1/models/${raw}; the V1 verbs are :predict and :explain`);
        }
        throw new InferkitError('method_not_allowed', `POST /v1/models/${raw} is not a route; predict with POST /v1/models/${raw}:predict`);
      }
      const entry = findModel(ctx, request, raw.slice(0, -PREDICT.length));
      const runner = tokenRunner(entry, reply);
      const body = parseContract(V1PredictRequestSchema, v1InputsAlias(request.body), 'V1 predict request');
      checkCaps(ctx, entry, body.instances, 'instances');
      ctx.queue?.admit(entry.name, reply);
      return runner.predictV1(body, disconnectSignal(reply));
    },
  });

  route(app, '/v2/models/:name/infer', {
    POST: async (request, reply): Promise<V2InferResponse> => {
      const entry = findModel(ctx, request, nameParam(request));
      const runner = tokenRunner(entry, reply);
      const body = parseContract(V2InferRequestSchema, request.body, 'V2 inference request');
      checkCaps(ctx, entry, textsFromV2Request(body), 'inputs[0].data');
      ctx.queue?.admit(entry.name, reply);
      return runner.inferV2(body, disconnectSignal(reply));
    },
  });

  route(app, '/v2/models/:name', {
    GET: async (request, reply): Promise<V2ModelMetadata> => {
      const entry = findModel(ctx, request, nameParam(request));
      ensureReady(entry, reply);
      const model = entry.model;
      if (model?.task === 'token_classification') {
        return model.predictor.metadata();
      }
      return {
        name: entry.name,
        versions: [],
        platform: 'inferkit',
        inputs: [],
        outputs: [],
        parameters: { task: 'time_series_forecast', route: 'POST /v1/timeseries/forecast' },
      };
    },
  });

  route(app, '/v2/models/:name/ready', {
    GET: async (request, reply): Promise<V2ModelReady> => readiness(findModel(ctx, request, nameParam(request)), reply),
  });

  const versioned = '/v2/models/:name/versions/:version';
  route(app, versioned, { GET: async (request) => versionsUnsupported(ctx, request) });
  route(app, `${versioned}/ready`, { GET: async (request) => versionsUnsupported(ctx, request) });
  route(app, `${versioned}/infer`, { POST: async (request) => versionsUnsupported(ctx, request) });
}
