import type { RequestContext as K8sRequestContext } from '@kubernetes/client-node';
import { remote, type RemoteModel } from '../client/remote.js';
import { envIngress, envKubeconfig } from '../config.js';
import { InferenceServiceSchema, SecretSchema, type InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import type { ManifestDocument } from '../manifest/manifest-yaml.js';
import { maskManifestSecrets } from '../manifest/secret-env.js';
import { parseManifest } from '../manifest/validate-manifest.js';
import type {
  ApplyOptions,
  ApplyResult,
  ClusterOptions,
  GetOptions,
  ListOptions,
  NamespaceOptions,
  RemoteForOptions,
  SecretsOptions,
  WaitOptions,
} from './cluster-types.js';
import { toKubeError } from './kube-error.js';
import { loadKubeTarget, type KubeTarget } from './load-kube.js';
import { waitForReady } from './wait-ready.js';

const ISVC_API = 'serving.kserve.io/v1beta1';
/** The `fieldManager` of inferkit's server-side applies. */
export const FIELD_MANAGER = 'inferkit';

type ObjectApi = InstanceType<KubeTarget['k8s']['KubernetesObjectApi']>;

/**
 * The generic object client (one per cluster, so API discovery is cached), asking the API server to
 * reject unknown fields (`fieldValidation=Strict`, as `kubectl apply` does) on every write.
 */
function makeObjectApi(t: KubeTarget): ObjectApi {
  const { k8s } = t;
  const strict = {
    pre: async (ctx: K8sRequestContext): Promise<K8sRequestContext> => {
      if (!['GET', 'DELETE'].includes(ctx.getHttpMethod())) {
        ctx.setQueryParam('fieldValidation', 'Strict');
      }
      return ctx;
    },
    post: async <R>(r: R): Promise<R> => r,
  };
  const configuration = k8s.createConfiguration({ baseServer: new k8s.ServerConfiguration(t.server, {}), authMethods: { default: t.kc }, promiseMiddleware: [strict] });
  return new k8s.KubernetesObjectApi(configuration);
}

/** A connection to a cluster's API server: apply, read, wait for and delete InferenceServices. */
export interface Cluster {
  /** API server URL. */
  readonly server: Promise<string>;
  /** Default namespace (option, else the context's, else `default`). */
  readonly namespace: Promise<string>;
  /**
   * Server-side applies documents (YAML text or parsed), Secrets first, then InferenceServices.
   * Idempotent: a second apply of the same documents reports `unchanged` and changes nothing.
   * The real values are sent; in the returned objects a Secret's `data`/`stringData` values and
   * an InferenceService's clear credentials (`env`, `--hf_token=…`) are masked (`<masked>`), as `get` does, unless `{ secrets: 'show' }`.
   */
  apply(docs: string | readonly ManifestDocument[], options?: ApplyOptions): Promise<ApplyResult[]>;
  /**
   * One InferenceService (live status included); `model_not_found` error when absent. Credentials
   * written in clear are masked (`<masked>`) unless `{ secrets: 'show' }`.
   */
  get(name: string, options?: GetOptions): Promise<InferenceService>;
  /** InferenceServices of the namespace, or of every namespace; credentials masked unless `{ secrets: 'show' }`. */
  list(options?: ListOptions): Promise<InferenceService[]>;
  /**
   * Watches a service until `Ready` is True; rejects with the failing condition's reason and message.
   * Credentials in the returned service are masked unless `{ secrets: 'show' }`.
   */
  waitReady(name: string, options?: WaitOptions): Promise<InferenceService>;
  /** Deletes an InferenceService by name, or every object of the given documents; returns `kind/name` lines. */
  delete(target: string | readonly ManifestDocument[], options?: NamespaceOptions & { dryRun?: boolean }): Promise<string[]>;
  /** A `remote()` client for a deployed service, through the ingress, with the live `status.url` as Host. */
  remoteFor(target: string | InferenceService, options?: RemoteForOptions): Promise<RemoteModel>;
}

function resourceOf(kind: string): string {
  return kind === 'Secret' ? 'secret' : 'inferenceservice.serving.kserve.io';
}

/** A plain JSON copy (the client turns timestamps into Dates). */
function plain<T>(o: unknown): T {
  return JSON.parse(JSON.stringify(o)) as T;
}

function toService(o: unknown, what: string): InferenceService {
  const r = InferenceServiceSchema.safeParse(plain(o));
  if (!r.success) {
    throw new InferkitError('http_error', `${what}: the API server returned an object that is not an InferenceService: ${r.error.issues[0]?.message ?? ''}`);
  }
  return r.data;
}

/** The copy a caller sees: credentials masked unless `secrets: 'show'`. */
function shown<T>(value: T, o: SecretsOptions | undefined): T {
  return o?.secrets === 'show' ? value : maskManifestSecrets(value);
}

function userPart(o: Record<string, unknown>): string {
  const { status: _s, metadata, ...rest } = o;
  const m = (metadata ?? {}) as Record<string, unknown>;
  return JSON.stringify({ ...rest, labels: m.labels ?? {}, annotations: m.annotations ?? {} });
}

/**
 * Connects to the cluster of a kubeconfig the way `kubectl` does (file from `KUBECONFIG` or
 * `~/.kube/config`, its `current-context` or `context`, the context's namespace or `default`).
 * Nothing is read or loaded until the first call.
 */
export function cluster(options: ClusterOptions = {}): Cluster {
  let target: Promise<KubeTarget> | undefined;
  const connect = (): Promise<KubeTarget> => (target ??= loadKubeTarget(options.kubeconfig ?? envKubeconfig(), options.context));
  const nsOf = async (o: NamespaceOptions | undefined): Promise<string> => o?.namespace ?? options.namespace ?? (await connect()).namespace;

  let apiPromise: Promise<{ t: KubeTarget; api: ObjectApi }> | undefined;
  const objectApi = (): Promise<{ t: KubeTarget; api: ObjectApi }> => (apiPromise ??= connect().then((t) => ({ t, api: makeObjectApi(t) })));

  const read = async (name: string, namespace: string): Promise<InferenceService> => {
    const { t, api } = await objectApi();
    try {
      return toService(await api.read({ apiVersion: ISVC_API, kind: 'InferenceService', metadata: { name, namespace } }), `get inferenceservice/${name}`);
    } catch (e) {
      throw toKubeError(e, `get inferenceservice/${name} -n ${namespace}`, t.server);
    }
  };

  const applyOne = async (doc: ManifestDocument, namespace: string, dryRun: boolean, o: SecretsOptions): Promise<ApplyResult> => {
    const { t, api } = await objectApi();
    const name = doc.metadata.name;
    const what = `apply ${resourceOf(doc.kind)}/${name}`;
    const { status: _status, ...body } = doc as ManifestDocument & { status?: unknown };
    const { labels, annotations } = doc.metadata;
    // only what the user owns: server-set metadata (resourceVersion, uid, timestamps) is not applied
    const spec = { ...body, metadata: { name, namespace, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } };
    let existing: Record<string, unknown> | undefined;
    try {
      existing = plain(await api.read({ apiVersion: doc.apiVersion, kind: doc.kind, metadata: { name, namespace } }));
    } catch (e) {
      if ((e as { code?: unknown }).code !== 404) {
        throw toKubeError(e, what, t.server);
      }
    }
    let result: Record<string, unknown>;
    try {
      const k8s = t.k8s;
      result = plain(await api.patch(spec, undefined, dryRun ? 'All' : undefined, FIELD_MANAGER, true, k8s.PatchStrategy.ServerSideApply));
    } catch (e) {
      throw toKubeError(e, what, t.server);
    }
    const rv = (o: Record<string, unknown> | undefined) => (o?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
    const same = dryRun ? existing !== undefined && userPart(existing) === userPart(result) : rv(existing) === rv(result);
    const action = existing === undefined ? 'created' : same ? 'unchanged' : 'configured';
    const object = shown((doc.kind === 'Secret' ? SecretSchema.parse(result) : toService(result, what)) as ManifestDocument, o);
    return { resource: resourceOf(doc.kind), kind: doc.kind, name, namespace, action, dryRun, object };
  };

  const self: Cluster = {
    get server() {
      return connect().then((t) => t.server);
    },
    get namespace() {
      return nsOf(undefined);
    },
    async apply(docs, o = {}) {
      // YAML text gets the full local check (contract, runtime args, KServe's CRD with did-you-mean) first.
      const list = typeof docs === 'string' ? await parseManifest(docs) : docs;
      const ordered = [...list.filter((d) => d.kind === 'Secret'), ...list.filter((d) => d.kind !== 'Secret')];
      const out: ApplyResult[] = [];
      for (const doc of ordered) {
        out.push(await applyOne(doc, doc.metadata.namespace ?? (await nsOf(o)), o.dryRun === true, o));
      }
      return out;
    },
    async get(name, o) {
      return shown(await read(name, await nsOf(o)), o);
    },
    async list(o = {}) {
      const { t, api } = await objectApi();
      const namespace = o.allNamespaces ? undefined : await nsOf(o);
      try {
        const res = await api.list(ISVC_API, 'InferenceService', namespace);
        return shown((res.items ?? []).map((i) => toService(i, 'list inferenceservices')), o);
      } catch (e) {
        throw toKubeError(e, `list inferenceservices${namespace ? ` -n ${namespace}` : ' -A'}`, t.server);
      }
    },
    async waitReady(name, o = {}) {
      const namespace = await nsOf(o);
      await read(name, namespace); // a missing service is a 404 now, not a watch that never fires
      return shown(await waitForReady(await connect(), name, namespace, o), o);
    },
    async delete(targetDocs, o = {}) {
      const { t, api } = await objectApi();
      const docs: Array<{ apiVersion: string; kind: string; name: string; namespace?: string }> =
        typeof targetDocs === 'string'
          ? [{ apiVersion: ISVC_API, kind: 'InferenceService', name: targetDocs }]
          : targetDocs.map((d) => ({ apiVersion: d.apiVersion, kind: d.kind, name: d.metadata.name, namespace: d.metadata.namespace }));
      const out: string[] = [];
      // services before their Secrets: the reverse of apply
      for (const d of [...docs.filter((x) => x.kind !== 'Secret'), ...docs.filter((x) => x.kind === 'Secret')]) {
        const namespace = d.namespace ?? (await nsOf(o));
        try {
          await api.delete({ apiVersion: d.apiVersion, kind: d.kind, metadata: { name: d.name, namespace } }, undefined, o.dryRun ? 'All' : undefined);
        } catch (e) {
          throw toKubeError(e, `delete ${resourceOf(d.kind)}/${d.name} -n ${namespace}`, t.server);
        }
        out.push(`${resourceOf(d.kind)}/${d.name}`);
      }
      return out;
    },
    async remoteFor(svc, o = {}) {
      const isvc = typeof svc === 'string' ? await read(svc, await nsOf(o)) : svc;
      if (!isvc.status?.url) {
        throw new InferkitError('model_not_ready', `inferenceservice/${isvc.metadata.name} has no status.url yet; wait for it to be Ready first`, { param: 'status.url' });
      }
      const ingress = envIngress();
      return remote(
        { ingressHost: o.ingressHost ?? ingress.host, ingressPort: o.ingressPort ?? ingress.port },
        { isvc, ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}) },
      );
    },
  };
  return self;
}
