import { formatPath } from '../contract/parse.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { findInlineSecrets } from './find-inline-secrets.js';
import { checkSchema } from './kserve-crd/check-schema.js';
import { secretSchema } from './kserve-crd/core-v1-schemas.js';
import type { StructuralSchema } from './kserve-crd/structural-schema.js';
import { parseYamlDocuments, validateDocument, type ManifestDocument } from './manifest-yaml.js';
import { runtimeConfig } from './runtime-config.js';
import { serveChecks, type ServeFinding } from './serve-checks.js';

/** Options of {@link validateManifest}. */
export interface ValidateManifestOptions {
  /** Report credentials in `env[].value` as warnings instead of errors. @default false */
  allowInlineSecrets?: boolean;
}

/** What {@link validateManifest} found. The manifest is valid when `errors` is empty. */
export interface ManifestValidation {
  /** The documents that passed every check (InferenceServices and Secrets), in file order. */
  documents: ManifestDocument[];
  /** How many non-empty documents the text holds. */
  count: number;
  /** Every problem, as `documents[i].path: message`, in document order. */
  errors: ValidationIssue[];
  /** Problems a cluster would accept but that should be fixed (inline credentials when allowed). */
  warnings: ValidationIssue[];
}

/**
 * Checks multi-document manifest YAML as `kubectl apply --validate=strict` and KServe would: the YAML
 * syntax, inferkit's contract (kind, name rule, protocolVersion, quantities) and runtime args, what
 * `inferkit serve` would refuse or warn about from the manifest alone (`serveChecks`: a `--task` neither
 * server knows, inferkit's args a model would not use, bad `serving.inferkit.dev/*` annotations; args
 * it ignores and tasks only one server takes are warnings), then
 * KServe's InferenceService CRD schema (core/v1 for Secrets), where unknown fields are errors with a
 * "did you mean" hint, and finally credentials written in clear into `env[].value`. Loads the CRD
 * schema on first use. Never quotes a value in a message. Unlike {@link fromYaml} it does not throw on
 * invalid input: see `errors`.
 */
export async function validateManifest(text: string, options: ValidateManifestOptions = {}): Promise<ManifestValidation> {
  const isvcSchema = await loadInferenceServiceSchema();
  const result: ManifestValidation = { documents: [], count: 0, errors: [], warnings: [] };
  for (const entry of parseYamlDocuments(text)) {
    result.count += 1;
    if ('issues' in entry) {
      result.errors.push(...entry.issues);
      continue;
    }
    const { value, index } = entry;
    const contract = validateDocument(value, index);
    const runtime = 'issues' in contract ? { errors: [...contract.issues], warnings: [] } : runtimeIssues(contract.doc, index);
    const issues = runtime.errors;
    result.warnings.push(...runtime.warnings);
    const kind = (value as { kind?: unknown }).kind;
    const schema = kind === 'InferenceService' ? isvcSchema : kind === 'Secret' ? secretSchema : undefined;
    if (schema && typeof value === 'object') {
      const seen = new Set(issues.map((i) => i.path));
      issues.push(...checkSchema(value, schema, ['documents', index]).filter((i) => !seen.has(i.path)));
    }
    const secrets = findInlineSecrets(value, ['documents', index]);
    (options.allowInlineSecrets ? result.warnings : issues).push(...secrets);
    result.errors.push(...issues);
    if (issues.length === 0 && 'doc' in contract) {
      result.documents.push(contract.doc);
    }
  }
  return result;
}

/**
 * Like {@link validateManifest} but returns the documents, throwing one ValidationError (context
 * `manifest`) that lists every error. Warnings are not errors.
 */
export async function parseManifest(text: string, options: ValidateManifestOptions = {}): Promise<ManifestDocument[]> {
  const r = await validateManifest(text, options);
  if (r.errors.length > 0) {
    throw new ValidationError(r.errors, { context: 'manifest' });
  }
  return r.documents;
}

function runtimeIssues(doc: ManifestDocument, index: number): { errors: ValidationIssue[]; warnings: ValidationIssue[] } {
  if (doc.kind !== 'InferenceService') {
    return { errors: [], warnings: [] };
  }
  const at = formatPath(['documents', index]);
  try {
    const config = runtimeConfig(doc);
    const argsPath = `${at}.spec.predictor.${config.form === 'model' ? 'model' : 'containers[0]'}.args`;
    const { errors, warnings } = serveChecks(doc, config);
    const issue = (f: ServeFinding): ValidationIssue => ({ path: f.at === 'args' ? argsPath : formatPath(['documents', index, 'metadata', 'annotations', f.at]), message: f.message });
    return { errors: errors.map(issue), warnings: warnings.map(issue) };
  } catch (e) {
    if (!(e instanceof ValidationError)) {
      throw e;
    }
    return { errors: e.issues.map((i) => ({ path: `${at}.${i.path}`, message: i.message })), warnings: [] };
  }
}

let cached: Promise<StructuralSchema> | undefined;

// The schema is half a megabyte of JSON: imported on first use so that other commands never parse it.
function loadInferenceServiceSchema(): Promise<StructuralSchema> {
  cached ??= import('./kserve-crd/inference-service-schema.js').then((m) => m.inferenceServiceSchema);
  return cached;
}
