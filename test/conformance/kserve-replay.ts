import { serve, type RunningServer } from '../../src/server/serve.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import { servedForecastModel } from '../../src/server/default-loaders.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { http, type HttpAnswer } from '../integration/server-http.js';
import { bodyText, CONFORMANCE_DIR, type Exchange } from './exchanges.js';

/** The recorded server args with `./model` pointing at `modelDir` (default: the conformance model folder). */
export function localArgs(e: Exchange, modelDir = `${CONFORMANCE_DIR}/model`): string[] {
  return e.server_args.map((a) => (a === '--model_id=./model' ? `--model_id=${modelDir}` : a));
}

/** Where {@link ReplayServers} serves from: another model folder, and the model cache (built graphs land there). */
export interface ReplayOptions {
  modelDir?: string;
  cacheDir?: string;
}

/**
 * One inferkit server per distinct set of server args, started lazily and kept for the file. The
 * TimesFM of the recording is not shipped: forecasts are served by a seasonal-naive baseline under
 * the same name, so only structure, keys, statuses and timestamps can be compared.
 */
export class ReplayServers {
  readonly #servers = new Map<string, Promise<RunningServer>>();
  readonly log: string[] = [];
  readonly #options: ReplayOptions;

  constructor(options: ReplayOptions = {}) {
    this.#options = options;
  }

  server(e: Exchange): Promise<RunningServer> {
    const args = localArgs(e, this.#options.modelDir);
    const key = args.join(' ');
    let s = this.#servers.get(key);
    if (s === undefined) {
      s = this.#start(args);
      this.#servers.set(key, s);
    }
    return s;
  }

  async #start(args: string[]): Promise<RunningServer> {
    const name = `svc-${this.#servers.size}`;
    const manifest: InferenceService = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name },
      spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args } } },
    };
    const base = defaultLoaders(this.#options.cacheDir !== undefined ? { cacheDir: this.#options.cacheDir } : {});
    const server = await serve([manifest], {
      port: 0,
      log: (line) => this.log.push(line),
      loaders: {
        token_classification: base.token_classification,
        time_series_forecast: async ({ config }) => servedForecastModel(seasonalNaive({ name: config.modelName })),
      },
    });
    const states = await server.loaded();
    if (!states.every((st) => st.ready)) {
      throw new Error(`conformance server did not load: ${JSON.stringify(states.map((st) => st.reason))}`);
    }
    return server;
  }

  /** Sends the exchange's request as recorded (method, path, headers, body verbatim). */
  async send(e: Exchange): Promise<HttpAnswer> {
    return sendExchange((await this.server(e)).url, e);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#servers.values()].map(async (s) => (await s).close()));
  }
}

/** Sends an exchange's request as recorded (method, path, headers, body verbatim) to the server at `url`. */
export function sendExchange(url: string, e: Exchange): Promise<HttpAnswer> {
  const body = bodyText(e);
  return http(url, e.request.path, { method: e.request.method, headers: e.request.headers, ...(body === undefined ? {} : { body }) });
}
