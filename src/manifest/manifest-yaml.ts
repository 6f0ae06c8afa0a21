import { LineCounter, parseAllDocuments, stringify } from 'yaml';
import {
  InferenceServiceSchema,
  SecretSchema,
  type InferenceService,
  type Secret,
} from '../contract/inference-service.js';
import { toValidationIssues } from '../contract/parse.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import type { Manifest } from './manifest.js';
import { MASKED_SECRET, maskManifestSecrets } from './secret-env.js';

/** One document of a manifest file: an InferenceService or a Secret. */
export type ManifestDocument = InferenceService | Secret;

const KEY_ORDER = ['apiVersion', 'kind', 'metadata', 'type', 'immutable', 'data', 'stringData', 'spec', 'status'];
const META_ORDER = ['name', 'namespace', 'labels', 'annotations'];

/** Options of {@link toYaml}. */
export interface ToYamlOptions {
  /**
   * `"include"` writes Secret values as they are (a file to apply); `"mask"` replaces every value of a
   * Secret's `stringData` and `data` with {@link MASKED_SECRET}, and every credential in clear elsewhere
   * (`maskManifestSecrets`: secret env names, `hf_…`/`Bearer …` shapes, URI userinfo, annotations) — for
   * showing a manifest in a notebook or a log, where outputs are saved and shared. @default "include"
   */
  secrets?: 'include' | 'mask';
}

/** What `toYaml(…, { secrets: 'mask' })` writes in place of a Secret value. */
export { MASKED_SECRET };

/**
 * Writes a manifest (or a list of Kubernetes objects) as multi-document YAML: Secrets first, then the
 * rest, separated by `---`, with a stable key order (apiVersion, kind, metadata, …, spec, status).
 * To show a manifest with a hub token without its value, pass `{ secrets: 'mask' }`.
 */
export function toYaml(input: Manifest | readonly object[], options: ToYamlOptions = {}): string {
  const all: object[] = Array.isArray(input) ? [...input] : manifestDocs(input as Manifest);
  const docs = options.secrets === 'mask' ? maskManifestSecrets(all) : all;
  const secretsFirst = [...docs.filter(isSecret), ...docs.filter((d) => !isSecret(d))];
  return secretsFirst
    .map((d) => stringify(ordered(d), { lineWidth: 0, aliasDuplicateObjects: false }))
    .join('---\n');
}

/**
 * Reads multi-document YAML and validates every document as an InferenceService or a Secret. Throws one
 * ValidationError listing every problem as `documents[i].path: message` (syntax errors with line and
 * column); empty documents are skipped and not counted. This is inferkit's contract only and synchronous;
 * `validateManifest` adds KServe's CRD schema (unknown fields, types) and the inline-credential check.
 */
export function fromYaml(text: string): ManifestDocument[] {
  const issues: ValidationIssue[] = [];
  const out: ManifestDocument[] = [];
  for (const entry of parseYamlDocuments(text)) {
    const result = 'issues' in entry ? entry : validateDocument(entry.value, entry.index);
    if ('issues' in result) {
      issues.push(...result.issues);
    } else {
      out.push(result.doc);
    }
  }
  if (issues.length > 0) {
    throw new ValidationError(issues, { context: 'manifest' });
  }
  return out;
}

/** One non-empty document of a YAML text: its plain value, or its syntax errors. */
export type YamlDocument = { index: number; value: unknown } | { index: number; issues: ValidationIssue[] };

/** Splits multi-document YAML into plain values (empty documents skipped, not counted); never throws. */
export function parseYamlDocuments(text: string): YamlDocument[] {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  const docs = Array.isArray(parsed) ? parsed : [];
  const out: YamlDocument[] = [];
  for (const doc of docs) {
    const index = out.length;
    if (doc.errors.length > 0) {
      out.push({
        index,
        issues: doc.errors.map((err) => {
          const { line, col } = lineCounter.linePos(err.pos[0]);
          return { path: `documents[${index}]`, message: `YAML syntax error at line ${line}, column ${col}: ${safeMessage(err.message)}` };
        }),
      });
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      // An alias bomb ("billion laughs") or an alias to nothing: one issue, not the library's stack trace.
      const why = e instanceof Error && /alias count/i.test(e.message) ? 'too many aliases (more than 100 expansions: an alias bomb?)' : safeMessage(e instanceof Error ? e.message : String(e));
      out.push({ index, issues: [{ path: `documents[${index}]`, message: `YAML cannot be read: ${why}` }] });
      continue;
    }
    if (value !== null && value !== undefined) {
      out.push({ index, value });
    }
  }
  return out;
}

/** Checks one document against inferkit's contract for its kind (InferenceService or Secret). */
export function validateDocument(value: unknown, index: number): { doc: ManifestDocument } | { issues: ValidationIssue[] } {
  const at = `documents[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { issues: [{ path: at, message: 'expected a mapping with apiVersion and kind' }] };
  }
  const kind = (value as { kind?: unknown }).kind;
  const schema = kind === 'InferenceService' ? InferenceServiceSchema : kind === 'Secret' ? SecretSchema : undefined;
  if (!schema) {
    const got = typeof kind === 'string' ? `"${kind}"` : 'none';
    return { issues: [{ path: `${at}.kind`, message: `unknown kind ${got}; expected InferenceService or Secret` }] };
  }
  const r = schema.safeParse(value);
  return r.success ? { doc: r.data } : { issues: toValidationIssues(r.error, ['documents', index]) };
}

/** Drops any quoted source fragment (`…: "text"`) so a malformed secret value never reaches a message. */
function safeMessage(message: string): string {
  const cut = message.indexOf(': ');
  return (cut >= 0 ? message.slice(0, cut) : message).split('\n')[0];
}

function manifestDocs(m: Manifest): object[] {
  return m.secret ? [m.secret, m.service] : [m.service];
}

function isSecret(d: object): boolean {
  return (d as { kind?: unknown }).kind === 'Secret';
}

function ordered(doc: object): Record<string, unknown> {
  const out = reorder(doc as Record<string, unknown>, KEY_ORDER);
  const meta = out.metadata;
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    out.metadata = reorder(meta as Record<string, unknown>, META_ORDER);
  }
  return out;
}

function reorder(obj: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const rank = (k: string): number => (order.includes(k) ? order.indexOf(k) : order.length);
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
  const sorted = keys
    .map((k, i) => ({ k, i }))
    .sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i)
    .map((e) => e.k);
  return Object.fromEntries(sorted.map((k) => [k, obj[k]]));
}
