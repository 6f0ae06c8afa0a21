import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Labels of the request metrics: the model and its service (request-labels.ts), the route pattern, the status. */
export type RequestLabel = 'model' | 'service' | 'namespace' | 'route' | 'status';
const REQUEST_LABELS: RequestLabel[] = ['model', 'service', 'namespace', 'route', 'status'];

/** Prometheus metrics of one server, on its own registry (two servers never share counters). */
export interface ServerMetrics {
  /** The registry `/metrics` renders. */
  registry: Registry;
  /** `inferkit_requests_total{model,service,namespace,route,status}`. */
  requests: Counter<RequestLabel>;
  /** `inferkit_request_duration_seconds{model,service,namespace,route,status}`. */
  duration: Histogram<RequestLabel>;
  /** `inferkit_requests_in_flight{route}`. */
  inFlight: Gauge<'route'>;
  /** `inferkit_batch_size{model}`: texts (token classification) or series (forecast) per model call. */
  batchSize: Histogram<'model'>;
  /** `inferkit_batch_requests{model}`: requests merged into one model call. */
  batchRequests: Histogram<'model'>;
  /** `inferkit_model_ready{model}`: 1 ready, 0 not. */
  modelReady: Gauge<'model'>;
  /** `inferkit_model_load_failures_total{model}`: failed load attempts (retries included). */
  loadFailures: Counter<'model'>;
  /** `inferkit_model_compute_seconds_total{model}`: time the model's ONNX session workers spent on runs (replicas and latency session, summed). */
  computeSeconds: Counter<'model'>;
  /** `inferkit_connections_closed_total{reason}`: connections the connection guard closed (first_byte_timeout, evicted, peer_limit, connection_limit). */
  connectionsClosed: Counter<'reason'>;
}

/** Creates the server's metrics on a fresh registry. */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'inferkit_requests_total',
      help: 'HTTP requests by model, InferenceService (name, namespace), route pattern and status code',
      labelNames: REQUEST_LABELS,
      registers,
    }),
    duration: new Histogram({
      name: 'inferkit_request_duration_seconds',
      help: 'HTTP request latency by model, InferenceService (name, namespace), route pattern and status code',
      labelNames: REQUEST_LABELS,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    inFlight: new Gauge({ name: 'inferkit_requests_in_flight', help: 'Requests being served', labelNames: ['route'], registers }),
    batchSize: new Histogram({
      name: 'inferkit_batch_size',
      help: 'Texts or series per model call (dynamic batching merges requests)',
      labelNames: ['model'],
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers,
    }),
    batchRequests: new Histogram({
      name: 'inferkit_batch_requests',
      help: 'Requests merged into one model call',
      labelNames: ['model'],
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers,
    }),
    modelReady: new Gauge({ name: 'inferkit_model_ready', help: '1 when the model is ready, else 0', labelNames: ['model'], registers }),
    loadFailures: new Counter({ name: 'inferkit_model_load_failures_total', help: 'Failed model load attempts (each retry counts)', labelNames: ['model'], registers }),
    computeSeconds: new Counter({
      name: 'inferkit_model_compute_seconds_total',
      help: "Seconds the model's ONNX Runtime session workers spent on runs, summed over its replicas and latency session, load-time probes included (its rate over the replicas is about their utilisation; baselines report none)",
      labelNames: ['model'],
      registers,
    }),
    connectionsClosed: new Counter({
      name: 'inferkit_connections_closed_total',
      help: 'Connections closed by the connection guard: sent no byte in time (first_byte_timeout), made room for a new one (evicted), over the peer share or the cap with no room (peer_limit, connection_limit)',
      labelNames: ['reason'],
      registers,
    }),
  };
}
