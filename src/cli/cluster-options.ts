import type { Command } from 'commander';
import type { ClusterOptions } from '../cluster/cluster-types.js';
import type { Cluster } from '../cluster/cluster.js';
import { InferkitError } from '../errors.js';

/** The kubeconfig flags every cluster command takes. */
export interface ClusterFlags {
  namespace?: string;
  context?: string;
  kubeconfig?: string;
}

/** Adds `-n/--namespace`, `--context` and `--kubeconfig` to a command. */
export function withClusterFlags(command: Command): Command {
  return command
    .option('-n, --namespace <ns>', "namespace (default: the context's namespace, else default)")
    .option('--context <name>', 'kubeconfig context (default: current-context)')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)');
}

/** A cluster client from the flags; the library (and the Kubernetes client) is loaded only now. */
export async function clusterFromFlags(flags: ClusterFlags): Promise<Cluster> {
  const { cluster } = await import('../cluster/cluster.js');
  const options: ClusterOptions = {};
  if (flags.kubeconfig !== undefined) {
    options.kubeconfig = flags.kubeconfig;
  }
  if (flags.context !== undefined) {
    options.context = flags.context;
  }
  if (flags.namespace !== undefined) {
    options.namespace = flags.namespace;
  }
  return cluster(options);
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `10m`, `90s`, `1h`, `500ms` (a bare number is seconds, like kubectl) → milliseconds. */
export function parseDuration(text: string, param = 'timeout'): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) {
    throw new InferkitError('invalid_request', `--${param}: expected a duration like 30s, 10m or 1h, got "${text}"`, { param });
  }
  return Math.round(Number(m[1]) * UNITS[m[2] ?? 's']);
}
