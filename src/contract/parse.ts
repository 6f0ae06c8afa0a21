import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../errors.js';

/**
 * Formats a zod issue path as the wire path users see: `inputs[2].series[5]`. Keys that are not plain
 * identifiers are quoted so the path stays unambiguous: `limits["nvidia.com/gpu"]`, `quantiles["0.5"][1]`.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') {
      out += `[${p}]`;
    } else if (!/^[A-Za-z_$][\w$-]*$/.test(String(p))) {
      out += `[${JSON.stringify(String(p))}]`;
    } else {
      out += out.length === 0 ? String(p) : `.${String(p)}`;
    }
  }
  return out;
}

/** Turns zod issues into inferkit's `{ path, message }` list, one entry per problem. */
export function toValidationIssues(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): ValidationIssue[] {
  return error.issues.map((i) => ({ path: formatPath([...prefix, ...i.path]), message: i.message }));
}

/**
 * Parses `value` with `schema`, returning the typed value or throwing a ValidationError that
 * lists every problem with its path. `context` names what was parsed (e.g. "forecast request").
 */
export function parseContract<S extends z.ZodType>(schema: S, value: unknown, context?: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) {
    return r.data;
  }
  throw new ValidationError(toValidationIssues(r.error), { context });
}
