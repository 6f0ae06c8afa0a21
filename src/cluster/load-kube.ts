import type * as K8s from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { InferkitError } from '../errors.js';

/** The `@kubernetes/client-node` module, loaded on first use (it is large and ESM-only). */
export type KubeModule = typeof K8s;
/** A loaded kubeconfig with its client objects. */
export type KubeConfigInstance = InstanceType<KubeModule['KubeConfig']>;

let loading: Promise<KubeModule> | undefined;

/** Imports `@kubernetes/client-node` lazily, once, so importing inferkit stays fast. */
export function loadKubeModule(): Promise<KubeModule> {
  loading ??= import('@kubernetes/client-node');
  return loading;
}

/** Where and how to connect, resolved from a kubeconfig like `kubectl` does. */
export interface KubeTarget {
  k8s: KubeModule;
  kc: KubeConfigInstance;
  /** API server URL of the context's cluster. */
  server: string;
  /** Context used. */
  context: string;
  /** The context's namespace, else `default`. */
  namespace: string;
}

/**
 * Reads `kubeconfig` (a path), switches to `context` when given (else `current-context`), and returns
 * the API server and default namespace. Throws `config` errors naming the file or context.
 */
export async function loadKubeTarget(kubeconfig: string, context?: string): Promise<KubeTarget> {
  if (!existsSync(kubeconfig)) {
    throw new InferkitError('config', `no kubeconfig at ${kubeconfig}: set KUBECONFIG or pass --kubeconfig`, { param: 'kubeconfig' });
  }
  const k8s = await loadKubeModule();
  const kc = new k8s.KubeConfig();
  try {
    kc.loadFromFile(kubeconfig);
  } catch (cause) {
    throw new InferkitError('config', `cannot read kubeconfig ${kubeconfig}: ${(cause as Error).message}`, { cause, param: 'kubeconfig' });
  }
  if (context !== undefined) {
    if (!kc.getContexts().some((c) => c.name === context)) {
      throw new InferkitError('config', `context "${context}" not found in ${kubeconfig} (contexts: ${kc.getContexts().map((c) => c.name).join(', ') || 'none'})`, { param: 'context' });
    }
    kc.setCurrentContext(context);
  }
  const current = kc.getContextObject(kc.getCurrentContext());
  const cluster = kc.getCurrentCluster();
  if (!current || !cluster) {
    throw new InferkitError('config', `kubeconfig ${kubeconfig} has no current context with a cluster; pass --context`, { param: 'context' });
  }
  return { k8s, kc, server: cluster.server, context: current.name, namespace: current.namespace ?? 'default' };
}
