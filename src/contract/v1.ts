import { z } from 'zod';

/** V1 `:predict` request: one text per instance. Extra fields are kept. */
export const V1PredictRequestSchema = z.looseObject({
  instances: z.array(z.string('expected a string (one text per instance)')).min(1, 'expected at least one instance'),
});
/** A V1 predict request. */
export type V1PredictRequest = z.output<typeof V1PredictRequestSchema>;

/** Token-classification V1 entry: `[[class id per token]]`, special tokens included. */
export const TokenClassV1EntrySchema = z.array(z.array(z.number().int()));

/** V1 `:predict` response: one prediction per instance. */
export const V1PredictResponseSchema = z.looseObject({
  predictions: z.array(z.unknown()),
});
/** A V1 predict response. */
export type V1PredictResponse = z.output<typeof V1PredictResponseSchema>;

/** V1 `GET /v1/models/{name}` body. */
export const V1ModelStatusSchema = z.looseObject({ name: z.string(), ready: z.boolean() });
/** V1 model status. */
export type V1ModelStatus = z.output<typeof V1ModelStatusSchema>;

/** V1 `GET /v1/models` body. */
export const V1ModelListSchema = z.looseObject({ models: z.array(z.string()) });
/** V1 model list. */
export type V1ModelList = z.output<typeof V1ModelListSchema>;

/** Error body of the V1 and V2 protocols: `{"error": "<message>"}`. */
export const ErrorBodySchema = z.looseObject({ error: z.string() });
/** An error body. */
export type ErrorBody = z.output<typeof ErrorBodySchema>;
