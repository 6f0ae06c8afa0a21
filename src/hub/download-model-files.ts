import { rm } from 'node:fs/promises';
import { InferkitError } from '../errors.js';
import { createHubFetch } from './create-hub-fetch.js';
import { downloadResumable } from './download-resumable.js';
import { assertRepoPath } from './file-spec.js';
import type { RemoteFile } from './list-remote-files.js';
import { fileLockPath, fileSize, readCacheMeta, updateCacheMeta, type CacheMeta, type ModelCachePaths } from './model-cache.js';
import { mapBounded } from './map-bounded.js';
import { localPath } from './resolve-local-model.js';
import { failureToError, toHubError, type HubErrorContext } from './to-hub-error.js';
import type { ResolveModelOptions } from './types.js';
import { withFileLock } from './with-file-lock.js';

/** What to download and from where (internal to resolveModel). */
export interface DownloadPlan {
  repo: string;
  /** Revision the cache folder is named after. */
  revision: string;
  /** Revision put in download URLs: the pinned commit when known, else `revision`. */
  urlRevision: string;
  hubUrl: string;
  cache: ModelCachePaths;
  /** Files to fetch with the hub's size/oid for each. */
  files: ReadonlyMap<string, RemoteFile>;
  ctx: HubErrorContext;
}

/** True when the cached copy of `file` matches what the hub lists. */
export async function isFresh(meta: CacheMeta, dest: string, file: string, want: RemoteFile): Promise<boolean> {
  const rec = meta.files[file];
  return rec !== undefined && rec.size === want.size && rec.oid === want.oid && (await fileSize(dest)) === want.size;
}

/**
 * Downloads the plan's files, at most `concurrency` at once, each under its cache lock: a file that
 * another call or process finished meanwhile is a cache hit, not a second download. The first
 * failure stops the rest (their partial files stay resumable) and is thrown, naming its file.
 * Returns how many files were actually downloaded.
 */
export async function downloadModelFiles(plan: DownloadPlan, o: ResolveModelOptions): Promise<number> {
  const concurrency = o.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InferkitError('invalid_request', `concurrency must be a positive integer, got ${String(concurrency)}`, { param: 'concurrency' });
  }
  const lock = { timeoutMs: o.lockTimeoutMs };
  const entries = [...plan.files.entries()];
  const done = await mapBounded(
    entries,
    concurrency,
    async ([file, want], signal) => {
      assertRepoPath(file);
      const fileCtx = { ...plan.ctx, file };
      const hubFetch = createHubFetch({ hubUrl: plan.hubUrl, accessToken: plan.ctx.token, signal, fetch: o.fetch });
      try {
        return await withLockedFile(plan, file, want, hubFetch, fileCtx, o, { ...lock, signal });
      } catch (err) {
        throw toHubError(err, fileCtx, o.signal);
      }
    },
    o.signal,
  );
  return done.filter(Boolean).length;
}

async function withLockedFile(
  plan: DownloadPlan,
  file: string,
  want: RemoteFile,
  hubFetch: typeof fetch,
  ctx: HubErrorContext,
  o: ResolveModelOptions,
  lock: { timeoutMs?: number; signal: AbortSignal },
): Promise<boolean> {
  return withFileLock(
    fileLockPath(plan.cache, file),
    async () => {
      const dest = localPath(plan.cache.dir, file);
      const meta = await readCacheMeta(plan.cache.metaFile, plan.repo, plan.revision);
      if (await isFresh(meta, dest, file, want)) {
        o.onProgress?.({ type: 'cache-hit', file, bytes: want.size, total: want.size });
        return false;
      }
      if (meta.files[file] !== undefined) {
        await rm(`${dest}.incomplete`, { force: true });
      }
      const path = file.split('/').map(encodeURIComponent).join('/');
      const { commit } = await downloadResumable({
        url: `${plan.hubUrl}/${plan.repo}/resolve/${encodeURIComponent(plan.urlRevision)}/${path}`,
        dest,
        file,
        expectedSize: want.size,
        sha256: o.verifySha256 === false ? undefined : want.sha256,
        fetch: hubFetch,
        retries: o.retries ?? 3,
        onProgress: o.onProgress,
        onHttpError: (res) => httpFailure(res, ctx),
      });
      await updateCacheMeta(plan.cache, plan.repo, plan.revision, (m) => {
        m.files[file] = { size: want.size, oid: want.oid };
        m.commit = commit ?? m.commit;
      }, lock);
      return true;
    },
    lock,
  );
}

async function httpFailure(res: Response, ctx: HubErrorContext): Promise<InferkitError> {
  let message = res.headers.get('x-error-message') ?? '';
  try {
    const body: unknown = await res.json();
    const err = (body as { error?: unknown } | null)?.error;
    if (typeof err === 'string') {
      message = err;
    }
  } catch {
    // not JSON: keep the header message
  }
  return failureToError({ status: res.status, errorCode: res.headers.get('x-error-code') ?? undefined, message }, ctx);
}
