import type { KubeObject, Store, WatchEvent } from './store.js';

/** The annotation that makes the stand-in controller fail a revision: `"Reason: message"`. */
export const FAIL_ANNOTATION = 'stand-in.inferkit/fail';

/** Options of {@link startController}. */
export interface ControllerOptions {
  /** Milliseconds from a new generation to its Ready (or failed) status. @default 300 */
  readyDelayMs?: number;
  /** Ingress domain of `status.url`. @default 'example.com' */
  domain?: string;
}

const ISVC = 'inferenceservices';

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function revision(name: string, generation: number): string {
  return `${name}-predictor-${String(generation).padStart(5, '0')}`;
}

function condition(type: string, status: 'True' | 'False' | 'Unknown', reason?: string, message?: string): Record<string, string> {
  return { type, status, lastTransitionTime: now(), ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** The status KServe's controller writes for `obj` at `generation`, ready or failed. */
function settledStatus(obj: KubeObject, generation: number, domain: string): Record<string, unknown> {
  const { name, namespace } = obj.metadata;
  const annotations = (obj.metadata.annotations ?? {}) as Record<string, string>;
  const fail = annotations[FAIL_ANNOTATION];
  const latest = revision(name, generation);
  const previous = ((obj.status as { components?: { predictor?: { latestReadyRevision?: string } } } | undefined)?.components?.predictor?.latestReadyRevision);
  const base = { url: `http://${name}.${namespace}.${domain}`, address: { url: `http://${name}-predictor.${namespace}.svc.cluster.local` }, observedGeneration: generation };
  if (fail !== undefined) {
    const cut = fail.indexOf(':');
    const reason = cut > 0 ? fail.slice(0, cut).trim() : fail.trim();
    const message = cut > 0 ? fail.slice(cut + 1).trim() : `revision "${latest}" failed`;
    return {
      ...base,
      conditions: [condition('IngressReady', 'False', reason, message), condition('PredictorReady', 'False', reason, message), condition('Ready', 'False', reason, message)],
      components: { predictor: { latestCreatedRevision: latest, ...(previous ? { latestReadyRevision: previous } : {}) } },
    };
  }
  const traffic = [{ latestRevision: true, percent: 100, revisionName: latest }];
  return {
    ...base,
    conditions: [condition('IngressReady', 'True'), condition('PredictorConfigurationReady', 'True'), condition('PredictorReady', 'True'), condition('PredictorRouteReady', 'True'), condition('Ready', 'True')],
    components: {
      predictor: {
        latestCreatedRevision: latest,
        latestReadyRevision: latest,
        latestRolledoutRevision: latest,
        ...(previous && previous !== latest ? { previousRolledoutRevision: previous } : {}),
        traffic,
        url: `http://${name}-predictor.${namespace}.${domain}`,
      },
    },
  };
}

/**
 * Plays KServe's controller: for each new generation of an InferenceService it first writes
 * `Unknown` conditions, then after `readyDelayMs` the settled status (Ready, or the failure named by
 * the {@link FAIL_ANNOTATION} annotation). Returns a function that stops it.
 */
export function startController(store: Store, options: ControllerOptions = {}): () => void {
  const delay = options.readyDelayMs ?? 300;
  const domain = options.domain ?? 'example.com';
  const timers = new Set<NodeJS.Timeout>();
  const handled = new Map<string, number>();
  const onEvent = (e: WatchEvent): void => {
    if (e.resource !== ISVC || e.type === 'DELETED') {
      if (e.type === 'DELETED') {
        handled.delete(`${e.object.metadata.namespace}/${e.object.metadata.name}`);
      }
      return;
    }
    const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
    const generation = Number(e.object.metadata.generation ?? 1);
    if (handled.get(key) === generation) {
      return;
    }
    handled.set(key, generation);
    const timer = setTimeout(() => {
      timers.delete(timer);
      const current = store.get(ISVC, e.object.metadata.namespace, e.object.metadata.name);
      if (current && Number(current.metadata.generation ?? 1) === generation) {
        store.put(ISVC, { ...current, status: settledStatus(current, generation, domain) });
      }
    }, delay);
    timers.add(timer);
    // the first write: conditions Unknown while the revision rolls out
    const previous = (e.object.status ?? {}) as Record<string, unknown>;
    setImmediate(() => {
      const current = store.get(ISVC, e.object.metadata.namespace, e.object.metadata.name);
      const observed = (current?.status as { observedGeneration?: number } | undefined)?.observedGeneration;
      if (current && Number(current.metadata.generation ?? 1) === generation && observed !== generation) {
        const rolling = [condition('PredictorReady', 'Unknown', 'RevisionMissing', `Configuration "${current.metadata.name}-predictor" is waiting for a Revision to become ready.`), condition('Ready', 'Unknown', 'RevisionMissing')];
        store.put(ISVC, { ...current, status: { ...previous, conditions: rolling } });
      }
    });
  };
  store.events.on('event', onEvent);
  return () => {
    store.events.off('event', onEvent);
    for (const t of timers) {
      clearTimeout(t);
    }
  };
}
