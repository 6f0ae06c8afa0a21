/**
 * The subset of a Kubernetes structural schema (a CRD's `openAPIV3Schema`) that inferkit enforces, as
 * the API server does: types, `properties`/`additionalProperties`, `items`, `required`, `enum`,
 * `anyOf`/`allOf`, string and number bounds, `nullable`, `x-kubernetes-int-or-string` and
 * `x-kubernetes-preserve-unknown-fields`. Descriptions, defaults, formats and list/map markers are
 * dropped by `scripts/gen-crd-schema.ts`.
 */
export interface StructuralSchema {
  /** JSON type of the value. */
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  /** Known fields of an object. */
  properties?: Record<string, StructuralSchema>;
  /** Schema of every value of a map (or `true`: anything). */
  additionalProperties?: StructuralSchema | boolean;
  /** Schema of every item of an array. */
  items?: StructuralSchema;
  /** Fields an object must have. */
  required?: string[];
  /** The only values allowed. */
  enum?: unknown[];
  /** At least one must match. */
  anyOf?: StructuralSchema[];
  /** Every one must match. */
  allOf?: StructuralSchema[];
  /** `null` is a value (otherwise the API server prunes it). */
  nullable?: boolean;
  /** RE2 pattern a string must match. */
  pattern?: string;
  /** Bounds of a string's length. */
  minLength?: number;
  maxLength?: number;
  /** Bounds of a number. */
  minimum?: number;
  maximum?: number;
  /** Bounds of an array's length. */
  minItems?: number;
  maxItems?: number;
  /** An integer or a string (ports, quantities). */
  'x-kubernetes-int-or-string'?: boolean;
  /** Unknown fields of this object are kept, not rejected. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** Keywords a {@link StructuralSchema} keeps; the generator rejects any keyword in neither list. */
export const ENFORCED_KEYWORDS: readonly string[] = [
  'type', 'properties', 'additionalProperties', 'items', 'required', 'enum', 'anyOf', 'allOf', 'nullable',
  'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems',
  'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields',
];

/** Keywords that document or default a value but never reject one; the generator drops them. */
export const IGNORED_KEYWORDS: readonly string[] = [
  'description', 'default', 'format', 'example', 'title',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
];
