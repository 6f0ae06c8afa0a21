import { formatPath } from '../contract/parse.js';
import type { ValidationIssue } from '../errors.js';
import { isInlineSecretEnv } from './secret-env.js';

type Path = ReadonlyArray<string | number>;


/**
 * Finds credentials written in clear into a container's `env[].value` anywhere in a document (the
 * `model` form, `containers[]`, init containers…), e.g. `{ name: HF_TOKEN, value: hf_… }`. Each issue
 * names the path of the value and the env var, never the value itself, and points to the Secret form.
 * A `$(VAR)` reference is not a credential and is not reported. Which names hold credentials:
 * `isSecretEnvName` (secret-env.ts), the rule masking uses too.
 */
export function findInlineSecrets(doc: unknown, path: ReadonlyArray<string | number> = []): ValidationIssue[] {
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
  if (!isInlineSecretEnv(entry)) {
    return;
  }
  const { name } = entry as { name: string };
  out.push({
    path: formatPath([...path, 'value']),
    message:
      `env ${name} holds a credential in clear text (value not shown); keep it in a Secret and reference it with ` +
      `valueFrom.secretKeyRef { name, key }: inferenceService({ hubToken }) / containerService({ hubToken }) or ` +
      '`inferkit manifest --hub-token-env VAR` write the Secret and the reference',
  });
}
