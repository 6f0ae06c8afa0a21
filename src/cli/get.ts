import type { Command } from 'commander';
import { listInferenceServices } from '../client/list-inference-services.js';
import { modelNameOf } from '../client/service-target.js';
import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { toYaml } from '../manifest/manifest-yaml.js';
import { maskManifestSecrets } from '../manifest/secret-env.js';
import { STATUS_COLUMNS, formatColumns, formatStatusTable, statusRow } from '../manifest/status-row.js';
import { clusterFromFlags, withClusterFlags, type ClusterFlags } from './cluster-options.js';
import { jsonPath } from './jsonpath.js';
import { isvcName } from './kubectl-args.js';

/** Output formats of `inferkit get`. */
export const GET_OUTPUTS = ['table', 'wide', 'yaml', 'json'] as const;
/** An output format of `inferkit get`. */
export type GetOutput = (typeof GET_OUTPUTS)[number];

/** Options of {@link renderGet}. */
export interface RenderGetOptions {
  /** Base URL of the inferkit server. */
  server: string;
  /** `table` (kubectl's columns), `wide` (plus MODEL, PROTOCOL, REASON) or `yaml`. @default 'table' */
  output?: GetOutput;
  /** Only this service (by `metadata.name`). */
  name?: string;
  /** Time limit of the call in milliseconds. @default 10000 */
  timeoutMs?: number;
  /** "Now" for the AGE column, epoch milliseconds. @default Date.now() */
  now?: number;
}

/** The text `inferkit get` prints for what the server at `server` serves. */
export async function renderGet(options: RenderGetOptions): Promise<string> {
  let items = await listInferenceServices({ baseUrl: options.server }, { timeoutMs: options.timeoutMs ?? 10_000, retries: 0 });
  if (options.name !== undefined) {
    items = items.filter((i) => i.metadata.name === options.name);
    if (items.length === 0) {
      throw new InferkitError('model_not_found', `inferenceservice "${options.name}" is not served at ${options.server}`);
    }
  }
  return formatGet(items, options.output ?? 'table', options.now ?? Date.now());
}

/**
 * Formats InferenceServices as `inferkit get` prints them: kubectl's table (with a NAMESPACE column
 * for `allNamespaces`), `wide`, multi-document `yaml`, or `json` (one object for `single`, else a `List`).
 * Credentials in clear (secret env names, `hf_…`/`Bearer …` shapes, URI userinfo, annotations) are shown as `<masked>` (`maskManifestSecrets`).
 */
export function formatGet(given: readonly InferenceService[], output: GetOutput, now: number, options: { allNamespaces?: boolean; single?: boolean } = {}): string {
  // Every format shows the masked copy: a credential may stand in a URL or a condition's message too.
  const items = maskManifestSecrets(given);
  if (output === 'yaml') {
    return toYaml(items);
  }
  if (output === 'json') {
    const shown = items;
    return `${JSON.stringify(options.single && shown.length === 1 ? shown[0] : { apiVersion: 'v1', kind: 'List', items: shown }, null, 2)}\n`;
  }
  const text = output === 'table' ? formatStatusTable(items.map((i) => statusRow(i, now))) : formatWide(items, now);
  if (!options.allNamespaces) {
    return text;
  }
  const namespaces = ['NAMESPACE', ...items.map((i) => i.metadata.namespace ?? 'default')];
  const width = Math.max(6, ...namespaces.map((n) => n.length + 3));
  return text.split('\n').map((line, j) => (line === '' ? line : `${namespaces[j].padEnd(width)}${line}`)).join('\n');
}

function formatWide(items: readonly InferenceService[], now: number): string {
  const head = [...STATUS_COLUMNS, 'MODEL', 'PROTOCOL', 'REASON'];
  const rows = items.map((i) => {
    const row = statusRow(i, now);
    const ready = i.status?.conditions?.find((c) => c.type === 'Ready');
    const reason = ready && ready.status !== 'True' ? `${ready.reason ?? ''}${ready.message ? `: ${ready.message}` : ''}` : '';
    const protocol = i.spec.predictor.model?.protocolVersion ?? 'v1';
    return [...STATUS_COLUMNS.map((c) => row[c]), modelNameOf(i), protocol, reason];
  });
  return formatColumns([head, ...rows]);
}

interface GetFlags extends ClusterFlags {
  server?: string;
  output?: string;
  allNamespaces?: boolean;
}

/**
 * kubectl's `-o name` (`inferenceservice.serving.kserve.io/NAME` a line) and `-o jsonpath=TEMPLATE` (on the object
 * for one NAME, else on a `List`), over the masked copies; undefined for the other formats.
 */
export function formatKubectlOutput(given: readonly InferenceService[], output: string, single: boolean): string | undefined {
  const items = maskManifestSecrets(given);
  if (output === 'name') {
    return items.map((i) => `inferenceservice.serving.kserve.io/${i.metadata.name}\n`).join('');
  }
  const m = /^jsonpath=(.*)$/s.exec(output);
  if (!m) {
    return undefined;
  }
  const template = /^(["'])(.*)\1$/s.exec(m[1])?.[2] ?? m[1];
  return jsonPath(template, single && items.length === 1 ? items[0] : { apiVersion: 'v1', kind: 'List', items });
}

/** Registers `inferkit get [isvc] [NAME | isvc/NAME] [-n NS | -A] [-o wide|yaml|json|name|jsonpath=…] [--server URL]`. */
export function registerGetCommand(program: Command): void {
  withClusterFlags(
    program
      .command('get')
      .description('list InferenceServices of the cluster in your kubeconfig (like `kubectl get isvc`), or of a running inferkit server with --server')
      .argument('[name...]', 'only this InferenceService: NAME, isvc NAME or inferenceservice/NAME (a bare isvc lists them all)'),
  )
    .option('-A, --all-namespaces', 'every namespace')
    .option('--server <url>', 'read a running `inferkit serve` at this base URL instead of the cluster')
    .option('-o, --output <format>', 'output format: wide, yaml, json, name or jsonpath=TEMPLATE')
    .action(async (args: string[], opts: GetFlags) => {
      const name = isvcName(args, 'get');
      const output = opts.output ?? 'table';
      const kubectlOnly = output === 'name' || output.startsWith('jsonpath=');
      if (!(GET_OUTPUTS as readonly string[]).includes(output) && !kubectlOnly) {
        throw new InferkitError('invalid_request', `unknown output format "${output}"; expected wide, yaml, json, name or jsonpath=TEMPLATE`, { param: 'output' });
      }
      if (opts.server !== undefined) {
        if (kubectlOnly) {
          const items = (await listInferenceServices({ baseUrl: opts.server }, { timeoutMs: 10_000, retries: 0 })).filter((i) => name === undefined || i.metadata.name === name);
          if (name !== undefined && items.length === 0) {
            throw new InferkitError('model_not_found', `inferenceservice "${name}" is not served at ${opts.server}`);
          }
          process.stdout.write(formatKubectlOutput(items, output, name !== undefined) ?? '');
          return;
        }
        process.stdout.write(await renderGet({ server: opts.server, name, output: output as GetOutput }));
        return;
      }
      if (opts.allNamespaces && (name !== undefined || opts.namespace !== undefined)) {
        throw new InferkitError('invalid_request', '-A cannot be combined with a NAME or -n', { param: 'all-namespaces' });
      }
      const c = await clusterFromFlags(opts);
      const items = name !== undefined ? [await c.get(name)] : await c.list({ allNamespaces: opts.allNamespaces === true });
      if (kubectlOnly) {
        process.stdout.write(formatKubectlOutput(items, output, name !== undefined) ?? '');
        return;
      }
      if (items.length === 0 && output !== 'json' && output !== 'yaml') {
        process.stderr.write(`No resources found${opts.allNamespaces ? '' : ` in ${await c.namespace} namespace`}.\n`);
        return;
      }
      process.stdout.write(formatGet(items, output as GetOutput, Date.now(), { allNamespaces: opts.allNamespaces === true, single: name !== undefined }));
    });
}
