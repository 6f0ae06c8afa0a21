import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { pidSpace } from '../../hub/with-file-lock.js';

/** The copies the model cache keeps of a graph: its external-data copy, and its packed copy (./packed-graph.ts). */
export type CopyKind = 'external' | 'packed';

/**
 * Removes the `kind` copies in `graphsDir` (`<cacheDir>/graphs/`, folders `<kind>-<16 hex>`) made from the graph file
 * `source` (absolute path, as their `complete.json` records it) before it changed, keeping `keep` (the copy of its
 * current bytes); with `same`, only copies whose record has those fields equal (a packed copy made by another ONNX
 * Runtime or on another CPU sharing the cache is not stale). Copies of either kind whose source file is gone go too: a
 * copy is found only through its source's path, size and mtime, so nothing finds it again (a model loaded from a
 * temporary folder, a deleted repo, an external-data copy or built graph the cache replaced), and were the same file
 * back, its copy would be made again. Returns the folders removed.
 */
export function removeStaleCopies(graphsDir: string, kind: CopyKind, source: string, keep: string, same: Record<string, string> = {}): Promise<string[]> {
  return removeFinishedFolders(graphsDir, keep, (name, record) => {
    if (!COPY_NAME.test(name)) {
      return false;
    }
    const older = name.startsWith(`${kind}-`) && record.source === source && Object.entries(same).every(([k, v]) => record[k] === v);
    return older || sourceGone(record);
  });
}

/** The folder names of both kinds of copy (the kind in group 1). */
export const COPY_NAME = /^(external|packed)-[0-9a-f]{16}$/;

/**
 * Where cache folder `dir` (a copy or a built graph) is written before it is renamed into place:
 * `<dir>.incomplete-<host>+<space>-<pid>-<ms>`, naming its writer, the machine it runs on and the pid space there
 * ({@link pidSpace}; `<host>` alone where it cannot be read), by which the cache's scan tells an abandoned one
 * (model-cache/): a pid means something only in its own pid space.
 */
export function unfinishedFolder(dir: string): string {
  const space = pidSpace();
  return `${dir}.incomplete-${hostTag()}${space !== undefined ? `+${space}` : ''}-${process.pid}-${Date.now()}`;
}

/** This machine's host name as an unfinished folder's name carries it: file-name safe (never a `+`), at most 64 characters. */
export function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 64) || 'host';
}

/**
 * For the name of an {@link unfinishedFolder}: the folder it was to become, its writer's pid, the machine's
 * {@link hostTag} (absent in names written before it carried one: taken as this machine's) and the writer's
 * {@link pidSpace} (absent in names written before it carried one, or where it could not be read); else undefined.
 */
export function unfinishedOf(name: string): { of: string; pid: number; host?: string; space?: string } | undefined {
  const m = /^(.*)\.incomplete-(.+?)(?:\+([0-9a-f]+))?-(\d+)-\d+$/.exec(name);
  if (m !== null) {
    return { of: m[1] ?? '', pid: Number(m[4]), host: m[2] ?? '', ...(m[3] !== undefined ? { space: m[3] } : {}) };
  }
  const old = /^(.*)\.incomplete-(\d+)-\d+$/.exec(name);
  return old === null ? undefined : { of: old[1] ?? '', pid: Number(old[2]) };
}

/**
 * The origin fields of a cache folder's record (`complete.json` of a copy or a built graph): the `source` it was made
 * from, as an absolute path, and the machine that made it, which {@link sourceGone} reads back.
 */
export function originRecord(source: string): { source: string; host: string } {
  return { source: resolve(source), host: hostname() };
}

/**
 * Whether a cache folder's record names a source (file or folder) that no longer exists. Only for folders made on this
 * machine (`host`, as the writers record it; records from before it count as this machine's): a cache shared with
 * another machine keeps that machine's folders, whose sources may live at paths this one does not have.
 */
export function sourceGone(record: Record<string, unknown>): boolean {
  if (typeof record.host === 'string' && record.host !== hostname()) {
    return false;
  }
  return typeof record.source === 'string' && !existsSync(record.source);
}

/**
 * Removes the finished folders of `graphsDir` (those with a `complete.json`) for which `stale(name, record)` holds,
 * never `keep`. The one rule for the model cache's graph folders (copies here, built graphs in
 * `checkpoint/graph-cache.ts`): only finished folders are touched — one being written lives in an `.incomplete-…`
 * folder until renamed — and a folder that cannot be read or removed is left. Returns the folders removed.
 */
export async function removeFinishedFolders(graphsDir: string, keep: string, stale: (name: string, record: Record<string, unknown>) => boolean): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(graphsDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(graphsDir, name);
    if (dir === keep || name.includes('.incomplete-')) {
      continue;
    }
    try {
      const record = JSON.parse(await readFile(join(dir, 'complete.json'), 'utf8')) as Record<string, unknown>;
      if (stale(name, record)) {
        await rm(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } catch {
      // not a finished folder of ours, or gone already
    }
  }
  return removed;
}
