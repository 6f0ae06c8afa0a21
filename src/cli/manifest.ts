import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { envVar } from '../config.js';
import { InferkitError } from '../errors.js';
import { containerService } from '../manifest/container-service.js';
import { inferenceService } from '../manifest/inference-service.js';
import { toYaml } from '../manifest/manifest-yaml.js';
import type { ResourceOptions } from '../manifest/to-resources.js';

interface ManifestFlags {
  name: string;
  modelId?: string;
  modelName?: string;
  namespace?: string;
  protocol?: 'v1' | 'v2';
  cpu?: string;
  memory?: string;
  gpu?: string;
  hubTokenEnv?: string;
  secretName?: string;
  disableLowerCase?: boolean;
  task?: string;
  storageUri?: string;
  modelFormat?: string;
  image?: string;
  httpPort?: number;
  arg: string[];
  output?: string;
}

/** Registers `inferkit manifest`: prints an InferenceService (and hub-token Secret) as YAML from flags. */
export function registerManifestCommand(program: Command): void {
  program
    .command('manifest')
    .description('print an InferenceService manifest (YAML) for a hub model; --image selects the containers form')
    .requiredOption('--name <name>', 'service name (metadata.name)')
    .option('--model-id <id>', 'hub model id (--model_id)')
    .option('--model-name <name>', 'served model name (--model_name); default: --name')
    .option('--namespace <namespace>', 'metadata.namespace')
    .addOption(new Option('--protocol <version>', 'inference protocol').choices(['v1', 'v2']))
    .option('--cpu <quantity>', 'CPU for requests and limits, e.g. 1 or 500m')
    .option('--memory <quantity>', 'memory for requests and limits, e.g. 4Gi')
    .option('--gpu <count>', 'NVIDIA GPUs (nvidia.com/gpu)')
    .option('--hub-token-env <var>', 'read the hub token of a gated model from this env var into a Secret')
    .option('--secret-name <name>', 'name of the hub-token Secret (created with --hub-token-env, else referenced)')
    .option('--disable-lower-case', 'do not lower-case input text (--disable_lower_case)')
    .option('--task <task>', 'runtime task, e.g. token_classification or time_series_forecast')
    .option('--storage-uri <uri>', 'storageUri, e.g. hf://org/model (model form)')
    .option('--model-format <name>', 'modelFormat.name (model form)', 'huggingface')
    .option('--image <image>', 'container image: writes the containers[] form')
    .option('--http-port <port>', 'HTTP port of the container (--http_port), with --image', parsePort)
    .option('--arg <arg>', 'extra runtime arg, repeatable; write as --arg=--max_length=128', collect, [])
    .option('-o, --output <file>', 'write the YAML to a file instead of stdout')
    .action(async (flags: ManifestFlags) => {
      const yaml = toYaml(buildManifest(flags));
      if (flags.output) {
        await writeFile(flags.output, yaml, 'utf8');
      } else {
        process.stdout.write(yaml);
      }
    });
}

function buildManifest(flags: ManifestFlags) {
  const hubToken = flags.hubTokenEnv === undefined ? undefined : readToken(flags.hubTokenEnv);
  const resources: ResourceOptions | undefined =
    flags.cpu ?? flags.memory ?? flags.gpu ? { cpu: flags.cpu, memory: flags.memory, gpu: flags.gpu } : undefined;
  const common = {
    name: flags.name,
    namespace: flags.namespace,
    modelId: flags.modelId,
    modelName: flags.modelName,
    task: flags.task,
    disableLowerCase: flags.disableLowerCase,
    args: flags.arg,
    resources,
    hubToken,
    secretName: flags.secretName,
  };
  if (flags.image !== undefined) {
    if (flags.protocol !== undefined || flags.storageUri !== undefined) {
      throw new InferkitError('invalid_request', '--protocol and --storage-uri apply to the model form only (drop --image)');
    }
    return containerService({ ...common, image: flags.image, httpPort: flags.httpPort });
  }
  if (flags.httpPort !== undefined) {
    throw new InferkitError('invalid_request', '--http-port applies to the containers form: add --image');
  }
  return inferenceService({ ...common, protocol: flags.protocol, storageUri: flags.storageUri, modelFormat: flags.modelFormat });
}

function readToken(variable: string): string {
  const token = envVar(variable);
  if (token === undefined) {
    throw new InferkitError('config', `--hub-token-env: environment variable ${variable} is not set or empty`);
  }
  return token;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535) {
    throw new InvalidArgumentError('expected a port number between 1 and 65535');
  }
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
