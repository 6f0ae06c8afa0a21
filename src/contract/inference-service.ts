import { z } from 'zod';

/** Kubernetes/KServe name rule (DNS-1035 label) enforced by KServe's webhook. */
export const NAME_RE = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const NAME_MESSAGE = 'expected a lower-case DNS label: letters, digits and "-", starting with a letter, ending with a letter or digit';

/** A Kubernetes resource quantity such as `1`, `500m`, `4Gi`, `2.5`. */
export const QUANTITY_RE = /^(\d+(\.\d+)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

const quantity = z.union([z.string(), z.number()]).refine((v) => QUANTITY_RE.test(String(v)), {
  message: 'expected a Kubernetes quantity such as "1", "500m" or "4Gi"',
});

/** `limits` / `requests` map: `cpu`, `memory`, `nvidia.com/gpu` and any other resource name. */
export const ResourceListSchema = z.record(z.string(), quantity).superRefine((r, ctx) => {
  const gpu = r['nvidia.com/gpu'];
  if (gpu !== undefined && !/^\d+$/.test(String(gpu))) {
    ctx.addIssue({ code: 'custom', path: ['nvidia.com/gpu'], message: 'expected a whole number of GPUs such as "1"' });
  }
});
/** Resource requirements of a predictor. */
export const ResourcesSchema = z.looseObject({
  limits: ResourceListSchema.optional(),
  requests: ResourceListSchema.optional(),
});
/** Resource requirements. */
export type Resources = z.output<typeof ResourcesSchema>;

/** An environment variable of a container, plain or from a Secret. */
export const EnvVarSchema = z.looseObject({
  name: z.string().min(1),
  value: z.string().optional(),
  valueFrom: z
    .looseObject({
      secretKeyRef: z.looseObject({ name: z.string(), key: z.string(), optional: z.boolean().optional() }).optional(),
    })
    .optional(),
});
/** An environment variable. */
export type EnvVar = z.output<typeof EnvVarSchema>;

/** `spec.predictor.model`: a model served by a runtime chosen by `modelFormat`. */
export const ModelSpecSchema = z.looseObject({
  modelFormat: z.looseObject({ name: z.string().min(1, 'expected a model format name'), version: z.string().optional() }),
  protocolVersion: z.enum(['v1', 'v2', 'grpc-v2'], { message: 'expected protocolVersion v1, v2 or grpc-v2' }).optional(),
  runtime: z.string().optional(),
  storageUri: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.array(EnvVarSchema).optional(),
  resources: ResourcesSchema.optional(),
});
/** A model predictor spec. */
export type ModelSpec = z.output<typeof ModelSpecSchema>;

/** `spec.predictor.containers[]` item: a custom container. */
export const ContainerSchema = z.looseObject({
  name: z.string().min(1, 'expected a container name'),
  image: z.string().min(1, 'expected a container image'),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  env: z.array(EnvVarSchema).optional(),
  resources: ResourcesSchema.optional(),
  ports: z.array(z.looseObject({ containerPort: z.number().int(), protocol: z.string().optional(), name: z.string().optional() })).optional(),
});
/** A predictor container. */
export type Container = z.output<typeof ContainerSchema>;

/** `spec.predictor`: exactly one of `model` or `containers`. */
export const PredictorSpecSchema = z
  .looseObject({
    model: ModelSpecSchema.optional(),
    containers: z.array(ContainerSchema).min(1, 'expected at least one container').optional(),
    minReplicas: z.number().int().nonnegative().optional(),
    maxReplicas: z.number().int().nonnegative().optional(),
  })
  .superRefine((p, ctx) => {
    if (!p.model && !p.containers) {
      ctx.addIssue({ code: 'custom', path: [], message: 'expected spec.predictor.model or spec.predictor.containers' });
    }
    if (p.model && p.containers) {
      ctx.addIssue({ code: 'custom', path: [], message: 'expected only one of spec.predictor.model and spec.predictor.containers' });
    }
  });
/** A predictor spec. */
export type PredictorSpec = z.output<typeof PredictorSpecSchema>;

/** A status condition (`Ready`, `PredictorReady`, …). */
export const ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
});
/** A status condition. */
export type Condition = z.output<typeof ConditionSchema>;

/** One traffic target of a component. */
export const TrafficTargetSchema = z.looseObject({
  revisionName: z.string().optional(),
  percent: z.number().int().optional(),
  tag: z.string().optional(),
  latestRevision: z.boolean().optional(),
  url: z.string().optional(),
});
/** A traffic target. */
export type TrafficTarget = z.output<typeof TrafficTargetSchema>;

/** Status of the predictor component. */
export const ComponentStatusSchema = z.looseObject({
  url: z.string().optional(),
  latestReadyRevision: z.string().optional(),
  latestCreatedRevision: z.string().optional(),
  previousRolledoutRevision: z.string().optional(),
  latestRolledoutRevision: z.string().optional(),
  traffic: z.array(TrafficTargetSchema).optional(),
});
/** A component status. */
export type ComponentStatus = z.output<typeof ComponentStatusSchema>;

/** `status` of an InferenceService. */
export const InferenceServiceStatusSchema = z.looseObject({
  url: z.string().optional(),
  address: z.looseObject({ url: z.string().optional() }).optional(),
  conditions: z.array(ConditionSchema).optional(),
  components: z.record(z.string(), ComponentStatusSchema).optional(),
  observedGeneration: z.number().int().optional(),
});
/** An InferenceService status. */
export type InferenceServiceStatus = z.output<typeof InferenceServiceStatusSchema>;

/** Object metadata (name checked against KServe's rule). */
export const ObjectMetaSchema = z.looseObject({
  name: z.string().regex(NAME_RE, NAME_MESSAGE),
  namespace: z.string().regex(NAME_RE, NAME_MESSAGE).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  creationTimestamp: z.string().optional(),
});
/** Object metadata. */
export type ObjectMeta = z.output<typeof ObjectMetaSchema>;

/** A KServe `InferenceService` (serving.kserve.io/v1beta1). */
export const InferenceServiceSchema = z.looseObject({
  apiVersion: z.string().refine((v) => v === 'serving.kserve.io/v1beta1', {
    message: 'expected apiVersion serving.kserve.io/v1beta1',
  }),
  kind: z.literal('InferenceService', { message: 'expected kind InferenceService' }),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({ predictor: PredictorSpecSchema }),
  status: InferenceServiceStatusSchema.optional(),
});
/** A validated InferenceService. */
export type InferenceService = z.output<typeof InferenceServiceSchema>;

/** A Kubernetes `Secret` (used for the hub token of gated models). */
export const SecretSchema = z.looseObject({
  apiVersion: z.literal('v1', { message: 'expected apiVersion v1' }),
  kind: z.literal('Secret', { message: 'expected kind Secret' }),
  metadata: ObjectMetaSchema,
  type: z.string().optional(),
  stringData: z.record(z.string(), z.string()).optional(),
  data: z.record(z.string(), z.string()).optional(),
});
/** A Secret. */
export type Secret = z.output<typeof SecretSchema>;
