import { isAbsolute, resolve } from 'node:path';
import { InferkitError } from '../errors.js';

/** A parsed model reference: a local folder, or a hub repo with an optional revision. */
export type ModelRef = { kind: 'local'; path: string } | { kind: 'hub'; repo: string; revision: string | undefined };

// Hub ids: `name` or `owner/name`, letters, digits, `-`, `_`, `.`; no `--` or `..` (the hub forbids them).
const REPO_ID = /^(?:[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

/**
 * Parses `org/name`, `org/name@revision`, `hf://org/name[@revision]`, or a local folder
 * (absolute, or starting with `.` or `/`; returned absolute, resolved against `process.cwd()`).
 * The revision after `@` is a branch, tag or commit; `refs/pr/1` style revisions are allowed.
 */
export function parseModelRef(ref: string): ModelRef {
  const text = ref.trim();
  if (text.length === 0) {
    throw new InferkitError('invalid_request', 'Empty model reference: give a hub id like "org/name" or a folder path');
  }
  if (text.startsWith('.') || isAbsolute(text)) {
    return { kind: 'local', path: resolve(text) };
  }
  const body = text.startsWith('hf://') ? text.slice('hf://'.length) : text;
  if (/^(datasets|spaces|buckets)\//.test(body)) {
    throw new InferkitError('unsupported', `Only model repos can be resolved, got ${JSON.stringify(ref)}`);
  }
  const at = body.indexOf('@');
  const repo = (at === -1 ? body : body.slice(0, at)).replace(/^models\//, '');
  const revision = at === -1 ? undefined : body.slice(at + 1);
  if (!REPO_ID.test(repo) || repo.includes('--') || repo.includes('..')) {
    throw new InferkitError(
      'invalid_request',
      `Invalid model reference ${JSON.stringify(ref)}: expected "org/name", "hf://org/name@revision" or a folder path starting with "." or "/"`,
    );
  }
  if (revision !== undefined && (revision.length === 0 || revision.split('/').some((s) => s === '' || s === '..'))) {
    throw new InferkitError('invalid_request', `Invalid revision in model reference ${JSON.stringify(ref)}`);
  }
  return { kind: 'hub', repo, revision };
}
