import { EventEmitter } from 'node:events';

/** A stored object (InferenceService or Secret) as plain JSON. */
export type KubeObject = Record<string, unknown> & { metadata: Record<string, unknown> & { name: string; namespace: string } };

/** One watch event: what happened to which object, at which `resourceVersion`. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  rv: number;
  resource: string;
}

/**
 * The stand-in's etcd: objects keyed by resource, namespace and name, one global `resourceVersion`
 * counter, and the event history that `?watch=true&resourceVersion=N` replays.
 */
export class Store {
  private readonly objects = new Map<string, KubeObject>();
  private readonly history: WatchEvent[] = [];
  private rv = 1;
  readonly events = new EventEmitter();

  constructor() {
    this.events.setMaxListeners(0);
  }

  /** The newest `resourceVersion` (a list's `metadata.resourceVersion`). */
  get resourceVersion(): number {
    return this.rv;
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    const o = this.objects.get(`${resource}/${namespace}/${name}`);
    return o === undefined ? undefined : structuredClone(o);
  }

  /** Every object of `resource`, in one namespace or (undefined) all, sorted by namespace then name. */
  list(resource: string, namespace: string | undefined): KubeObject[] {
    return [...this.objects.entries()]
      .filter(([k]) => k.startsWith(`${resource}/${namespace === undefined ? '' : `${namespace}/`}`))
      .map(([, o]) => structuredClone(o))
      .sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
  }

  /** Stores `obj` with a new `resourceVersion` and emits ADDED or MODIFIED. */
  put(resource: string, obj: KubeObject): KubeObject {
    const key = `${resource}/${obj.metadata.namespace}/${obj.metadata.name}`;
    const type = this.objects.has(key) ? 'MODIFIED' : 'ADDED';
    this.rv += 1;
    const stored = structuredClone(obj);
    stored.metadata.resourceVersion = String(this.rv);
    this.objects.set(key, stored);
    this.emit({ type, object: structuredClone(stored), rv: this.rv, resource });
    return structuredClone(stored);
  }

  /** Removes an object and emits DELETED; false when there was none. */
  remove(resource: string, namespace: string, name: string): KubeObject | undefined {
    const key = `${resource}/${namespace}/${name}`;
    const old = this.objects.get(key);
    if (old === undefined) {
      return undefined;
    }
    this.objects.delete(key);
    this.rv += 1;
    const gone = { ...structuredClone(old), metadata: { ...old.metadata, resourceVersion: String(this.rv) } };
    this.emit({ type: 'DELETED', object: gone, rv: this.rv, resource });
    return gone;
  }

  /** Events after `rv` (for a watch that resumes from a list's resourceVersion). */
  since(rv: number): WatchEvent[] {
    return this.history.filter((e) => e.rv > rv).map((e) => structuredClone(e));
  }

  private emit(e: WatchEvent): void {
    this.history.push(e);
    this.events.emit('event', structuredClone(e));
  }
}
