import {
  InferenceServiceSchema,
  SecretSchema,
  type EnvVar,
  type InferenceService,
  type Secret,
} from '../contract/inference-service.js';
import { parseContract } from '../contract/parse.js';
import { ValidationError } from '../errors.js';

/** What the builders return: the InferenceService and, for a gated model, the Secret holding the hub token. */
export interface Manifest {
  /** The `serving.kserve.io/v1beta1` InferenceService. */
  service: InferenceService;
  /** The Secret with the hub token (key `HF_TOKEN`), present only when a token was given. */
  secret?: Secret;
}

/** Key of the hub token in the Secret and name of the env var the runtime reads. */
export const HUB_TOKEN_KEY = 'HF_TOKEN';

/** Default name of the Secret holding a service's hub token: `{name}-hub-token`. */
export function defaultSecretName(serviceName: string): string {
  return `${serviceName}-hub-token`;
}

/** The predictor env entry that reads `HF_TOKEN` from the Secret (never the token itself). */
export function hubTokenEnv(secretName: string): EnvVar[] {
  return [{ name: HUB_TOKEN_KEY, valueFrom: { secretKeyRef: { name: secretName, key: HUB_TOKEN_KEY } } }];
}

/** Options shared by both builder forms for the hub token. */
export interface HubTokenOptions {
  /** Hub access token of a gated model; written only into the Secret document. */
  hubToken?: string;
  /** Name of the Secret to create or reference. @default `{name}-hub-token` when `hubToken` is set */
  secretName?: string;
}

/**
 * Resolves which Secret (if any) the predictor references and builds it when a token is given.
 * `secretName` without `hubToken` references an existing Secret and creates none.
 */
export function hubTokenSecret(
  serviceName: string,
  namespace: string | undefined,
  options: HubTokenOptions,
): { secretName?: string; secret?: unknown } {
  const { hubToken, secretName } = options;
  if (hubToken === undefined) {
    return { secretName };
  }
  if (hubToken.trim().length === 0) {
    throw new ValidationError([{ path: 'hubToken', message: 'expected a non-empty hub token' }]);
  }
  const name = secretName ?? defaultSecretName(serviceName);
  const metadata = namespace === undefined ? { name } : { name, namespace };
  return {
    secretName: name,
    secret: { apiVersion: 'v1', kind: 'Secret', metadata, type: 'Opaque', stringData: { [HUB_TOKEN_KEY]: hubToken } },
  };
}

/** Validates a built service (and secret) with the contract schemas; errors name the manifest path. */
export function assembleManifest(service: unknown, secret: unknown): Manifest {
  const parsed = parseContract(InferenceServiceSchema, service, 'InferenceService');
  if (secret === undefined) {
    return { service: parsed };
  }
  return { service: parsed, secret: parseContract(SecretSchema, secret, 'Secret') };
}
