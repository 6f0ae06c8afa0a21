import { z } from 'zod';
import { InferenceServiceSchema, type InferenceService } from '../contract/inference-service.js';
import type { CallOptions } from '../contract/predictor.js';
import { createRequester, type RequestOptions } from './request.js';
import { baseUrlOf, type RemoteTarget } from './remote.js';

/** Path of inferkit's listing of the services a server serves (with `status` filled). */
export const SERVICES_PATH = '/inferkit/v1/services';

/** Body of `GET /inferkit/v1/services`: per service its state and its manifest with `status`. */
export const ServiceListSchema = z.looseObject({
  services: z.array(
    z.looseObject({
      name: z.string(),
      ready: z.boolean(),
      manifest: InferenceServiceSchema,
    }),
  ),
});
/** The listing of served services. */
export type ServiceList = z.output<typeof ServiceListSchema>;

/**
 * The InferenceServices an inferkit server serves, each with its live `status` (url, Ready and
 * PredictorReady conditions, predictor revision and traffic) — what `inferkit get` prints.
 */
export async function listInferenceServices(
  target: RemoteTarget,
  options: Omit<RequestOptions, 'baseUrl'> & CallOptions = {},
): Promise<InferenceService[]> {
  const call = createRequester({ ...options, baseUrl: baseUrlOf(target) });
  const r = await call({ method: 'GET', path: SERVICES_PATH, schema: ServiceListSchema, signal: options.signal });
  return r.services.map((s) => s.manifest);
}
