import { formatPath } from '../contract/parse.js';
import type { ValidationIssue } from '../errors.js';
import { isInlineSecretEnv, isSecretAnnotation } from './secret-env.js';
import { secretInText } from './secret-text.js';

type Path = ReadonlyArray<string | number>;

/**
 * Finds credentials written in clear into a container's `env[].value` anywhere in a document (the
 * `model` form, `containers[]`, init containers…), e.g. `{ name: HF_TOKEN, value: hf_… }`. Each issue
 * names the path of the value and the env var, never the value itself, and points to the Secret form.
 * A `$(VAR)` reference is not a credential and is not reported. Which names hold credentials:
 * `isSecretEnvName` (secret-env.ts), the rule masking uses too. Also reported, as masking masks them:
 * any string shaped like a credential wherever it stands (`hf_…`, `Bearer …`, `https://user:pw@host`;
 * secret-text.ts) and an annotation under a secret name (`example.com/hf-token`). A Secret's own
 * values are where credentials belong and are not reported.
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
  if (typeof node === 'string') {
    const what = secretInText(node);
    if (what !== undefined) {
      out.push({ path: formatPath(path), message: `holds ${what} in clear text (value not shown); ${SECRET_FORM}` });
    }
    return;
  }
  if (typeof node !== 'object' || node === null || (node as { kind?: unknown }).kind === 'Secret') {
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'env' && Array.isArray(value)) {
      value.forEach((entry, i) => check(entry, [...path, key, i], out));
    } else if (key === 'annotations' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [name, v] of Object.entries(value)) {
        if (isSecretAnnotation(name, v)) {
          out.push({ path: formatPath([...path, key, name]), message: `annotation ${name} holds a credential in clear text (value not shown); ${SECRET_FORM}` });
        } else {
          visit(v, [...path, key, name], out);
        }
      }
    } else {
      visit(value, [...path, key], out);
    }
  }
}

const SECRET_FORM = 'keep credentials in a Secret and reference them with env valueFrom.secretKeyRef { name, key }';

function check(entry: unknown, path: Path, out: ValidationIssue[]): void {
  if (!isInlineSecretEnv(entry)) {
    visit(entry, path, out);
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
