import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** A finished copy's folder name (`external-<16 hex>`); copies being written are `….incomplete-<pid>-<ms>`. */
const COPY_NAME = /^external-[0-9a-f]{16}$/;

/**
 * Removes the external-data copies in `graphsDir` (`<cacheDir>/graphs/`) that were made from the graph file
 * `source` (absolute path, as their `complete.json` records it) before it changed, keeping `keep` (the copy of
 * its current bytes). Only finished folders are touched — a copy being written lives in an `.incomplete-…`
 * folder until renamed — and a folder that cannot be read or removed is left. Returns the folders removed.
 */
export async function removeStaleExternalCopies(graphsDir: string, source: string, keep: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(graphsDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(graphsDir, name);
    if (!COPY_NAME.test(name) || dir === keep) {
      continue;
    }
    try {
      const record = JSON.parse(await readFile(join(dir, 'complete.json'), 'utf8')) as { source?: unknown };
      if (record.source === source) {
        await rm(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } catch {
      // not a finished copy of ours, or gone already
    }
  }
  return removed;
}
