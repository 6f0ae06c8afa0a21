import { InferkitError } from '../errors.js';

/** How a cluster command runs with `--dry-run`: `none` (really), `client` (checked here, nothing sent), `server`. */
export type DryRun = 'none' | 'client' | 'server';

/**
 * kubectl's `--dry-run` spellings: `--dry-run=client`, `--dry-run=server`, `--dry-run=none`, and a bare
 * `--dry-run` (kubectl's old form, meaning client). Throws an InferkitError `invalid_request` for another mode.
 */
export function parseDryRun(value: string | boolean | undefined): DryRun {
  if (value === undefined || value === false) {
    return 'none';
  }
  const mode = value === true ? 'client' : value;
  if (mode !== 'none' && mode !== 'client' && mode !== 'server') {
    throw new InferkitError('invalid_request', `--dry-run: expected client, server or none, got "${mode}"`, { param: 'dry-run' });
  }
  return mode;
}

/** Type names kubectl accepts for an InferenceService (`isvc`, `inferenceservice.serving.kserve.io`, …). */
const ISVC_TYPES = new Set(['isvc', 'inferenceservice', 'inferenceservices', 'inferenceservice.serving.kserve.io', 'inferenceservices.serving.kserve.io']);

/**
 * The InferenceService name of kubectl-style arguments: `NAME`, `TYPE/NAME` or `TYPE NAME` (TYPE: isvc,
 * inferenceservice(s), with or without `.serving.kserve.io`), or a bare `TYPE` (all of them: undefined).
 * Throws an InferkitError `invalid_request` for another type or more than one name.
 */
export function isvcName(args: readonly string[], command: string): string | undefined {
  const words = [...args];
  if (words.length > 0 && ISVC_TYPES.has(words[0].toLowerCase())) {
    words.shift();
  }
  const names = words.map((w) => {
    const slash = w.indexOf('/');
    if (slash < 0) {
      return w;
    }
    const type = w.slice(0, slash).toLowerCase();
    if (!ISVC_TYPES.has(type)) {
      throw new InferkitError('invalid_request', `${command}: "${w.slice(0, slash)}" is not a resource type inferkit handles here; expected inferenceservice/NAME (or isvc/NAME); Secrets go through -f FILE`, { param: 'name' });
    }
    return w.slice(slash + 1);
  });
  if (names.length > 1) {
    throw new InferkitError('invalid_request', `${command}: one InferenceService at a time, got ${names.join(', ')}`, { param: 'name' });
  }
  if (names[0] === '') {
    throw new InferkitError('invalid_request', `${command}: no name after the type`, { param: 'name' });
  }
  return names[0];
}

/** kubectl's resource name of a kind: `secret` or `inferenceservice.serving.kserve.io`. */
export function resourceOf(kind: string): string {
  return kind === 'Secret' ? 'secret' : 'inferenceservice.serving.kserve.io';
}
