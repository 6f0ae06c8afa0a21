import { z } from 'zod';

/** Tensor datatypes of the Open Inference Protocol. */
export const V2_DATATYPES = [
  'BOOL', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'INT8', 'INT16', 'INT32', 'INT64',
  'FP16', 'FP32', 'FP64', 'BYTES',
] as const;
/** A V2 tensor datatype. */
export type V2Datatype = (typeof V2_DATATYPES)[number];

/** Optional `parameters` object of requests, responses and tensors. */
export const V2ParametersSchema = z.record(z.string(), z.unknown()).nullable().optional();

const shapeSchema = z.array(z.number().int('expected integer dimensions').nonnegative('expected dimensions ≥ 0'));

/** Number of elements a shape holds (product of its dimensions). */
export function shapeSize(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * A V2 tensor. `data` is flat row-major (nested lists are flattened before the check); its length must
 * equal the product of `shape`. BYTES data are strings.
 */
export const V2TensorSchema = z
  .looseObject({
    name: z.string().min(1, 'expected a tensor name'),
    shape: shapeSchema,
    datatype: z.enum(V2_DATATYPES, { message: `expected one of ${V2_DATATYPES.join(', ')}` }),
    parameters: V2ParametersSchema,
    data: z.array(z.unknown()),
  })
  .transform((t) => ({ ...t, data: t.data.flat(Infinity) as unknown[] }))
  .superRefine((t, ctx) => {
    const n = shapeSize(t.shape);
    if (t.data.length !== n) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `has ${t.data.length} elements but shape [${t.shape.join(', ')}] needs ${n}`,
      });
    }
    const bad = t.data.findIndex((v) => (t.datatype === 'BYTES' ? typeof v !== 'string' : t.datatype === 'BOOL' ? typeof v !== 'boolean' : typeof v !== 'number'));
    if (bad >= 0) {
      const want = t.datatype === 'BYTES' ? 'a string' : t.datatype === 'BOOL' ? 'a boolean' : 'a number';
      ctx.addIssue({ code: 'custom', path: ['data', bad], message: `expected ${want} for datatype ${t.datatype}` });
    }
  });
/** A validated V2 tensor (data flattened). */
export type V2Tensor = z.output<typeof V2TensorSchema>;

/** A requested output of a V2 inference request. */
export const V2RequestedOutputSchema = z.looseObject({ name: z.string(), parameters: V2ParametersSchema });

/** V2 `/infer` request. */
export const V2InferRequestSchema = z.looseObject({
  id: z.string().optional(),
  parameters: V2ParametersSchema,
  inputs: z.array(V2TensorSchema).min(1, 'expected at least one input tensor'),
  outputs: z.array(V2RequestedOutputSchema).optional(),
});
/** A validated V2 inference request. */
export type V2InferRequest = z.output<typeof V2InferRequestSchema>;

/** V2 `/infer` response. */
export const V2InferResponseSchema = z.looseObject({
  model_name: z.string(),
  model_version: z.string().nullable().optional(),
  id: z.string(),
  parameters: V2ParametersSchema,
  outputs: z.array(V2TensorSchema),
});
/** A V2 inference response. */
export type V2InferResponse = z.output<typeof V2InferResponseSchema>;

/** `GET /v2` server metadata. */
export const V2ServerMetadataSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  extensions: z.array(z.string()).nullable().optional().transform((v) => v ?? []),
});
/** Server metadata. */
export type V2ServerMetadata = z.output<typeof V2ServerMetadataSchema>;

/** Input or output description in model metadata; `-1` marks a variable dimension. */
export const V2TensorMetadataSchema = z.looseObject({
  name: z.string(),
  datatype: z.string(),
  shape: z.array(z.number().int()),
});
/** Tensor metadata. */
export type V2TensorMetadata = z.output<typeof V2TensorMetadataSchema>;

/**
 * `GET /v2/models/{name}` model metadata. Lenient as KServe answers it: `versions` may be `null` or absent,
 * `platform` `""` or `null`, `inputs`/`outputs` empty or absent (read as `[]`); extra fields are kept.
 */
export const V2ModelMetadataSchema = z.looseObject({
  name: z.string(),
  versions: z.array(z.string()).nullable().optional(),
  platform: z.string().nullable(),
  inputs: z.array(V2TensorMetadataSchema).nullable().optional().transform((v) => v ?? []),
  outputs: z.array(V2TensorMetadataSchema).nullable().optional().transform((v) => v ?? []),
});
/** Model metadata. */
export type V2ModelMetadata = z.output<typeof V2ModelMetadataSchema>;

/** `GET /v2/health/live` body. */
export const V2LiveSchema = z.looseObject({ live: z.boolean() });
/** `GET /v2/health/ready` body. */
export const V2ReadySchema = z.looseObject({ ready: z.boolean() });
/** `GET /v2/models/{name}/ready` body. */
export const V2ModelReadySchema = z.looseObject({ name: z.string(), ready: z.boolean() });
/** Liveness. */
export type V2Live = z.output<typeof V2LiveSchema>;
/** Readiness. */
export type V2Ready = z.output<typeof V2ReadySchema>;
/** One model's readiness. */
export type V2ModelReady = z.output<typeof V2ModelReadySchema>;
