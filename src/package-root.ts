import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Folder of the inferkit package as Node resolves `inferkit` from `from`: `node_modules/inferkit` in a
 * consumer's folder, the repository itself inside it (package self-reference). Undefined when `from`
 * cannot see inferkit. No `import.meta`: this module also runs compiled to CommonJS under tslab.
 */
export function inferkitPackageRoot(from: string = process.cwd()): string | undefined {
  try {
    return dirname(createRequire(join(from, 'package.json')).resolve('inferkit/package.json'));
  } catch {
    return undefined;
  }
}
