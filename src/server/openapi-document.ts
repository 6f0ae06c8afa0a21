import { z } from 'zod';
import { ForecastRequestSchema, ForecastResponseSchema } from '../contract/forecast.js';
import { ErrorBodySchema, V1ModelListSchema, V1ModelStatusSchema, V1PredictRequestSchema, V1PredictResponseSchema } from '../contract/v1.js';
import {
  V2InferRequestSchema,
  V2InferResponseSchema,
  V2LiveSchema,
  V2ModelMetadataSchema,
  V2ModelReadySchema,
  V2ReadySchema,
  V2ServerMetadataSchema,
} from '../contract/v2.js';

const SCHEMAS = {
  V1PredictRequest: V1PredictRequestSchema,
  V1PredictResponse: V1PredictResponseSchema,
  V1ModelStatus: V1ModelStatusSchema,
  V1ModelList: V1ModelListSchema,
  V2InferRequest: V2InferRequestSchema,
  V2InferResponse: V2InferResponseSchema,
  V2ServerMetadata: V2ServerMetadataSchema,
  V2ModelMetadata: V2ModelMetadataSchema,
  V2Live: V2LiveSchema,
  V2Ready: V2ReadySchema,
  V2ModelReady: V2ModelReadySchema,
  ForecastRequest: ForecastRequestSchema,
  ForecastResponse: ForecastResponseSchema,
  Error: ErrorBodySchema,
} as const;

type SchemaName = keyof typeof SCHEMAS;

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: SchemaName, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const errors = (codes: number[], schema: SchemaName = 'Error') =>
  Object.fromEntries(codes.map((c) => [String(c), json(schema, ERROR_TEXT[c] ?? 'error')]));
const ERROR_TEXT: Record<number, string> = {
  400: 'client mistake: invalid JSON, schema, shape',
  404: 'unknown model or Host',
  405: 'wrong method',
  413: 'body over the limit',
  503: 'model loading or failed to load',
};
const nameParam = [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }];

function get(summary: string, schema: SchemaName, more: Record<string, unknown> = {}) {
  return { get: { summary, responses: { '200': json(schema, 'OK'), ...errors([404]) }, ...more } };
}
function post(summary: string, req: SchemaName, res: SchemaName, more: Record<string, unknown> = {}, errSchema: SchemaName = 'Error') {
  return {
    post: {
      summary,
      requestBody: { required: true, content: { 'application/json': { schema: ref(req) } } },
      responses: { '200': json(res, 'OK'), ...errors([400, 404, 405, 413, 503], errSchema) },
      ...more,
    },
  };
}

/**
 * The server's OpenAPI 3.0 document; component schemas are generated from the zod contract
 * (`z.toJSONSchema`, request side), so they cannot drift from what the server parses.
 */
export function openApiDocument(version: string): Record<string, unknown> {
  const schemas = Object.fromEntries(
    Object.entries(SCHEMAS).map(([k, s]) => [k, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' })]),
  );
  return {
    openapi: '3.0.3',
    info: { title: 'inferkit server (KServe V1, Open Inference Protocol V2, time-series forecast)', version },
    paths: {
      '/': { get: { summary: 'liveness (KServe)', responses: { '200': { description: '{"status": "alive"}' } } } },
      '/v1/models': get('V1: list models', 'V1ModelList'),
      '/v1/models/{name}': get('V1: model readiness', 'V1ModelStatus', { parameters: nameParam }),
      '/v1/models/{name}:predict': post('V1 predict (every token-classification model; `inputs` is an alias of `instances`)', 'V1PredictRequest', 'V1PredictResponse', { parameters: nameParam }),
      '/v2': get('V2: server metadata', 'V2ServerMetadata'),
      '/v2/health/live': get('V2: liveness', 'V2Live'),
      '/v2/models': get('V2: list models (as KServe lists them)', 'V1ModelList'),
      '/v2/health/ready': get('V2: readiness (a service Host: its model; a direct address: 503 while any model loads or awaits a retry, then 200 with one ready)', 'V2Ready'),
      '/v2/models/{name}': get('V2: model metadata', 'V2ModelMetadata', { parameters: nameParam }),
      '/v2/models/{name}/ready': get('V2: model readiness', 'V2ModelReady', { parameters: nameParam }),
      '/v2/models/{name}/infer': post('V2 infer (every token-classification model)', 'V2InferRequest', 'V2InferResponse', { parameters: nameParam }),
      '/v1/timeseries/forecast': post('Forecast', 'ForecastRequest', 'ForecastResponse', {}, 'ForecastResponse'),
      '/metrics': { get: { summary: 'Prometheus metrics', responses: { '200': { description: 'text exposition format' } } } },
    },
    components: { schemas },
  };
}
