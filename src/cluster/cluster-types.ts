import type { InferenceService } from '../contract/inference-service.js';
import type { ManifestDocument } from '../manifest/manifest-yaml.js';

/** Options of {@link cluster}. */
export interface ClusterOptions {
  /** kubeconfig file. @default `KUBECONFIG`'s first path, else `~/.kube/config` (read through config.ts) */
  kubeconfig?: string;
  /** Context to use. @default the kubeconfig's `current-context` */
  context?: string;
  /** Namespace for objects without one. @default the context's namespace, else `default` */
  namespace?: string;
}

/** What `apply` did to one object, as `kubectl apply` says it. */
export type ApplyAction = 'created' | 'configured' | 'unchanged';

/** One applied object. */
export interface ApplyResult {
  /** `inferenceservice.serving.kserve.io` or `secret`. */
  resource: string;
  kind: 'InferenceService' | 'Secret';
  name: string;
  namespace: string;
  action: ApplyAction;
  /** True for `dryRun`: nothing was stored. */
  dryRun: boolean;
  /**
   * The object as the API server returned it, credentials masked unless `secrets: 'show'`: a
   * Secret's `data`/`stringData` values and clear credentials of an InferenceService read `<masked>`.
   */
  object: ManifestDocument;
}

/** Options of `apply`. */
export interface ApplyOptions extends SecretsOptions {
  /** Ask the API server to validate and answer without storing anything (`dryRun=All`). @default false */
  dryRun?: boolean;
  /** Namespace for documents without one. @default the cluster's namespace */
  namespace?: string;
}

/** One progress event of `waitReady`: the object's conditions as they change. */
export interface WaitProgressEvent {
  type: 'progress';
  name: string;
  /** `True`/`False`/`Unknown` of the `Ready` condition, `''` before there is one. */
  ready: string;
  /** The conditions that changed since the last event, e.g. `PredictorReady=Unknown (RevisionMissing)`. */
  changed: string[];
  service: InferenceService;
}

/** Options of `waitReady`. */
export interface WaitOptions extends SecretsOptions {
  /** Give up after this many milliseconds (`timeout` error). @default 600000 (10 min) */
  timeoutMs?: number;
  /** Called with each change of the conditions. */
  onProgress?: (event: WaitProgressEvent) => void;
  /** Cancels the wait; rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Namespace. @default the cluster's namespace */
  namespace?: string;
}

/** Options of `get`, `delete`, `list`. */
export interface NamespaceOptions {
  /** Namespace. @default the cluster's namespace */
  namespace?: string;
}

/** Whether credentials come back in the objects that `get`, `list`, `waitReady` and `apply` return. */
export interface SecretsOptions {
  /**
   * `'mask'`: env values of secret-named vars (`HF_TOKEN`, `…_API_KEY`, `…PASSWORD…`; see
   * `isSecretEnvName`) written in clear, and the values of secret-named `args`/`command` flags
   * (`--hf_token=…`), and every value of a Secret's `data`/`stringData` (its keys kept), are
   * replaced by `<masked>` in the returned copy; `'show'`: returned as stored.
   * @default 'mask'
   */
  secrets?: 'mask' | 'show';
}

/** Options of `get`. */
export interface GetOptions extends NamespaceOptions, SecretsOptions {}

/** Options of `list`. */
export interface ListOptions extends NamespaceOptions, SecretsOptions {
  /** Every namespace (`-A`). @default false */
  allNamespaces?: boolean;
}

/** Options of `remoteFor`. */
export interface RemoteForOptions extends NamespaceOptions {
  /** Ingress host (the address of the cluster's ingress gateway). @default INGRESS_HOST, else 127.0.0.1 */
  ingressHost?: string;
  /** Ingress port. @default INGRESS_PORT, else 8080 */
  ingressPort?: number;
  /** Time limit per call in milliseconds, passed to `remote()`. */
  timeoutMs?: number;
}
