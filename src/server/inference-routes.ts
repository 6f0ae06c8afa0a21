import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseContract } from '../contract/parse.js';
import { V1PredictRequestSchema, type V1ModelStatus, type V1PredictResponse } from '../contract/v1.js';
import { V2InferRequestSchema, type V2InferResponse, type V2ModelMetadata, type V2ModelReady } from '../contract/v2.js';
import { InferkitError } from '../errors.js';
import type { ModelEntry } from './model-registry.js';
import { ensureReady, findModel, route, type ServerContext } from './server-context.js';
import type { TokenRunner } from './token-runner.js';

const PREDICT = ':predict';

function nameParam(request: FastifyRequest): string {
  return (request.params as { name?: string }).name ?? '';
}

/** The token runner of a model served on `protocol`, or 404 naming the route it does serve. */
function tokenRunner(entry: ModelEntry, protocol: 'v1' | 'v2'): TokenRunner {
  if (entry.task === 'time_series_forecast') {
    throw new InferkitError('model_not_found', `model "${entry.name}" is a forecasting model: POST /v1/timeseries/forecast with "model": "${entry.name}"`);
  }
  if (entry.protocol !== protocol) {
    const where = entry.protocol === 'v2' ? `POST /v2/models/${entry.name}/infer` : `POST /v1/models/${entry.name}:predict`;
    throw new InferkitError('model_not_found', `model "${entry.name}" is served with the ${entry.protocol.toUpperCase()} protocol (protocolVersion ${entry.protocol === 'v2' ? 'v2' : 'absent'}): ${where}`);
  }
  ensureReady(entry);
  if (entry.tokens === undefined) {
    throw new InferkitError('internal', `model "${entry.name}" has no runner`);
  }
  return entry.tokens;
}

/** V1 `:predict`, V2 `/infer`, and the per-model V1/V2 status and metadata routes. */
export function registerInferenceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  route(app, '/v1/models/:name', {
    GET: async (request, reply): Promise<V1ModelStatus> => {
      const name = nameParam(request);
      if (name.endsWith(PREDICT)) {
        reply.header('allow', 'POST');
        throw new InferkitError('method_not_allowed', `use POST for /v1/models/${name}`);
      }
      const entry = findModel(ctx, request, name);
      return { name: entry.name, ready: entry.phase === 'ready', ...(entry.reason ? { reason: entry.reason } : {}) };
    },
    POST: async (request): Promise<V1PredictResponse> => {
      const raw = nameParam(request);
      if (!raw.endsWith(PREDICT)) {
        if (raw.includes(':')) {
          throw new InferkitError('model_not_found', `unknown verb in /v1/models/${raw}; the V1 verb is :predict`);
        }
        throw new InferkitError('method_not_allowed', `POST /v1/models/${raw} is not a route; predict with POST /v1/models/${raw}:predict`);
      }
      const runner = tokenRunner(findModel(ctx, request, raw.slice(0, -PREDICT.length)), 'v1');
      return runner.predictV1(parseContract(V1PredictRequestSchema, request.body, 'V1 predict request'));
    },
  });

  route(app, '/v2/models/:name/infer', {
    POST: async (request): Promise<V2InferResponse> => {
      const runner = tokenRunner(findModel(ctx, request, nameParam(request)), 'v2');
      return runner.inferV2(parseContract(V2InferRequestSchema, request.body, 'V2 inference request'));
    },
  });

  route(app, '/v2/models/:name', {
    GET: async (request): Promise<V2ModelMetadata> => {
      const entry = findModel(ctx, request, nameParam(request));
      ensureReady(entry);
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
    GET: async (request): Promise<V2ModelReady> => {
      const entry = findModel(ctx, request, nameParam(request));
      return { name: entry.name, ready: entry.phase === 'ready', ...(entry.reason ? { reason: entry.reason } : {}) };
    },
  });
}
