import { ValidationError } from '../errors.js';
import { runtimeArgs, serviceObject } from './inference-service.js';
import { assembleManifest, hubTokenEnv, hubTokenSecret, type HubTokenOptions, type Manifest } from './manifest.js';
import { toResources, type ResourceOptions } from './to-resources.js';

/** Options of {@link containerService}: the `spec.predictor.containers[]` form. */
export interface ContainerServiceOptions extends HubTokenOptions {
  /** `metadata.name`; must match `^[a-z]([-a-z0-9]*[a-z0-9])?$`. */
  name: string;
  /** `metadata.namespace` (of the Secret too). */
  namespace?: string;
  /** Container image, e.g. `kserve/huggingfaceserver:latest`. */
  image: string;
  /** Container name. @default 'kserve-container' */
  containerName?: string;
  /** HTTP port: written as `--http_port=` and as the container port. @default 8080 */
  httpPort?: number;
  /** Hub model id, written as `--model_id=`. */
  modelId?: string;
  /** Served name, written as `--model_name=`. @default name */
  modelName?: string;
  /** `--task=`. */
  task?: string;
  /** Writes the `--disable_lower_case` flag. */
  disableLowerCase?: boolean;
  /** Further args appended after the generated ones. */
  args?: string[];
  /** CPU, memory and GPU requests/limits. */
  resources?: ResourceOptions;
}

/**
 * Builds a validated InferenceService whose predictor is one custom container running the runtime with
 * `--http_port=`, plus the hub-token Secret when `hubToken` is given.
 */
export function containerService(options: ContainerServiceOptions): Manifest {
  const { name, namespace } = options;
  const httpPort = options.httpPort ?? 8080;
  if (!Number.isInteger(httpPort) || httpPort < 1 || httpPort > 65535) {
    throw new ValidationError([{ path: 'httpPort', message: 'expected a port number between 1 and 65535' }]);
  }
  const { secretName, secret } = hubTokenSecret(name, namespace, options);
  const resources = toResources(options.resources);
  const container = {
    name: options.containerName ?? 'kserve-container',
    image: options.image,
    args: runtimeArgs({ ...options, httpPort }),
    ...(secretName !== undefined ? { env: hubTokenEnv(secretName) } : {}),
    ...(resources ? { resources } : {}),
    ports: [{ containerPort: httpPort, protocol: 'TCP' }],
  };
  return assembleManifest(serviceObject(name, namespace, { containers: [container] }), secret);
}
