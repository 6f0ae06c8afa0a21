import { formatPath } from '../contract/parse.js';
import type { ValidationIssue } from '../errors.js';

type Path = ReadonlyArray<string | number>;

/** Env var names that hold a credential: the hub token names and `*_TOKEN`, `*_KEY`, `*_SECRET`, `*_PASSWORD`. */
export const SECRET_ENV_NAME = /^(HF_TOKEN|HUGGING_FACE_HUB_TOKEN|TOKEN|PASSWORD)$|_(TOKEN|KEY|SECRET|PASSWORD)$/i;

/**
 * Finds credentials written in clear into a container's `env[].value` anywhere in a document (the
 * `model` form, `containers[]`, init containers…), e.g. `{ name: HF_TOKEN, value: hf_… }`. Each issue
 * names the path of the value and the env var, never the value itself, and points to the Secret form.
 * A `$(VAR)` reference is not a credential and is not reported.
 */
export function findInlineSecrets(doc: unknown, path: Path = []): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  visit(doc, path, out);
  return out;
}

function visit(node: unknown, path: Path, out: ValidationIssue[]): void {
  if (Array.isArray(node)) {
    node.forEach((v, i) => visit(v, [...path, i], out));
    return;
  }
  if (typeof node !== 'object' || node === null) {
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'env' && Array.isArray(value)) {
      value.forEach((entry, i) => check(entry, [...path, key, i], out));
    } else {
      visit(value, [...path, key], out);
    }
  }
}

function check(entry: unknown, path: Path, out: ValidationIssue[]): void {
  if (typeof entry !== 'object' || entry === null) {
    return;
  }
  const { name, value } = entry as { name?: unknown; value?: unknown };
  if (typeof name !== 'string' || !SECRET_ENV_NAME.test(name) || typeof value !== 'string') {
    return;
  }
  if (value.trim().length === 0 || /^\$\([A-Za-z_][\w.-]*\)$/.test(value.trim())) {
    return;
  }
  out.push({
    path: formatPath([...path, 'value']),
    message:
      `env ${name} holds a credential in clear text (value not shown); keep it in a Secret and reference it with ` +
      `valueFrom.secretKeyRef { name, key }: inferenceService({ hubToken }) / containerService({ hubToken }) or ` +
      '`inferkit manifest --hub-token-env VAR` write the Secret and the reference',
  });
}
