import type { Command } from 'commander';
import { listInferenceServices } from '../client/list-inference-services.js';
import { modelNameOf } from '../client/service-target.js';
import { envIngress } from '../config.js';
import type { InferenceService } from '../contract/inference-service.js';
import { InferkitError } from '../errors.js';
import { toYaml } from '../manifest/manifest-yaml.js';
import { STATUS_COLUMNS, formatStatusTable, statusRow } from '../manifest/status-row.js';

/** Output formats of `inferkit get`. */
export const GET_OUTPUTS = ['table', 'wide', 'yaml'] as const;
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
  const output = options.output ?? 'table';
  if (output === 'yaml') {
    return toYaml(items);
  }
  const now = options.now ?? Date.now();
  if (output === 'table') {
    return formatStatusTable(items.map((i) => statusRow(i, now)));
  }
  return formatWide(items, now);
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
  const table = [head, ...rows];
  const widths = head.map((_, j) => Math.max(6, ...table.map((line) => line[j].length + 3)));
  return table.map((line) => line.map((c, j) => (j === line.length - 1 ? c : c.padEnd(widths[j]))).join('').trimEnd()).join('\n') + '\n';
}

/** Registers `inferkit get [NAME] [--server URL] [-o yaml|wide]`. */
export function registerGetCommand(program: Command): void {
  program
    .command('get')
    .description('list the InferenceServices a running inferkit server serves (like `kubectl get isvc`)')
    .argument('[name]', 'only this InferenceService')
    .option('--server <url>', 'base URL of the inferkit server (default http://$INGRESS_HOST:$INGRESS_PORT)')
    .option('-o, --output <format>', 'output format: wide or yaml')
    .action(async (name: string | undefined, opts: { server?: string; output?: string }) => {
      const output = opts.output ?? 'table';
      if (!(GET_OUTPUTS as readonly string[]).includes(output)) {
        throw new InferkitError('invalid_request', `unknown output format "${output}"; expected wide or yaml`, { param: 'output' });
      }
      const { host, port } = envIngress();
      const server = opts.server ?? `http://${host}:${port}`;
      process.stdout.write(await renderGet({ server, name, output: output as GetOutput }));
    });
}
