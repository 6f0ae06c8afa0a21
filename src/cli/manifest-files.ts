import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InferkitError } from '../errors.js';

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/**
 * The manifest files that command-line paths name, as `kubectl apply -f` reads them: a file as it is, a
 * folder as its `*.yaml`, `*.yml` and `*.json` files and links to files (sorted by name, not recursive). Throws
 * `invalid_request` naming a path that cannot be read (`ENOENT`…) or a folder without such files.
 */
export async function manifestFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = (await stat(path)).isDirectory();
    } catch (cause) {
      throw unreadable(path, cause);
    }
    if (!isFolder) {
      out.push(path);
      continue;
    }
    const names: string[] = [];
    for (const e of await readdir(path, { withFileTypes: true })) {
      // A link counts when it leads to a file (a mounted ConfigMap's entries are links), as with kubectl.
      const file = e.isFile() || (e.isSymbolicLink() && (await stat(join(path, e.name)).then((s) => s.isFile(), () => false)));
      if (file && MANIFEST_FILE.test(e.name)) {
        names.push(e.name);
      }
    }
    names.sort();
    if (names.length === 0) {
      throw new InferkitError('invalid_request', `${path}: a folder without manifest files (*.yaml, *.yml or *.json)`);
    }
    out.push(...names.map((n) => join(path, n)));
  }
  return out;
}

/** The text of one manifest file; one that cannot be read throws `invalid_request` "cannot read FILE (ENOENT)". */
export async function readManifestFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw unreadable(file, cause);
  }
}

function unreadable(path: string, cause: unknown): InferkitError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return new InferkitError('invalid_request', `cannot read ${path} (${typeof code === 'string' ? code : String(cause)})`, { cause });
}
