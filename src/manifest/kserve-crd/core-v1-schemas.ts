import type { StructuralSchema } from './structural-schema.js';

const str: StructuralSchema = { type: 'string' };
const stringMap: StructuralSchema = { type: 'object', additionalProperties: str };
const loose: StructuralSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/**
 * Kubernetes `ObjectMeta` (meta/v1), which a CRD's schema leaves as a bare `type: object` because the
 * API server validates it itself. Field names as in the Kubernetes API reference.
 */
export const objectMetaSchema: StructuralSchema = {
  type: 'object',
  properties: {
    name: str, generateName: str, namespace: str, uid: str, resourceVersion: str, selfLink: str,
    generation: { type: 'integer' }, creationTimestamp: str, deletionTimestamp: str,
    deletionGracePeriodSeconds: { type: 'integer' },
    labels: stringMap, annotations: stringMap,
    finalizers: { type: 'array', items: str },
    ownerReferences: { type: 'array', items: loose },
    managedFields: { type: 'array', items: loose },
  },
};

/** A core/v1 `Secret`, as the API server checks its fields. */
export const secretSchema: StructuralSchema = {
  type: 'object',
  required: ['apiVersion', 'kind'],
  properties: {
    apiVersion: str, kind: str, metadata: objectMetaSchema, type: str, immutable: { type: 'boolean' },
    data: stringMap, stringData: stringMap,
  },
};
