import { existsSync } from 'node:fs';
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { envCacheDir } from '../config.js';
import { InferkitError } from '../errors.js';
import { isAlive, pidSpace } from '../hub/with-file-lock.js';
import { COPY_NAME, hostTag, sourceGone, unfinishedOf } from '../runtime/shared-weights/stale-copies.js';

/** What one folder of the model cache holds. */
export type ModelCacheKind =
  /** A hub download: one repo revision (`models/<org>--<name>/<revision>/`). */
  | 'download'
  /** A graph built from a checkpoint (`graphs/<family>-<variant>-<key>/`). */
  | 'graph'
  /** A copy the sessions open: a graph's weights moved to external data, or a pool's packed weights (`graphs/external-…`, `graphs/packed-…`). */
  | 'copy'
  /** A built-in fixture model (`builtin/<name>/`). */
  | 'builtin'
  /** A graph or copy a process started writing and did not finish (`graphs/….incomplete-<host>+<pid space>-<pid>-<ms>/`). */
  | 'unfinished';

/** One folder of the model cache. */
export interface ModelCacheEntry {
  kind: ModelCacheKind;
  /** What it is: `org/name@revision`, `bert fp32`, `packed copy`, the built-in's name. */
  name: string;
  /** The folder. */
  path: string;
  /** Bytes of its files. */
  bytes: number;
  /** Last change of any of its files. */
  modified: Date;
  /** The checkpoint folder or graph file it was made from (graphs and copies). */
  source?: string;
  /**
   * Why {@link pruneModelCache} removes it, if it does: its source is gone (nothing finds it again: graphs and copies are
   * found through their source's files), or a writer left it unfinished over an hour ago and is no longer running (a writer on another machine sharing the
   * cache, named in the folder, cannot be looked up: there the hour alone decides).
   */
  removable?: 'source gone' | 'abandoned';
}

/** The model cache's folders, and their total. */
export interface ModelCacheReport {
  /** The cache folder. */
  dir: string;
  entries: ModelCacheEntry[];
  /** Bytes of every entry. */
  bytes: number;
}

/** How the list names each kind of copy (`COPY_NAME`'s group). */
const COPY_KIND_NAMES: Record<string, string> = { external: 'external-data copy', packed: 'packed copy' };

/** An unfinished folder's writer is taken for gone after this long without it running here. */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * What the model cache holds (`cacheDir`, by default the one model cache: `INFERKIT_CACHE`, else
 * `$XDG_CACHE_HOME/inferkit`, else `~/.cache/inferkit`): hub downloads, built graphs, the copies the sessions open,
 * built-in fixtures and unfinished writes, each with its size, and whether {@link pruneModelCache} would remove it.
 * A cache folder that does not exist is empty. Errors: `config` when `cacheDir` is not a folder.
 */
export async function scanModelCache(cacheDir: string = envCacheDir()): Promise<ModelCacheReport> {
  if (existsSync(cacheDir) && !(await lstat(cacheDir)).isDirectory()) {
    throw new InferkitError('config', `the model cache ${cacheDir} is not a folder`, { param: 'cacheDir' });
  }
  const entries = [...(await downloads(cacheDir)), ...(await graphs(cacheDir)), ...(await builtins(cacheDir))];
  return { dir: cacheDir, entries, bytes: entries.reduce((sum, e) => sum + e.bytes, 0) };
}

/**
 * Removes what {@link scanModelCache} marks `removable` (graphs and copies whose source is gone, abandoned unfinished
 * writes); with `dryRun`, only says what it would remove. Downloads and built-ins are never removed. Returns the
 * entries removed (or that would be). A folder that cannot be removed is left and not returned.
 */
export async function pruneModelCache(cacheDir: string = envCacheDir(), options: { dryRun?: boolean } = {}): Promise<ModelCacheEntry[]> {
  const { entries } = await scanModelCache(cacheDir);
  const removed: ModelCacheEntry[] = [];
  for (const entry of entries.filter((e) => e.removable !== undefined)) {
    if (options.dryRun !== true) {
      try {
        await rm(entry.path, { recursive: true, force: true });
      } catch {
        continue;
      }
    }
    removed.push(entry);
  }
  return removed;
}

async function downloads(cacheDir: string): Promise<ModelCacheEntry[]> {
  const out: ModelCacheEntry[] = [];
  for (const repo of await folders(join(cacheDir, 'models'))) {
    for (const rev of await folders(join(cacheDir, 'models', repo))) {
      if (rev.startsWith('.')) {
        continue; // .meta, .locks
      }
      const path = join(cacheDir, 'models', repo, rev);
      out.push({ kind: 'download', name: `${repo.replace('--', '/')}@${decodeURIComponent(rev)}`, path, ...(await usage(path)) });
    }
  }
  return out;
}

async function graphs(cacheDir: string): Promise<ModelCacheEntry[]> {
  const out: ModelCacheEntry[] = [];
  for (const name of await folders(join(cacheDir, 'graphs'))) {
    const path = join(cacheDir, 'graphs', name);
    const size = await usage(path);
    const unfinished = unfinishedOf(name);
    if (unfinished !== undefined) {
      // Another machine's writer (a cache shared between machines), or one in another pid space of this host name (a
      // container restarted under its name, a reboot), cannot be looked up here: its age alone decides.
      const elsewhere = (unfinished.host !== undefined && unfinished.host !== hostTag()) || (unfinished.space !== undefined && unfinished.space !== pidSpace());
      const abandoned = Date.now() - size.modified.getTime() > ABANDONED_MS && (elsewhere || !isAlive(unfinished.pid));
      out.push({ kind: 'unfinished', name: unfinished.of, path, ...size, ...(abandoned ? { removable: 'abandoned' as const } : {}) });
      continue;
    }
    let record: Record<string, unknown> | undefined;
    try {
      record = JSON.parse(await readFile(join(path, 'complete.json'), 'utf8')) as Record<string, unknown>;
    } catch {
      record = undefined; // not a finished folder of ours: listed, never removed
    }
    const source = typeof record?.source === 'string' ? record.source : undefined;
    const built = typeof record?.builderVersion === 'number';
    const copy = built ? undefined : COPY_NAME.exec(name)?.[1];
    const kind = copy !== undefined ? 'copy' : 'graph';
    const what = built ? `${String(record?.family)} ${String(record?.variant)}` : copy !== undefined ? COPY_KIND_NAMES[copy] : name;
    out.push({ kind, name: what, path, ...size, ...(source !== undefined ? { source } : {}), ...(record !== undefined && sourceGone(record) ? { removable: 'source gone' as const } : {}) });
  }
  return out;
}

async function builtins(cacheDir: string): Promise<ModelCacheEntry[]> {
  const out: ModelCacheEntry[] = [];
  for (const name of await folders(join(cacheDir, 'builtin'))) {
    const path = join(cacheDir, 'builtin', name);
    out.push({ kind: 'builtin', name, path, ...(await usage(path)) });
  }
  return out;
}

/** The sub-folders of `dir` (none when it is missing or unreadable), sorted. */
async function folders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** Bytes and last change of the files under `dir` (links not followed; bounded depth). */
async function usage(dir: string, depth = 0): Promise<{ bytes: number; modified: Date }> {
  let bytes = 0;
  let modified = 0;
  let names: string[] = [];
  try {
    const st = await lstat(dir);
    modified = st.mtimeMs;
    names = await readdir(dir);
  } catch {
    return { bytes: 0, modified: new Date(modified) };
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      const st = await lstat(path);
      if (st.isDirectory() && depth < 16) {
        const sub = await usage(path, depth + 1);
        bytes += sub.bytes;
        modified = Math.max(modified, sub.modified.getTime());
      } else if (st.isFile()) {
        bytes += st.size;
        modified = Math.max(modified, st.mtimeMs);
      }
    } catch {
      // removed meanwhile
    }
  }
  return { bytes, modified: new Date(modified) };
}
