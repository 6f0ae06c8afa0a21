/** Kubernetes `Status` error bodies as the API server writes them (the stand-in's only error shape). */

/** One `details.causes[]` entry: which field, why. */
export interface StatusCause {
  reason: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueTypeInvalid';
  message: string;
  field: string;
}

/** A failed request: HTTP code plus the `Status` object the body carries. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details: { name?: string; group?: string; kind?: string; causes?: StatusCause[] } = {},
  ) {
    super(message);
  }

  /** The JSON body: `{kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, details, code}`. */
  body(): object {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, details: this.details, code: this.code };
  }
}

/** 404 NotFound, worded like the API server: `inferenceservices.serving.kserve.io "x" not found`. */
export function notFound(resource: string, group: string, name: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return new StatusError(404, 'NotFound', `${qualified} "${name}" not found`, { name, group: group || undefined, kind: resource });
}

/** 409 AlreadyExists. */
export function alreadyExists(resource: string, group: string, name: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return new StatusError(409, 'AlreadyExists', `${qualified} "${name}" already exists`, { name, group: group || undefined, kind: resource });
}

/** 409 Conflict on a stale `resourceVersion`. */
export function conflict(resource: string, group: string, name: string): StatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: group || undefined, kind: resource },
  );
}

/** 422 Invalid with field causes: `InferenceService.serving.kserve.io "x" is invalid: spec.a: Invalid value: …`. */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): StatusError {
  const qualified = group ? `${kind}.${group}` : kind;
  const text = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return new StatusError(422, 'Invalid', `${qualified} "${name}" is invalid: ${text}`, { name, group: group || undefined, kind, causes });
}
