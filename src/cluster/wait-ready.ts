import type { Condition, InferenceService } from '../contract/inference-service.js';
import { InferenceServiceSchema } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import type { WaitOptions } from './cluster-types.js';
import { toKubeError } from './kube-error.js';
import type { KubeTarget } from './load-kube.js';

/** Reasons of a `Ready`/`PredictorReady` False that will not heal by waiting. */
const TERMINAL = /CrashLoopBackOff|ImagePullBackOff|ErrImagePull|InvalidImageName|RevisionFailed|ContainerMissing|Unschedulable|OOMKilled|Error|Failed|Invalid/i;

function describe(c: Condition): string {
  return `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`;
}

/** The failing condition of a service, if a revision has failed for good. */
export function failedCondition(isvc: InferenceService): Condition | undefined {
  const conditions = isvc.status?.conditions ?? [];
  const gen = isvc.metadata.generation;
  const observed = isvc.status?.observedGeneration;
  if (typeof gen === 'number' && typeof observed === 'number' && observed < gen) {
    return undefined; // the controller has not looked at this generation yet
  }
  const predictor = conditions.find((c) => c.type === 'PredictorReady' && c.status === 'False');
  if (predictor) {
    return predictor;
  }
  const ready = conditions.find((c) => c.type === 'Ready' && c.status === 'False');
  return ready && TERMINAL.test(ready.reason ?? '') ? ready : undefined;
}

function isReady(isvc: InferenceService): boolean {
  const gen = isvc.metadata.generation;
  const observed = isvc.status?.observedGeneration;
  const current = typeof gen !== 'number' || typeof observed !== 'number' || observed >= gen;
  return current && (isvc.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Watches one InferenceService (the client's `Watch` with `fieldSelector=metadata.name=NAME`),
 * reporting each change of its conditions, until `Ready` is True (resolves with the service) or a
 * condition fails (rejects `model_load_failed` with its reason and message), the time runs out
 * (`timeout`), the object is deleted (`model_not_found`) or `signal` aborts.
 */
export function waitForReady(t: KubeTarget, name: string, namespace: string, options: WaitOptions = {}): Promise<InferenceService> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  return new Promise<InferenceService>((resolve, reject) => {
    let seen = new Map<string, string>();
    let settled = false;
    let abortWatch: (() => void) | undefined;
    const finish = (err: Error | undefined, value?: InferenceService): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      abortWatch?.();
      if (err) {
        reject(err);
      } else {
        resolve(value as InferenceService);
      }
    };
    const timer = setTimeout(() => {
      const last = [...seen.values()].join(', ');
      finish(new InferkitError('timeout', `inferenceservice/${name} in ${namespace} was not Ready within ${Math.round(timeoutMs / 1000)} s${last ? ` (last: ${last})` : ''}`));
    }, timeoutMs);
    const onAbort = (): void => finish(options.signal?.reason instanceof Error ? options.signal.reason : new InferkitError('timeout', 'wait aborted'));
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort);

    const onObject = (phase: string, raw: unknown): void => {
      if (phase === 'DELETED') {
        finish(new InferkitError('model_not_found', `inferenceservice/${name} in ${namespace} was deleted while waiting`));
        return;
      }
      const r = InferenceServiceSchema.safeParse(JSON.parse(JSON.stringify(raw)));
      if (!r.success) {
        return;
      }
      const isvc = r.data;
      const now = new Map((isvc.status?.conditions ?? []).map((c) => [c.type, describe(c)]));
      const changed = [...now.entries()].filter(([k, v]) => seen.get(k) !== v).map(([, v]) => v);
      seen = now;
      if (changed.length > 0 || phase === 'ADDED') {
        const ready = isvc.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '';
        options.onProgress?.({ type: 'progress', name, ready, changed, service: isvc });
      }
      const failed = failedCondition(isvc);
      if (failed) {
        finish(new InferkitError('model_load_failed', `inferenceservice/${name} failed: ${failed.type} ${failed.reason ?? 'False'}: ${failed.message ?? '(no message)'}`, { param: `status.conditions[${failed.type}]` }));
      } else if (isReady(isvc)) {
        finish(undefined, isvc);
      }
    };

    // API servers end a watch after a few minutes: resume from the last resourceVersion seen
    const watcher = new t.k8s.Watch(t.kc);
    const path = `/apis/serving.kserve.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/inferenceservices`;
    let lastRv: string | undefined;
    let sawObject = false;
    let restarts = 0;
    const start = (): void => {
      const query: Record<string, string> = { fieldSelector: `metadata.name=${name}`, allowWatchBookmarks: 'true' };
      if (lastRv !== undefined) {
        query.resourceVersion = lastRv;
      }
      watcher
        .watch(path, query, (phase, obj) => {
          const rv = (obj as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion;
          lastRv = rv ?? lastRv;
          if (phase === 'BOOKMARK') {
            return;
          }
          sawObject = true;
          onObject(phase, obj);
        }, (err: unknown) => {
          if (settled) {
            return;
          }
          if (err) {
            finish(toKubeError(err, `watch inferenceservice/${name}`, t.server));
          } else if (!sawObject) {
            finish(new InferkitError('model_not_found', `inferenceservice/${name} not found in namespace ${namespace}`));
          } else if (restarts++ < 1000) {
            start();
          }
        })
        .then((controller) => {
          abortWatch = () => controller.abort();
          if (settled) {
            controller.abort();
          }
        }, (err: unknown) => finish(toKubeError(err, `watch inferenceservice/${name}`, t.server)));
    };
    start();
  });
}
