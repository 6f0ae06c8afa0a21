import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { writeNerFixtureRepo } from '../../src/onnx/model-repo.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import { servedForecastModel, servedTokenClassifier } from '../../src/server/default-loaders.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { tempDir } from '../fixtures/temp-dirs.js';

/** A raw HTTP answer. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: () => unknown;
}

/** Options of {@link http}. */
export interface HttpOptions {
  method?: string;
  /** Object → JSON; string → sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One request with node:http (fetch cannot set `Host`). No keep-alive, so servers close promptly.
 */
export function http(baseUrl: string, path: string, options: HttpOptions = {}): Promise<HttpAnswer> {
  const url = new URL(path, baseUrl);
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(body !== undefined && !hasHeader(options.headers, 'content-type') ? { 'content-type': 'application/json' } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) {
      req.write(body);
    }
    req.end();
  });
}

function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  return Object.keys(headers ?? {}).some((k) => k.toLowerCase() === name);
}

/** An InferenceService for tests: model form, `--model_name`, optional V2, extra args. */
export function isvc(name: string, opts: { modelName?: string; namespace?: string; v2?: boolean; args?: string[]; url?: string } = {}): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, ...(opts.namespace ? { namespace: opts.namespace } : {}) },
    spec: {
      predictor: {
        model: {
          modelFormat: { name: 'huggingface' },
          ...(opts.v2 ? { protocolVersion: 'v2' as const } : {}),
          args: [`--model_name=${opts.modelName ?? name}`, ...(opts.args ?? ['--model_id=test/ner'])],
        },
      },
    },
    ...(opts.url ? { status: { url: opts.url } } : {}),
  };
}

/** Writes the NER fixture repo (the "known words" table model) into a fresh temp folder. */
export async function nerFixtureDir(): Promise<string> {
  const dir = join(tempDir('inferkit-server-'), 'ner');
  await writeNerFixtureRepo(dir, { encoder: 'random' });
  return dir;
}

/** Loaders of real fixture models: the NER repo at `dir` for token classification, seasonal naive for forecasts. */
export function fixtureLoaders(dir: string): ModelLoaders {
  return {
    token_classification: async ({ config }) => servedTokenClassifier(await loadTokenClassifier(dir, { modelName: config.modelName })),
    time_series_forecast: async ({ config }) => servedForecastModel(seasonalNaive({ name: config.modelName })),
  };
}

/** A promise with its resolve function, to hold a loader or a model call open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A V1 body. */
export const v1 = (...instances: string[]) => ({ instances });
/** A V2 body of BYTES texts. */
export const v2 = (...texts: string[]) => ({ inputs: [{ name: 'text', shape: [texts.length], datatype: 'BYTES', data: texts }] });
/** A small forecast body. */
export const forecastBody = (model: string, horizon = 3) => ({
  model,
  inputs: [{ type: 'univariate_time_series', name: 's', series: [1, 2, 3, 4, 5, 6, 7, 8], frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z' }],
  options: { horizon, quantiles: [0.1, 0.9] },
});

/** Writes `text` on a raw connection to `port` and resolves with everything the server sent until it closed (or `ms` passed). */
export function rawExchange(port: number, text: string, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on('data', (c: Buffer) => (out += c.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.write(text);
  });
}

/** Waits (bounded) until `done()` holds; throws when it does not within `ms`. */
export async function until(done: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !done(); ) {
    if (Date.now() > end) {
      throw new Error('timed out waiting');
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}
