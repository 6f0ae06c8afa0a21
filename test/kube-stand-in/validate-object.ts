import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { loadInferenceServiceJsonSchema } from '../fixtures/crd-schema.js';
import type { StatusCause } from './status.js';

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
let compiled: ValidateFunction | undefined;

function crdValidator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(loadInferenceServiceJsonSchema());
  return compiled;
}

/** `/spec/predictor/model` + `protocolVersoin` → `spec.predictor.model.protocolVersoin`. */
function fieldOf(e: ErrorObject): string {
  const base = e.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
  const extra = (e.params as { additionalProperty?: string; missingProperty?: string }).additionalProperty ?? (e.params as { missingProperty?: string }).missingProperty;
  return extra === undefined ? base : base === '' ? extra : `${base}.${extra}`;
}

function causeOf(e: ErrorObject, obj: unknown): StatusCause {
  const field = fieldOf(e);
  if (e.keyword === 'additionalProperties') {
    return { reason: 'FieldValueInvalid', field, message: `Invalid value: field not declared in schema` };
  }
  if (e.keyword === 'required') {
    return { reason: 'FieldValueRequired', field, message: 'Required value' };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return { reason: 'FieldValueNotSupported', field, message: `Unsupported value: ${JSON.stringify(valueAt(obj, e.instancePath))}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}` };
  }
  if (e.keyword === 'type') {
    return { reason: 'FieldValueTypeInvalid', field, message: `Invalid value: ${JSON.stringify(valueAt(obj, e.instancePath))}: ${e.message ?? 'wrong type'}` };
  }
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${e.message ?? 'invalid'}` };
}

function valueAt(obj: unknown, pointer: string): unknown {
  let cur = obj;
  for (const p of pointer.split('/').filter(Boolean)) {
    cur = typeof cur === 'object' && cur !== null ? (cur as Record<string, unknown>)[p] : undefined;
  }
  return cur;
}

function metadataCauses(obj: Record<string, unknown>): StatusCause[] {
  const meta = (obj.metadata ?? {}) as { name?: unknown };
  if (typeof meta.name !== 'string' || meta.name === '') {
    return [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }];
  }
  if (!NAME_RE.test(meta.name) || meta.name.length > 253) {
    return [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${meta.name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'` }];
  }
  return [];
}

/**
 * What the API server would reject in an InferenceService: the metadata name rule, then the CRD's
 * `openAPIV3Schema` applied strictly (unknown fields included, as with `fieldValidation=Strict`).
 */
export function inferenceServiceCauses(obj: Record<string, unknown>): StatusCause[] {
  const meta = metadataCauses(obj);
  if (meta.length > 0) {
    return meta;
  }
  const validate = crdValidator();
  if (validate(obj)) {
    return [];
  }
  const seen = new Set<string>();
  return (validate.errors ?? []).map((e) => causeOf(e, obj)).filter((c) => {
    const key = `${c.field}|${c.reason}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** What the API server would reject in a Secret: the name, unknown top-level fields, non-base64 `data`. */
export function secretCauses(obj: Record<string, unknown>): StatusCause[] {
  const meta = metadataCauses(obj);
  const known = new Set(['apiVersion', 'kind', 'metadata', 'type', 'immutable', 'data', 'stringData']);
  const unknown = Object.keys(obj).filter((k) => !known.has(k)).map((k): StatusCause => ({ reason: 'FieldValueInvalid', field: k, message: `Invalid value: field not declared in schema` }));
  const data = (obj.data ?? {}) as Record<string, unknown>;
  const bad = Object.entries(data)
    .filter(([, v]) => typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v))
    .map(([k]): StatusCause => ({ reason: 'FieldValueInvalid', field: `data[${k}]`, message: 'Invalid value: illegal base64 data' }));
  return [...meta, ...unknown, ...bad];
}
