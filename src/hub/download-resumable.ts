import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InferkitError } from '../errors.js';
import { fileSize } from './model-cache.js';
import type { HubProgressEvent } from './types.js';

/** Options of {@link downloadResumable}. */
export interface DownloadOptions {
  /** Absolute URL of the file (the hub's `resolve` URL). */
  url: string;
  /** Final path; bytes go to `<dest>.incomplete` first, renamed when complete and checked. */
  dest: string;
  /** Repo path, for progress events. */
  file: string;
  /** Size announced by the hub, checked at the end. */
  expectedSize?: number;
  /** Hex sha256 (LFS oid), checked at the end when given. */
  sha256?: string;
  /** Fetch that already carries auth and the abort signal. */
  fetch: typeof fetch;
  /** Resume attempts after a connection dropped mid-body. */
  retries: number;
  onProgress?: (e: HubProgressEvent) => void;
  /** Turns a non-2xx answer into the error to throw. */
  onHttpError: (res: Response) => Promise<unknown>;
}

/** What a finished download reported. */
export interface DownloadResult {
  /** `X-Repo-Commit` of the last answer, if sent. */
  commit: string | undefined;
}

/** The connection broke mid-body: worth resuming. */
class Dropped {
  constructor(readonly cause: unknown) {}
}

/**
 * Downloads to `<dest>.incomplete`, resuming from its size with `Range: bytes=N-` (206 expected;
 * a 200 restarts from zero), retrying up to `retries` times when the connection drops after
 * bytes arrived, then verifies size (and sha256) and renames to `dest`.
 */
export async function downloadResumable(o: DownloadOptions): Promise<DownloadResult> {
  const part = `${o.dest}.incomplete`;
  await mkdir(dirname(o.dest), { recursive: true });
  let commit: string | undefined;
  let restartedAfterBadHash = false;
  for (let attempt = 0; attempt <= o.retries + 1; attempt++) {
    let offset = (await fileSize(part)) ?? 0;
    if (o.expectedSize !== undefined && offset > o.expectedSize) {
      await rm(part, { force: true });
      offset = 0;
    }
    try {
      if (o.expectedSize === undefined || offset < o.expectedSize || offset === 0) {
        commit = (await fetchInto(o, part, offset)) ?? commit;
      }
    } catch (err) {
      if (err instanceof Dropped) {
        if (attempt < o.retries) {
          continue;
        }
        throw new InferkitError(
          'network',
          `Download of ${o.file} was interrupted after ${(await fileSize(part)) ?? 0} bytes; run again to resume it`,
          { cause: err.cause },
        );
      }
      throw err;
    }
    if (await verify(part, o)) {
      await rename(part, o.dest);
      return { commit };
    }
    await rm(part, { force: true });
    if (restartedAfterBadHash) {
      break;
    }
    restartedAfterBadHash = true;
  }
  throw new InferkitError(
    'hub_error',
    `Downloaded ${o.file} does not match the size or sha256 the hub announced; run again to retry`,
  );
}

async function verify(part: string, o: DownloadOptions): Promise<boolean> {
  const size = (await fileSize(part)) ?? 0;
  if (o.expectedSize !== undefined && size !== o.expectedSize) {
    return false;
  }
  if (o.sha256 === undefined) {
    return true;
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(part)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex') === o.sha256.toLowerCase();
}

async function fetchInto(
  o: DownloadOptions,
  part: string,
  startAt: number,
): Promise<string | undefined> {
  let offset = startAt;
  const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-` } : {};
  const res = await o.fetch(o.url, { headers });
  if (res.status === 416) {
    // Our partial file is not a prefix the server can continue: start over.
    await res.body?.cancel();
    await rm(part, { force: true });
    throw new Dropped(undefined);
  }
  if (!res.ok) {
    throw await o.onHttpError(res);
  }
  if (res.status === 206) {
    const start = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '')?.[1];
    if (Number(start) !== offset) {
      await res.body?.cancel();
      await rm(part, { force: true });
      throw new Dropped(undefined);
    }
  } else {
    offset = 0;
  }
  const length = Number(res.headers.get('content-length'));
  const total = o.expectedSize ?? (Number.isFinite(length) && length >= 0 ? offset + length : 0);
  const commit = res.headers.get('x-repo-commit') ?? undefined;
  o.onProgress?.({ type: 'file-start', file: o.file, bytes: offset, total });
  const fh = await open(part, offset > 0 ? 'a' : 'w');
  let fetched = 0;
  try {
    if (!res.body) {
      throw new Dropped(undefined);
    }
    const reader = res.body.getReader();
    let lastReport = offset;
    const step = Math.max(64 * 1024, Math.floor(total / 100));
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>; // no DOM lib types: tslab type-checks without them
      try {
        chunk = await reader.read();
      } catch (err) {
        throw fetched > 0 ? new Dropped(err) : err;
      }
      if (chunk.done) {
        break;
      }
      await fh.write(chunk.value);
      fetched += chunk.value.byteLength;
      offset += chunk.value.byteLength;
      if (offset - lastReport >= step) {
        lastReport = offset;
        o.onProgress?.({ type: 'progress', file: o.file, bytes: offset, total });
      }
    }
  } finally {
    await fh.close();
  }
  if (total > 0 && offset < total) {
    throw new Dropped(undefined);
  }
  o.onProgress?.({ type: 'file-done', file: o.file, bytes: offset, total: Math.max(total, offset) });
  return commit;
}
