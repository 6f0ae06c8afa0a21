import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The inferkit package folder of the running CLI: two levels above this file, both as
 * `src/cli/package-info.ts` (tsx) and as the compiled `dist/cli/package-info.js`. CLI only (uses
 * `import.meta`, which notebooks cannot import).
 */
export const CLI_PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `version` of inferkit's package.json, for `inferkit --version`. */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
