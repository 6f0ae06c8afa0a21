import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { listInferenceServices } from '../client/list-inference-services.js';
import { remote } from '../client/remote.js';
import { ForecastRequestSchema } from '../contract/forecast.js';
import type { InferenceService } from '../contract/inference-service.js';
import { parseContract } from '../contract/parse.js';
import { envCacheDir } from '../config.js';
import { InferkitError } from '../errors.js';
import { fromYaml } from '../manifest/manifest-yaml.js';
import { formatStatusTable, statusRow } from '../manifest/status-row.js';
import { defaultLoaders, type DefaultLoaderOptions } from '../server/default-loaders.js';
import { serve, type RunningServer } from '../server/serve.js';
import { DEMO_MANIFESTS } from './demo-manifests.js';
import { DEMO_TEXTS, demoForecastRequest, demoV1Request, demoV2Request } from './demo-requests.js';
import { formatForecastAnswer, formatV1Answer, formatV2Answer } from './format-answers.js';
import { writeForecastChart, type ForecastChartFiles } from './write-forecast-chart.js';

export { DEMO_MANIFESTS } from './demo-manifests.js';

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** Package root (examples, node_modules, cache and output folders). @default process.cwd() */
  rootDir?: string;
  /** Manifest files, relative to `rootDir`. @default DEMO_MANIFESTS */
  manifests?: string[];
  /**
   * Hub and runtime options of the server's default loaders (`hubOptionsFromEnv()` in the CLI):
   * a real hub model is fetched when a manifest names one and the network allows.
   */
  loaderOptions?: DefaultLoaderOptions;
  /** Cache of the built-in fixture models and hub downloads. @default `loaderOptions.cacheDir`, else inferkit's one model cache (`envCacheDir()`: `INFERKIT_CACHE`) */
  cacheDir?: string;
  /** Where the chart files go. @default `<rootDir>/out/demo` */
  outDir?: string;
  /** Ingress port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Longest wait for the models to load, in milliseconds. @default 60000 */
  readyTimeoutMs?: number;
  /** Chromium for the PNG (`null`: HTML only). @default '/usr/bin/chromium' when present */
  chromium?: string | null;
  /** Leave the server running and return it. @default false */
  keep?: boolean;
  /** Receives each output line. */
  print: (line: string) => void;
}

/** What the demo did. */
export interface DemoResult {
  /** The server, still running only when `keep` was set. */
  server: RunningServer;
  /** Chart files written. */
  chart: ForecastChartFiles | undefined;
  /** Services that failed to load or answer, with the reason. */
  failures: string[];
}

/**
 * The README's first command: serves the example manifests on one ingress port (Host routing) with
 * the server's default loaders (built-in fixture models generated into `cacheDir` if missing), waits (bounded) for readiness, sends the V1, V2 and
 * forecast requests through the client with each service's Host, prints requests and answers and
 * the status listing, writes the forecast chart (HTML, and PNG through headless Chromium), and
 * stops the server unless `keep`.
 */
export async function runDemo(options: RunDemoOptions): Promise<DemoResult> {
  const root = resolve(options.rootDir ?? process.cwd());
  const print = (...lines: string[]): void => lines.forEach((l) => options.print(l));
  const manifests: InferenceService[] = [];
  for (const file of options.manifests ?? DEMO_MANIFESTS) {
    const docs = fromYaml(await readFile(resolve(root, file), 'utf8'));
    manifests.push(...docs.filter((d): d is InferenceService => d.kind === 'InferenceService'));
  }
  const cacheDir = options.cacheDir ?? options.loaderOptions?.cacheDir ?? envCacheDir();
  const server = await serve(manifests, {
    loaders: defaultLoaders({ ...options.loaderOptions, cacheDir }),
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
  });
  const failures: string[] = [];
  let chart: ForecastChartFiles | undefined;
  try {
    print(`== server  ${server.url}  (one ingress port; each service is reached by its Host header)`);
    const target = { ingressHost: server.host, ingressPort: server.port };
    const services = await waitForModels(server, options.readyTimeoutMs ?? 60_000);
    print(`== models (cache ${cacheDir}; inferkit/* ids are built-in offline fixtures, generated once)`);
    for (const s of services) {
      const state = server.models().find((m) => m.service === s.metadata.name);
      const id = s.spec.predictor.model?.args?.find((a) => a.startsWith('--model_id='))?.slice('--model_id='.length) ?? '';
      print(`  ${s.metadata.name}: ${state?.name ?? ''} ← ${id} (${state?.task ?? '?'}, ${state?.protocol ?? '?'}) ${state?.ready ? 'ready' : `NOT READY: ${state?.reason ?? ''}`}`);
    }
    print('== status (inferkit get)');
    for (const line of formatStatusTable(services.map((s) => statusRow(s))).trimEnd().split('\n')) {
      print(`  ${line}`);
    }
    for (const state of server.models()) {
      if (!state.ready) {
        failures.push(`${state.service}: ${state.reason ?? 'not ready'}`);
      }
    }

    for (const isvc of services) {
      const state = server.models().find((s) => s.service === isvc.metadata.name);
      if (!state?.ready) {
        continue;
      }
      const model = remote(target, { isvc, timeoutMs: 30_000 });
      const where = (path: string): string => `POST ${server.url}${path}\n  Host: ${model.host ?? ''}`;
      try {
        if (state.task === 'token_classification' && state.protocol === 'v1') {
          const request = demoV1Request();
          print(`== V1 ${where(`/v1/models/${model.name}:predict`)}`);
          print(`  ${JSON.stringify(request)}`);
          print(...formatV1Answer(DEMO_TEXTS, await model.predictV1(request)));
        } else if (state.task === 'token_classification') {
          const request = demoV2Request();
          print(`== V2 ${where(`/v2/models/${model.name}/infer`)}`);
          print(`  ${JSON.stringify(request)}`);
          print(...formatV2Answer(DEMO_TEXTS, await model.inferV2(request)));
        } else if (state.task === 'time_series_forecast') {
          const request = demoForecastRequest(model.name);
          print(`== forecast ${where('/v1/timeseries/forecast')}`);
          print(`  ${JSON.stringify({ ...request, inputs: request.inputs.map((i) => ({ ...i, series: `[${i.series.length} steps]` })) })}`);
          const response = await model.forecast(request);
          print(...formatForecastAnswer(response));
          const inputs = parseContract(ForecastRequestSchema, request).inputs;
          const outDir = options.outDir ?? join(root, 'out', 'demo');
          chart = await writeForecastChart(inputs, response, { outDir, rootDir: root, chromium: options.chromium });
          print('== chart', `  ${chart.html}`, `  ${chart.png ?? `(no PNG: ${chart.pngSkipped ?? 'skipped'})`}`);
        }
      } catch (e) {
        failures.push(`${isvc.metadata.name}: ${e instanceof Error ? e.message : String(e)}`);
        print(`  FAILED: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  } finally {
    if (!options.keep) {
      await server.close();
    }
  }
  print(options.keep ? `== serving at ${server.url} (still running)` : '== server stopped');
  return { server, chart, failures };
}

/** Polls the status listing through the client until no model is loading, within `timeoutMs`. */
async function waitForModels(server: RunningServer, timeoutMs: number): Promise<InferenceService[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await listInferenceServices({ baseUrl: server.url }, { timeoutMs: 5000 });
    const loading = items.filter((i) => i.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown');
    if (loading.length === 0) {
      return items;
    }
    if (Date.now() > deadline) {
      throw new InferkitError('timeout', `models still loading after ${timeoutMs} ms: ${loading.map((i) => i.metadata.name).join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
