import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { envApiKey, envIngress, envVar } from '../config.js';
import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError, isInferkitError } from '../errors.js';
import { hubOptionsFromEnv } from '../hub/hub-options-from-env.js';
import { parseManifest } from '../manifest/validate-manifest.js';
// Constants only (no server, no onnxruntime): the help shows the server's own defaults.
import { DEFAULT_MAX_JSON_DEPTH } from '../server/guard-json-depth.js';
import { DEFAULT_LIMITS } from '../server/guard-limits.js';
import { DEFAULT_LOAD_RETRY } from '../server/load-retry.js';
import { MAX_NICE, perThreadNice, SERVE_EVENT_LOOP_NICE } from '../server/event-loop-priority/event-loop-priority.js';
import type { ModelState } from '../server/model-registry.js';
import type { RunningServer } from '../server/serve.js';
import { manifestFiles, readManifestFile } from './manifest-files.js';
import { installStopSignals } from './serve-signals.js';
import { memoryLine } from '../runtime/shared-weights/process-memory.js';
import { modelMemoryLine } from '../runtime/model-memory/model-memory-line.js';
import { modelGraphLine } from '../checkpoint/resolve-model-graph.js';

/** Options of `inferkit serve` as commander hands them over. */
export interface ServeCommandOptions {
  port?: string;
  host?: string;
  domain?: string;
  maxBatchSize?: string;
  maxWaitMs?: string;
  bodyLimit?: string;
  logRequests?: boolean;
  apiKey?: string;
  apiKeyFile?: string;
  shutdownTimeout?: string;
  loadAttempts?: string;
  maxBodyBytesInFlight?: string;
  allowedHost?: string[];
  requestTimeout?: string;
  headersTimeout?: string;
  keepAliveTimeout?: string;
  maxConnections?: string;
  maxConnectionsPerPeer?: string;
  firstByteTimeout?: string;
  probeHeadroom?: string;
  maxQueue?: string;
  maxTextsPerRequest?: string;
  maxTokensPerRequest?: string;
  maxJsonDepth?: string;
  threads?: string;
  replicas?: string;
  latencySession?: boolean;
  eventLoopNice?: string;
  quantized?: boolean;
  prepack?: boolean;
}

/** Only the limits given on the command line; the server fills in its documented defaults. */
function limitOptions(opts: ServeCommandOptions): Record<string, number> {
  const given: Array<[string, number | undefined]> = [
    ['requestTimeoutMs', intOption(opts.requestTimeout, 'request-timeout', 1)],
    ['headersTimeoutMs', intOption(opts.headersTimeout, 'headers-timeout', 1)],
    ['keepAliveTimeoutMs', intOption(opts.keepAliveTimeout, 'keep-alive-timeout', 1)],
    ['maxConnections', intOption(opts.maxConnections, 'max-connections', 1)],
    ['maxConnectionsPerPeer', intOption(opts.maxConnectionsPerPeer, 'max-connections-per-peer', 1)],
    ['firstByteTimeoutMs', intOption(opts.firstByteTimeout, 'first-byte-timeout', 1)],
    ['probeHeadroom', intOption(opts.probeHeadroom, 'probe-headroom', 1)],
    ['maxQueuePerModel', intOption(opts.maxQueue, 'max-queue', 1)],
    ['maxTextsPerRequest', intOption(opts.maxTextsPerRequest, 'max-texts-per-request', 1)],
    ['maxTokensPerRequest', intOption(opts.maxTokensPerRequest, 'max-tokens-per-request', 1)],
    ['shutdownTimeoutMs', intOption(opts.shutdownTimeout, 'shutdown-timeout', 1)],
    ['maxBodyBytesInFlight', intOption(opts.maxBodyBytesInFlight, 'max-body-bytes-in-flight', 1)],
  ];
  return Object.fromEntries(given.filter((e): e is [string, number] => e[1] !== undefined));
}

function intOption(value: string | undefined, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new InferkitError('invalid_request', `--${name}: expected an integer ${range}, got "${value}"`, { param: name });
  }
  return n;
}

/**
 * The API key: `--api-key`, else the first line of `--api-key-file` (keeps the key out of the
 * process list and shell history), else `$INFERKIT_API_KEY`. Giving both flags is an error.
 */
export async function apiKeyOption(opts: Pick<ServeCommandOptions, 'apiKey' | 'apiKeyFile'>): Promise<string | undefined> {
  if (opts.apiKey !== undefined && opts.apiKeyFile !== undefined) {
    throw new InferkitError('invalid_request', 'give --api-key or --api-key-file, not both', { param: 'api-key-file' });
  }
  if (opts.apiKeyFile === undefined) {
    return opts.apiKey ?? envApiKey();
  }
  let text: string;
  try {
    text = await readFile(opts.apiKeyFile, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InferkitError('invalid_request', `--api-key-file: cannot read "${opts.apiKeyFile}" (${why})`, { param: 'api-key-file' });
  }
  const key = text.split(/\r?\n/)[0]?.trim() ?? '';
  if (key.length === 0) {
    throw new InferkitError('invalid_request', `--api-key-file: "${opts.apiKeyFile}" is empty; write the key on its first line`, { param: 'api-key-file' });
  }
  return key;
}

/**
 * Reads the InferenceServices of manifest files and folders (`manifestFiles`; Secrets and other documents are skipped), with the
 * checks of `inferkit validate` (a typo'd field is an error, not silently served). Credentials in
 * clear are allowed here: a local server on the user's own machine is not where they leak.
 */
export async function readManifests(paths: readonly string[]): Promise<InferenceService[]> {
  const files = await manifestFiles(paths);
  const docs = await Promise.all(
    files.map(async (f) => {
      const text = await readManifestFile(f);
      try {
        return await parseManifest(text, { allowInlineSecrets: true });
      } catch (e) {
        throw isInferkitError(e) ? new InferkitError(e.code, `${f}: ${e.message}`, { cause: e, param: e.param }) : e;
      }
    }),
  );
  const services = docs.flat().filter((d): d is InferenceService => d.kind === 'InferenceService');
  if (services.length === 0) {
    throw new InferkitError('invalid_request', `no InferenceService in ${paths.join(', ')}`);
  }
  return services;
}

function stateLine(m: ModelState): string {
  const what = m.ready ? 'READY' : m.phase === 'loading' ? 'loading' : `FAILED: ${m.reason ?? ''}`;
  const i = m.inference;
  const how = i ? `  threads=${i.threads}${i.replicaThreads !== undefined && i.replicaThreads.length > 1 ? ` (${i.replicaThreads.length} replicas: ${i.replicaThreads.join('+')}${i.latencyThreads !== undefined ? `, latency session: ${i.latencyThreads}` : ''})` : ''}${i.cpuLimit !== undefined ? ` (cpu limit ${i.cpuLimit})` : ''}${i.onnxVariant === 'quantized' ? ' int8' : ''}` : '';
  return `  ${m.namespace}/${m.service}  model=${m.name}  ${m.protocol}  Host: ${m.host}  ${what}${how}`;
}

/**
 * Starts the server for `files` (INGRESS_HOST/INGRESS_PORT as defaults, flags win), prints where
 * each model is reached and how its load ended, and stops gracefully on SIGINT, SIGTERM or SIGHUP
 * (also when sent to `npx`/`npm exec`, which does not pass them all on: serve-signals.ts).
 */
export async function runServe(files: readonly string[], opts: ServeCommandOptions): Promise<RunningServer> {
  const manifests = await readManifests(files);
  const apiKey = await apiKeyOption(opts);
  const ingress = envIngress();
  // Loaded here, not at the top: `inferkit --help`, `--version` and `validate` start without the server and onnxruntime.
  const eventLoopNice = intOption(opts.eventLoopNice, 'event-loop-nice', 0, MAX_NICE) ?? SERVE_EVENT_LOOP_NICE;
  const [{ serve }, { defaultLoaders }] = await Promise.all([import('../server/serve.js'), import('../server/default-loaders.js')]);
  const server = await serve(manifests, {
    port: intOption(opts.port, 'port', 0, 65535) ?? ingress.port,
    host: opts.host ?? ingress.host,
    domain: opts.domain,
    maxBatchSize: intOption(opts.maxBatchSize, 'max-batch-size', 0),
    maxWaitMs: intOption(opts.maxWaitMs, 'max-wait-ms', 0),
    bodyLimit: intOption(opts.bodyLimit, 'body-limit', 1),
    logRequests: opts.logRequests === true,
    limits: limitOptions(opts),
    maxJsonDepth: intOption(opts.maxJsonDepth, 'max-json-depth', 1),
    allowedHosts: opts.allowedHost ?? [],
    apiKey,
    loadRetry: { attempts: intOption(opts.loadAttempts, 'load-attempts', 1, 100) },
    log: (line) => console.error(line),
    // --prepack: every session keeps its own prepacked copy of the weights (one copy per session; the default shares one packed copy).
    loaders: defaultLoaders({ ...hubOptionsFromEnv(), ...(opts.prepack === true ? { session: { prepacking: true } } : {}) }),
    inference: { threads: intOption(opts.threads, 'threads', 1), replicas: intOption(opts.replicas, 'replicas', 1), latencySession: opts.latencySession !== false, quantized: opts.quantized === true, eventLoopNice },
  });
  const plan = server.inference;
  const quota = plan.cpus.quota !== undefined ? `, cgroup quota ${plan.cpus.quota} CPUs` : '';
  console.error(
    `inference: ${plan.threads} threads (${plan.source === 'option' ? '--threads' : `${plan.cpus.affinity} CPUs by affinity${quota}`}) shared by the ONNX models and the worker baselines (Theta, AutoETS, MSTL); sessions in ${plan.models.some((m) => m?.worker === false) ? 'the main thread' : 'worker threads'}; ORT spinning ${plan.models.some((m) => m?.spinning) ? 'on' : 'off'}; weights ${opts.prepack === true ? 'prepacked by every session (--prepack)' : 'one copy per model (one session, or replicas sharing one packed copy)'}; ${eventLoopNice === 0 ? 'event loop at its priority' : perThreadNice() ? `event loop at nice +${eventLoopNice} once loaded (--event-loop-nice; the sessions' threads first under load)` : 'event loop at its priority (--event-loop-nice acts on Linux only, where a nice value is per thread)'}`,
  );
  console.error(`inferkit serving on ${server.url} (send each service's Host header):`);
  for (const m of server.models()) {
    console.error(stateLine(m));
  }
  void server.loaded().then((states) => {
    console.error('models loaded:');
    for (const m of states) {
      console.error(stateLine(m));
      if (m.ready) {
        if (m.graph !== undefined) {
          console.error(`    ${m.name} graph: ${modelGraphLine(m.graph)}`);
        }
        // Its own memory: the process's growth while its sessions opened and warmed up, no other model's doing so.
        console.error(modelMemoryLine(m.name, m.memory));
      }
    }
    console.error(memoryLine(states.filter((m) => m.ready).length));
  });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.error(`stopping (${why}): finishing in-flight requests…`);
    void server.close().then(() => process.exit(0));
  };
  installStopSignals(stop, envVar('npm_lifecycle_event') !== undefined);
  return server;
}

/** Registers `inferkit serve FILE… [--port] [--host] [--domain] [--max-batch-size] [--max-wait-ms] [--body-limit] [--log-requests]`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve InferenceService manifests on one port, routed by Host (V1, V2, forecast, health, metrics)')
    .argument('<files...>', 'InferenceService YAML files, or folders of them (their *.yaml, *.yml and *.json files)')
    .option('--port <port>', 'port (0 = any free one; default $INGRESS_PORT or 8080)')
    .option('--host <host>', 'interface to bind (default $INGRESS_HOST or 127.0.0.1)')
    .option('--domain <domain>', 'domain of service hosts {name}.{namespace}.{domain}', 'example.com')
    .option('--max-batch-size <n>', 'most texts or forecast series merged into one model call; 0 disables batching', '32')
    .option('--max-wait-ms <ms>', 'longest wait for requests to join a batch; 0 disables batching', '2')
    .option('--body-limit <bytes>', 'largest request body (413 above)', String(10 * 1024 * 1024))
    .option('--log-requests', 'log each request with a truncated body (input texts included)', false)
    .option('--api-key <key>', 'require "Authorization: Bearer <key>" on every route but liveness (default $INFERKIT_API_KEY)')
    .option('--api-key-file <path>', 'read the API key from the first line of this file (instead of --api-key)')
    .option('--shutdown-timeout <ms>', `on SIGINT/SIGTERM, longest wait for in-flight requests before open connections are cut (default ${DEFAULT_LIMITS.shutdownTimeoutMs})`)
    .option('--max-body-bytes-in-flight <bytes>', `most request-body bytes being received at once, all requests together; beyond it 503 with Retry-After (default ${DEFAULT_LIMITS.maxBodyBytesInFlight})`)
    .option('--load-attempts <n>', `attempts to load each model; failures that may pass (network, hub) are retried with backoff from 1 s, doubling (default ${DEFAULT_LOAD_RETRY.attempts}; 1 never retries)`)
    .option('--allowed-host <host>', 'also accept this Host header (repeatable; loopback names and served hosts always are)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--request-timeout <ms>', `longest time to receive a whole request (default ${DEFAULT_LIMITS.requestTimeoutMs})`)
    .option('--headers-timeout <ms>', `longest time to receive the request headers (default ${DEFAULT_LIMITS.headersTimeoutMs})`)
    .option('--keep-alive-timeout <ms>', `how long an idle keep-alive connection stays open (default ${DEFAULT_LIMITS.keepAliveTimeoutMs})`)
    .option('--max-connections <n>', `most open connections; at the cap a new one evicts the oldest idle one (default ${DEFAULT_LIMITS.maxConnections})`)
    .option('--max-connections-per-peer <n>', `most open connections from one address (raise it behind a proxy that pools many clients; default ${DEFAULT_LIMITS.maxConnectionsPerPeer})`)
    .option('--first-byte-timeout <ms>', `close a connection that sends no byte for this long (default ${DEFAULT_LIMITS.firstByteTimeoutMs})`)
    .option('--probe-headroom <n>', `connections beyond the cap kept for health and readiness probes (default ${DEFAULT_LIMITS.probeHeadroom})`)
    .option('--max-queue <n>', `most requests waiting per model; beyond it 503 with Retry-After (default ${DEFAULT_LIMITS.maxQueuePerModel})`)
    .option('--max-texts-per-request <n>', `most texts in one token-classification request; beyond it 400 (default ${DEFAULT_LIMITS.maxTextsPerRequest})`)
    .option('--max-tokens-per-request <n>', `most tokens in one token-classification request, each text counted as at most its length + 2 (default ${DEFAULT_LIMITS.maxTokensPerRequest})`)
    .option('--threads <n>', 'threads shared by the ONNX models and the worker baselines (default: the CPUs this process may use, cgroup quota included)')
    .option('--replicas <n>', 'session replicas per token-classification or Chronos-Bolt model, each in its own worker thread with a share of its threads (default: a float token-classification model one session with all its threads up to 4 (the fastest single request, one copy of the weights), then one replica per 4 threads (16 threads: 4 × 4) plus a session with all of them for lone requests, every session mapping one packed copy of the weights; int8 (--quantized) one per thread, at most 4; Chronos-Bolt 1; per service: annotation serving.inferkit.dev/replicas)')
    .option('--event-loop-nice <n>', `raise the event loop thread's nice value by n (0-${MAX_NICE}) once the models have loaded, so that under saturation the sessions' threads win the cores from HTTP and tokenizing (Linux, where it is per thread; 0 leaves it alone; default ${SERVE_EVENT_LOOP_NICE})`)
    .option('--no-latency-session', 'no extra all-threads session for lone requests beside the replicas (saves one copy of the weights; a lone request then runs on one replica)')
    .option('--prepack', 'give every session of a model its own prepacked copy of the weights, a private copy per replica and latency session (default: they map one packed copy, made once into the model cache, at the same speed; see src/runtime/shared-weights/README.md)', false)
    .option('--quantized', 'serve token-classification models\' int8 graph onnx/model_quantized.onnx (per service: annotation serving.inferkit.dev/onnx-variant: quantized)', false)
    .option('--max-json-depth <n>', `deepest JSON nesting accepted; deeper is a 400 (default ${DEFAULT_MAX_JSON_DEPTH})`)
    .action(async (files: string[], opts: ServeCommandOptions) => {
      await runServe(files, opts);
    });
}
