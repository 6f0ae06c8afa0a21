import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { startController, type ControllerOptions } from './controller.js';
import { alreadyExists, conflict, invalid, notFound, StatusError } from './status.js';
import { Store, type KubeObject } from './store.js';
import { inferenceServiceCauses, secretCauses } from './validate-object.js';
import { serveWatch } from './watch.js';

/**
 * A STAND-IN for the Kubernetes API server — not Kubernetes. It speaks the REST subset inferkit's
 * cluster client uses (discovery, create/get/list/put/patch/delete/watch of `serving.kserve.io/v1beta1`
 * InferenceServices and v1 Secrets per namespace), answers with real `Status` error bodies, validates
 * InferenceServices strictly against KServe's CRD schema and plays the KServe controller.
 */
export interface KubeStandIn {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The stored objects (for assertions). */
  store: Store;
  /** Every request as `METHOD path?query` (for assertions on order, e.g. Secrets first). */
  requests: string[];
  close(): Promise<void>;
}

interface Kind {
  resource: string;
  group: string;
  apiVersion: string;
  kind: string;
  causes: (o: Record<string, unknown>) => ReturnType<typeof secretCauses>;
}

const KINDS: Record<string, Kind> = {
  secrets: { resource: 'secrets', group: '', apiVersion: 'v1', kind: 'Secret', causes: secretCauses },
  inferenceservices: { resource: 'inferenceservices', group: 'serving.kserve.io', apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', causes: inferenceServiceCauses },
};

const ROUTE = /^\/(?:api\/v1|apis\/serving\.kserve\.io\/v1beta1)(?:\/namespaces\/([^/]+))?\/(secrets|inferenceservices)(?:\/([^/]+))?$/;

function discovery(groupVersion: string, kind: Kind): object {
  const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: [{ name: kind.resource, singularName: kind.kind.toLowerCase(), namespaced: true, kind: kind.kind, verbs }] };
}

function send(res: ServerResponse, code: number, body: object): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) {
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const v: unknown = (req.headers['content-type'] ?? '').includes('yaml') ? parseYaml(text) : JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw new TypeError('not an object');
    }
    return v as Record<string, unknown>;
  } catch (e) {
    throw new StatusError(400, 'BadRequest', `the body of the request was in an unknown format: ${(e as Error).message}`);
  }
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    return patch;
  }
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
    } else {
      out[k] = mergePatch(out[k], v);
    }
  }
  return out;
}

/** Secrets: `stringData` folded into base64 `data`, `type` defaulted — what the API server stores. */
function normalize(kind: Kind, obj: Record<string, unknown>): Record<string, unknown> {
  if (kind.resource !== 'secrets') {
    return obj;
  }
  const { stringData, ...rest } = obj as { stringData?: Record<string, string> };
  const data = { ...((rest as { data?: Record<string, string> }).data ?? {}) };
  for (const [k, v] of Object.entries(stringData ?? {})) {
    data[k] = Buffer.from(v, 'utf8').toString('base64');
  }
  return { ...rest, type: (rest as { type?: string }).type ?? 'Opaque', data };
}

/** The user-owned part of an object, for "did anything change" (metadata the server owns left out). */
function userPart(o: Record<string, unknown>): string {
  const meta = (o.metadata ?? {}) as Record<string, unknown>;
  const { status: _s, metadata: _m, ...rest } = o;
  return JSON.stringify({ ...rest, labels: meta.labels ?? {}, annotations: meta.annotations ?? {} });
}

/** Options of {@link startKubeStandIn}. */
export interface KubeStandInOptions extends ControllerOptions {
  /** End every watch stream after this many milliseconds, as API servers do after minutes. @default never */
  watchTimeoutMs?: number;
}

/** Starts the stand-in on 127.0.0.1, port 0. */
export async function startKubeStandIn(options: KubeStandInOptions = {}): Promise<KubeStandIn> {
  const store = new Store();
  const requests: string[] = [];
  const stopController = startController(store, options);

  const write = (kind: Kind, ns: string, incoming: Record<string, unknown>, existing: KubeObject | undefined, dryRun: boolean): KubeObject => {
    const meta = (incoming.metadata ?? {}) as Record<string, unknown>;
    const name = String(meta.name ?? '');
    if (meta.namespace !== undefined && meta.namespace !== ns) {
      throw new StatusError(400, 'BadRequest', `the namespace of the provided object (${String(meta.namespace)}) does not match the namespace sent on the request (${ns})`);
    }
    if (incoming.apiVersion !== kind.apiVersion || incoming.kind !== kind.kind) {
      throw new StatusError(400, 'BadRequest', `expected apiVersion ${kind.apiVersion} and kind ${kind.kind}, got ${String(incoming.apiVersion)} ${String(incoming.kind)}`);
    }
    const causes = kind.causes(incoming);
    if (causes.length > 0) {
      throw invalid(kind.kind, kind.group, name, causes);
    }
    if (existing && meta.resourceVersion !== undefined && meta.resourceVersion !== existing.metadata.resourceVersion) {
      throw conflict(kind.resource, kind.group, name);
    }
    const next = normalize(kind, incoming);
    if (existing && userPart(next) === userPart(existing)) {
      return existing;
    }
    const specChanged = existing === undefined || JSON.stringify(next.spec) !== JSON.stringify(existing.spec);
    const generation = Number(existing?.metadata.generation ?? 0) + (specChanged ? 1 : 0);
    const obj = {
      ...next,
      metadata: {
        ...meta,
        name,
        namespace: ns,
        uid: existing?.metadata.uid ?? randomUUID(),
        creationTimestamp: existing?.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        ...(kind.resource === 'inferenceservices' ? { generation } : {}),
        resourceVersion: existing?.metadata.resourceVersion,
      },
      ...(existing?.status !== undefined ? { status: existing.status } : {}),
    } as KubeObject;
    return dryRun ? obj : store.put(kind.resource, obj);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    requests.push(`${method} ${url.pathname}${url.search}`);
    if (url.pathname === '/api/v1' || url.pathname === '/apis/serving.kserve.io/v1beta1') {
      const kind = url.pathname === '/api/v1' ? KINDS.secrets : KINDS.inferenceservices;
      send(res, 200, discovery(kind.apiVersion, kind));
      return;
    }
    const m = ROUTE.exec(url.pathname);
    const kind = m ? KINDS[m[2]] : undefined;
    if (!m || !kind || url.pathname.startsWith('/api/v1/') !== (kind.group === '')) {
      throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
    }
    const [, ns, , name] = m;
    const dryRun = url.searchParams.get('dryRun') === 'All';
    if (url.searchParams.has('dryRun') && !dryRun) {
      throw new StatusError(400, 'BadRequest', `invalid dry run option: ${url.searchParams.get('dryRun')}; supported values: All`);
    }
    if (method === 'GET' && ['true', '1'].includes(url.searchParams.get('watch') ?? '')) {
      serveWatch(store, kind.resource, ns, url.searchParams, req, res);
      if (options.watchTimeoutMs !== undefined) {
        setTimeout(() => res.end(), options.watchTimeoutMs).unref();
      }
      return;
    }
    if (name === undefined) {
      if (method === 'GET') {
        const items = store.list(kind.resource, ns);
        send(res, 200, { apiVersion: kind.apiVersion, kind: `${kind.kind}List`, metadata: { resourceVersion: String(store.resourceVersion) }, items });
        return;
      }
      if (method === 'POST' && ns !== undefined) {
        const body = await readBody(req);
        const bodyName = String(((body.metadata ?? {}) as { name?: string }).name ?? '');
        if (store.get(kind.resource, ns, bodyName)) {
          throw alreadyExists(kind.resource, kind.group, bodyName);
        }
        send(res, 201, write(kind, ns, body, undefined, dryRun));
        return;
      }
      throw new StatusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
    }
    if (ns === undefined) {
      throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
    }
    const existing = store.get(kind.resource, ns, name);
    if (method === 'GET') {
      if (!existing) {
        throw notFound(kind.resource, kind.group, name);
      }
      send(res, 200, existing);
      return;
    }
    if (method === 'DELETE') {
      if (!existing) {
        throw notFound(kind.resource, kind.group, name);
      }
      if (!dryRun) {
        store.remove(kind.resource, ns, name);
      }
      send(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group: kind.group || undefined, kind: kind.resource, uid: existing.metadata.uid } });
      return;
    }
    const body = await readBody(req);
    const bodyName = ((body.metadata ?? {}) as { name?: string }).name;
    if (bodyName !== undefined && bodyName !== name) {
      throw new StatusError(400, 'BadRequest', `the name of the object (${bodyName}) does not match the name on the URL (${name})`);
    }
    if (method === 'PUT') {
      if (!existing) {
        throw notFound(kind.resource, kind.group, name);
      }
      send(res, 200, write(kind, ns, body, existing, dryRun));
      return;
    }
    if (method === 'PATCH') {
      const type = req.headers['content-type'] ?? '';
      if (type.startsWith('application/apply-patch')) {
        if (!url.searchParams.get('fieldManager')) {
          throw new StatusError(400, 'BadRequest', 'PATCH, application/apply-patch+yaml requires fieldManager to be set');
        }
        // server-side apply, simplified: the applied configuration owns spec/data/type, labels and annotations merge
        const meta = (body.metadata ?? {}) as Record<string, unknown>;
        const merged = existing
          ? { ...existing, ...body, metadata: { ...existing.metadata, ...meta, labels: { ...((existing.metadata.labels ?? {}) as object), ...((meta.labels ?? {}) as object) }, annotations: { ...((existing.metadata.annotations ?? {}) as object), ...((meta.annotations ?? {}) as object) } } }
          : { ...body, metadata: { ...meta, name } };
        const clean = stripEmpty(merged);
        send(res, existing ? 200 : 201, write(kind, ns, clean, existing, dryRun));
        return;
      }
      if (type.startsWith('application/merge-patch+json')) {
        if (!existing) {
          throw notFound(kind.resource, kind.group, name);
        }
        send(res, 200, write(kind, ns, mergePatch(existing, body) as Record<string, unknown>, existing, dryRun));
        return;
      }
      throw new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/apply-patch+yaml, application/merge-patch+json`);
    }
    throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const err = e instanceof StatusError ? e : new StatusError(500, 'InternalError', `stand-in: ${(e as Error).message}`);
      if (!res.headersSent) {
        send(res, err.code, err.body());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    requests,
    close: async () => {
      stopController();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Drops the empty label/annotation maps the merge above may add, so a no-op apply compares equal. */
function stripEmpty(o: Record<string, unknown>): Record<string, unknown> {
  const meta = { ...(o.metadata as Record<string, unknown>) };
  for (const k of ['labels', 'annotations']) {
    if (meta[k] !== undefined && Object.keys(meta[k] as object).length === 0) {
      delete meta[k];
    }
  }
  return { ...o, metadata: meta };
}
