import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { withFileLock, type FileLockOptions } from './with-file-lock.js';

/**
 * Cache layout (one folder per repo and revision, files in repo layout):
 *
 *   <cacheDir>/models/<org>--<name>/<revision>/<path>          the files
 *   <cacheDir>/models/<org>--<name>/<revision>/<path>.incomplete  a partial download
 *   <cacheDir>/models/<org>--<name>/.meta/<revision>.json      size/oid per file, commit
 *   <cacheDir>/models/<org>--<name>/.locks/<revision>/<path>.lock   held while <path> downloads
 *   <cacheDir>/models/<org>--<name>/.locks/<revision>.meta.lock     held while the record is updated
 *
 * `<revision>` is URL-encoded (`refs/pr/1` → `refs%2Fpr%2F1`).
 */
export interface ModelCachePaths {
  /** Folder of the revision's files. */
  dir: string;
  /** JSON record of what was downloaded. */
  metaFile: string;
  /** Folder of the per-file lock files of the revision. */
  locksDir: string;
}

/** Where a repo revision lives in the cache. */
export function modelCachePaths(cacheDir: string, repo: string, revision: string): ModelCachePaths {
  const repoFolder = join(cacheDir, 'models', repo.split('/').join('--'));
  const rev = encodeURIComponent(revision);
  return {
    dir: join(repoFolder, rev),
    metaFile: join(repoFolder, '.meta', `${rev}.json`),
    locksDir: join(repoFolder, '.locks', rev),
  };
}

/** Lock file guarding the download of one repo path. */
export function fileLockPath(cache: ModelCachePaths, repoPath: string): string {
  return `${join(cache.locksDir, ...repoPath.split('/'))}.lock`;
}

/** Schema of the per-revision cache record. */
export const CacheMetaSchema = z.object({
  repo: z.string(),
  revision: z.string(),
  commit: z.string().optional(),
  files: z.record(z.string(), z.object({ size: z.number(), oid: z.string().optional() })),
});
/** The per-revision cache record. */
export type CacheMeta = z.infer<typeof CacheMetaSchema>;

/** Reads the cache record; a missing or unreadable one counts as empty. */
export async function readCacheMeta(metaFile: string, repo: string, revision: string): Promise<CacheMeta> {
  try {
    const parsed = CacheMetaSchema.safeParse(JSON.parse(await readFile(metaFile, 'utf8')));
    if (parsed.success && parsed.data.repo === repo && parsed.data.revision === revision) {
      return parsed.data;
    }
  } catch {
    // no record yet
  }
  return { repo, revision, files: {} };
}

/** Writes the cache record atomically (temp file + rename). */
export async function writeCacheMeta(metaFile: string, meta: CacheMeta): Promise<void> {
  await mkdir(dirname(metaFile), { recursive: true });
  const tmp = `${metaFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(meta, null, 2));
  await rename(tmp, metaFile);
}

/**
 * Read-modify-write of the cache record under its lock, so concurrent downloads (threads of one
 * resolve, or other processes) never drop each other's entries. Returns the record written.
 */
export async function updateCacheMeta(
  cache: ModelCachePaths,
  repo: string,
  revision: string,
  change: (meta: CacheMeta) => void,
  lock: FileLockOptions = {},
): Promise<CacheMeta> {
  return withFileLock(`${cache.locksDir}.meta.lock`, async () => {
    const meta = await readCacheMeta(cache.metaFile, repo, revision);
    change(meta);
    await writeCacheMeta(cache.metaFile, meta);
    return meta;
  }, lock);
}

/** Size of a regular file, or undefined when absent. */
export async function fileSize(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

/** Every regular file under `dir` as repo paths (`/`-separated), skipping `.incomplete` files. Bounded depth. */
export async function listLocalFiles(dir: string, maxDepth = 16): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > maxDepth) {
      return;
    }
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        await walk(full, depth + 1);
      }
      else if (e.isFile() && !e.name.endsWith('.incomplete')) {
        out.push(relative(dir, full).split(sep).join('/'));
      }
    }
  };
  await walk(dir, 0);
  return out.sort();
}
