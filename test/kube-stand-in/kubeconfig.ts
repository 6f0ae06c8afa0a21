import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

/**
 * Writes a kubeconfig whose current context `stand-in` points at the stand-in API server with
 * `namespace` as its default namespace, into `dir`; returns its path. Tests pass this path
 * explicitly (`kubeconfig` option or `KUBECONFIG` for the child CLI) — `~/.kube` is never touched.
 */
export async function writeStandInKubeconfig(dir: string, server: string, namespace = 'default'): Promise<string> {
  const path = join(dir, 'kubeconfig-stand-in.yaml');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    // plain HTTP on loopback: the client refuses http:// unless TLS verification is explicitly off
    clusters: [{ name: 'stand-in', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'stand-in', user: { token: 'stand-in-token' } }],
    contexts: [
      { name: 'stand-in', context: { cluster: 'stand-in', user: 'stand-in', namespace } },
      { name: 'stand-in-other', context: { cluster: 'stand-in', user: 'stand-in', namespace: 'other' } },
    ],
    'current-context': 'stand-in',
  };
  await writeFile(path, stringify(config), 'utf8');
  return path;
}
