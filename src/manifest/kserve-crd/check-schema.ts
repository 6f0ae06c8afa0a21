import { formatPath } from '../../contract/parse.js';
import type { ValidationIssue } from '../../errors.js';
import { objectMetaSchema } from './core-v1-schemas.js';
import { didYouMean } from './did-you-mean.js';
import type { StructuralSchema } from './structural-schema.js';

type Path = ReadonlyArray<string | number>;

/**
 * Checks `value` against a Kubernetes structural schema the way the API server does with strict field
 * validation (`kubectl --validate=strict`), and returns every problem as `{ path, message }`. Unknown
 * fields name the closest allowed key ("did you mean …?"). Messages never quote the offending value, so
 * a misplaced secret cannot leak through them. `null` passes where the server would prune it.
 */
export function checkSchema(value: unknown, schema: StructuralSchema, path: Path = []): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  walk(value, schema, path, out);
  return out;
}

function walk(value: unknown, s: StructuralSchema, path: Path, out: ValidationIssue[]): void {
  if (value === null || value === undefined) {
    return;
  }
  const add = (message: string, at: Path = path): void => {
    out.push({ path: formatPath(at), message });
  };
  if (s['x-kubernetes-int-or-string']) {
    if (!Number.isInteger(value) && typeof value !== 'string') {
      add(`expected an integer or a string, got ${kindOf(value)}`);
    } else if (typeof value === 'string') {
      checkString(value, s, add);
    }
    return;
  }
  if (s.type !== undefined && !hasType(value, s.type)) {
    add(`expected ${article(s.type)}, got ${kindOf(value)}`);
    return;
  }
  if (s.enum !== undefined && !s.enum.includes(value)) {
    add(`expected one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  for (const sub of s.allOf ?? []) {
    walk(value, sub, path, out);
  }
  if (s.anyOf !== undefined && s.anyOf.length > 0) {
    // None matched: report the branch of the value's own type with the fewest problems.
    const rank = (sub: StructuralSchema, issues: ValidationIssue[]): number =>
      (sub.type !== undefined && !hasType(value, sub.type) ? 1e6 : 0) + issues.length;
    const tries = s.anyOf.map((sub) => ({ sub, issues: checkSchema(value, sub, path) }));
    if (tries.every((t) => t.issues.length > 0)) {
      out.push(...tries.reduce((a, b) => (rank(b.sub, b.issues) < rank(a.sub, a.issues) ? b : a)).issues);
    }
  }
  if (typeof value === 'string') {
    checkString(value, s, add);
  } else if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) {
      add(`expected at least ${s.minimum}`);
    }
    if (s.maximum !== undefined && value > s.maximum) {
      add(`expected at most ${s.maximum}`);
    }
  } else if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) {
      add(`expected at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`);
    }
    if (s.maxItems !== undefined && value.length > s.maxItems) {
      add(`expected at most ${s.maxItems} items`);
    }
    if (s.items) {
      const items = s.items;
      value.forEach((v, i) => walk(v, items, [...path, i], out));
    }
  } else if (typeof value === 'object' && (s.type === 'object' || s.properties || s.additionalProperties !== undefined)) {
    // Only the node that declares the object judges its fields; anyOf/allOf branches add their own.
    checkObject(value as Record<string, unknown>, s, path, out);
  }
}

function checkObject(obj: Record<string, unknown>, s: StructuralSchema, path: Path, out: ValidationIssue[]): void {
  for (const key of s.required ?? []) {
    if (obj[key] === undefined || obj[key] === null) {
      out.push({ path: formatPath([...path, key]), message: 'required field is missing' });
    }
  }
  const props = s.properties ?? {};
  const extra = s.additionalProperties;
  for (const [key, v] of Object.entries(obj)) {
    if (Object.hasOwn(props, key)) {
      walk(v, key === 'metadata' && isBareObject(props[key]) ? objectMetaSchema : props[key], [...path, key], out);
    } else if (typeof extra === 'object') {
      walk(v, extra, [...path, key], out);
    } else if (extra !== true && !s['x-kubernetes-preserve-unknown-fields']) {
      out.push({ path: formatPath([...path, key]), message: unknownField(key, Object.keys(props)) });
    }
  }
}

// A CRD leaves embedded ObjectMeta as a bare `type: object`; the API server checks it as ObjectMeta.
function isBareObject(s: StructuralSchema): boolean {
  return s.type === 'object' && !s.properties && s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields'];
}

function unknownField(key: string, allowed: string[]): string {
  const hint = didYouMean(key, allowed);
  if (hint !== undefined) {
    return `unknown field "${key}"; did you mean "${hint}"?`;
  }
  if (allowed.length === 0) {
    return `unknown field "${key}"; no fields are allowed here`;
  }
  const list = allowed.length <= 12 ? allowed.join(', ') : `${allowed.slice(0, 12).join(', ')}, …`;
  return `unknown field "${key}"; allowed: ${list}`;
}

const patterns = new Map<string, RegExp | null>();

function checkString(value: string, s: StructuralSchema, add: (message: string) => void): void {
  if (s.minLength !== undefined && value.length < s.minLength) {
    add(`expected at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`);
  }
  if (s.maxLength !== undefined && value.length > s.maxLength) {
    add(`expected at most ${s.maxLength} characters`);
  }
  if (s.pattern !== undefined) {
    let re = patterns.get(s.pattern);
    if (re === undefined) {
      re = compile(s.pattern);
      patterns.set(s.pattern, re);
    }
    if (re && !re.test(value)) {
      add(`expected a string matching ${s.pattern}`);
    }
  }
}

// The CRD's patterns are RE2; the few RE2-only constructs a JS RegExp rejects are skipped, not guessed.
function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

function hasType(value: unknown, type: NonNullable<StructuralSchema['type']>): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) {
    return 'an array';
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? 'an integer' : 'a number';
  }
  return article(typeof value);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
