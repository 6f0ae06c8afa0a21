import { ForecastResponseSchema, type ForecastRequestInput, type ForecastResponse } from '../contract/forecast.js';
import type { InferenceService, Secret } from '../contract/inference-service.js';
import type { CallOptions, Forecaster, Predictor } from '../contract/predictor.js';
import { V1ModelListSchema, V1PredictResponseSchema, type V1PredictRequest, type V1PredictResponse } from '../contract/v1.js';
import {
  V2InferResponseSchema,
  V2LiveSchema,
  V2ModelMetadataSchema,
  V2ModelReadySchema,
  V2ServerMetadataSchema,
  type V2InferRequest,
  type V2InferResponse,
  type V2ModelMetadata,
  type V2ServerMetadata,
} from '../contract/v2.js';
import { HttpError, InferkitError, isInferkitError } from '../errors.js';
import { createRequester, type RequestOptions } from './request.js';
import { ingressHostOf, modelNameOf } from './service-target.js';

/** Where the server is: a base URL, or an ingress address (`INGRESS_HOST` / `INGRESS_PORT`). */
export type RemoteTarget = { baseUrl: string } | { ingressHost: string; ingressPort: number };

/** Which model to reach and how to call it. */
export interface RemoteOptions extends Omit<RequestOptions, 'baseUrl' | 'host'> {
  /** `Host` header to send (the service hostname). Wins over the one taken from `isvc`. */
  host?: string;
  /**
   * A served InferenceService: gives the `Host` (from `status.url`) and the model name. A document of `fromYaml`
   * is taken as it is (a Secret there throws `config`).
   */
  isvc?: InferenceService | Secret;
  /** Model name in paths (`--model_name`). @default from `isvc`, else none (model calls then throw) */
  modelName?: string;
}

/** A remote model: the Predictor and Forecaster interfaces plus server-level calls. */
export interface RemoteModel extends Predictor, Forecaster {
  /** Base URL every call goes to. */
  readonly baseUrl: string;
  /** `Host` header sent, if any. */
  readonly host: string | undefined;
  /** `GET /v2`: server name, version, extensions. */
  serverMetadata(options?: CallOptions): Promise<V2ServerMetadata>;
  /** `GET /v2/health/live`; false when the server cannot be reached, does not answer in time, or is not live. */
  live(options?: CallOptions): Promise<boolean>;
  /** `GET /v1/models`: names of the models served behind this host. */
  listModels(options?: CallOptions): Promise<string[]>;
}

/** The base URL of a target. */
export function baseUrlOf(target: RemoteTarget): string {
  if ('baseUrl' in target) {
    return target.baseUrl.replace(/\/+$/, '');
  }
  const host = target.ingressHost.includes(':') && !target.ingressHost.startsWith('[') ? `[${target.ingressHost}]` : target.ingressHost;
  return `http://${host}:${target.ingressPort}`;
}

/**
 * A client for one model served by inferkit's server or a KServe deployment. Sends the model's
 * `Host` header, parses every response with the contract schemas, throws `HttpError` (status, url,
 * server message, full `body`) for non-2xx answers — the forecast route's 400 included — and
 * `InferkitError` (`timeout`, `network`, `http_error` for a response that breaks the contract).
 * A 503 or a refused connection is retried with backoff; a request sent on a kept-alive connection
 * the server had already closed (uvicorn closes it after a 500) got no answer and is re-sent once on a
 * new connection, whatever its method. Answers are read leniently (KServe's `versions: null`, empty
 * lists, extra fields kept; a forecast's `frequency` as the server wrote it). An aborted `signal`
 * rejects with its reason.
 */
export function remote(target: RemoteTarget, options: RemoteOptions = {}): RemoteModel {
  const baseUrl = baseUrlOf(target);
  const given = options.isvc;
  if (given !== undefined && given.kind !== 'InferenceService') {
    throw new InferkitError('config', `remote(): isvc is a ${given.kind} ("${given.metadata.name}"), not an InferenceService`, { param: 'isvc' });
  }
  const isvc = given as InferenceService | undefined; // a Secret threw above; tslab's TypeScript 5.0 does not narrow the union here
  const host = options.host ?? (isvc ? ingressHostOf(isvc) : undefined);
  const name = options.modelName ?? (isvc ? modelNameOf(isvc) : '');
  const { isvc: _isvc, modelName: _modelName, host: _host, ...transport } = options;
  const call = createRequester({ ...transport, baseUrl, host });
  const modelPath = (suffix: string): string => {
    if (name === '') {
      throw new InferkitError('config', 'remote(): no model name; pass modelName or isvc');
    }
    return `/v${suffix.startsWith(':') ? '1' : '2'}/models/${encodeURIComponent(name)}${suffix}`;
  };

  return {
    name,
    baseUrl,
    host,
    predictV1: (request: V1PredictRequest, o: CallOptions = {}): Promise<V1PredictResponse> =>
      call({ method: 'POST', path: modelPath(':predict'), body: request, schema: V1PredictResponseSchema, signal: o.signal }),
    inferV2: (request: V2InferRequest, o: CallOptions = {}): Promise<V2InferResponse> =>
      call({ method: 'POST', path: modelPath('/infer'), body: request, schema: V2InferResponseSchema, signal: o.signal }),
    forecast: (request: ForecastRequestInput, o: CallOptions = {}): Promise<ForecastResponse> =>
      call({ method: 'POST', path: '/v1/timeseries/forecast', body: request, schema: ForecastResponseSchema, signal: o.signal }),
    metadata: (o: CallOptions = {}): Promise<V2ModelMetadata> =>
      call({ method: 'GET', path: modelPath(''), schema: V2ModelMetadataSchema, signal: o.signal }),
    async ready(o: CallOptions = {}): Promise<boolean> {
      try {
        const r = await call({ method: 'GET', path: modelPath('/ready'), schema: V2ModelReadySchema, signal: o.signal, retries: 0 });
        return r.ready;
      } catch (e) {
        if (e instanceof HttpError && e.status === 503) {
          return false;
        }
        throw e;
      }
    },
    serverMetadata: (o: CallOptions = {}): Promise<V2ServerMetadata> =>
      call({ method: 'GET', path: '/v2', schema: V2ServerMetadataSchema, signal: o.signal }),
    async live(o: CallOptions = {}): Promise<boolean> {
      try {
        const r = await call({ method: 'GET', path: '/v2/health/live', schema: V2LiveSchema, signal: o.signal, retries: 0 });
        return r.live;
      } catch (e) {
        if (isInferkitError(e) && (e.code === 'network' || e.code === 'timeout' || e.code === 'model_not_ready')) {
          return false;
        }
        throw e;
      }
    },
    async listModels(o: CallOptions = {}): Promise<string[]> {
      const r = await call({ method: 'GET', path: '/v1/models', schema: V1ModelListSchema, signal: o.signal });
      return r.models;
    },
  };
}
