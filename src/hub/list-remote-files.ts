import { listFiles, pathsInfo } from '@huggingface/hub';
import { candidatePaths, type FileSpec } from './file-spec.js';

/** A file as the hub lists it. */
export interface RemoteFile {
  size: number;
  /** LFS sha256 for LFS files, else the git blob oid; changes when the content changes. */
  oid: string | undefined;
  /** Hex sha256 of the content, known for LFS files only. */
  sha256: string | undefined;
}

/** Options of {@link listRemoteFiles}. */
export interface ListRemoteOptions {
  repo: string;
  revision: string;
  hubUrl: string;
  /** Fetch carrying auth (see createHubFetch). */
  fetch: typeof fetch;
}

const MAX_LISTED = 100_000;

/**
 * Lists the repo files a spec could want (one `POST paths-info` call), or every file of the
 * repo for `'all'` (recursive `tree` listing). Paths absent from the repo are absent from the map.
 */
export async function listRemoteFiles(spec: FileSpec | 'all', o: ListRemoteOptions): Promise<Map<string, RemoteFile>> {
  const repo = { type: 'model' as const, name: o.repo };
  const out = new Map<string, RemoteFile>();
  const add = (e: { type: string; path: string; size: number; oid?: string; lfs?: { oid: string } }): void => {
    if (e.type !== 'file') {
      return;
    }
    const sha256 = e.lfs && /^[0-9a-f]{64}$/i.test(e.lfs.oid) ? e.lfs.oid : undefined;
    out.set(e.path, { size: e.size, oid: e.lfs?.oid ?? e.oid, sha256 });
  };
  if (spec === 'all') {
    const entries = listFiles({ repo, revision: o.revision, recursive: true, hubUrl: o.hubUrl, fetch: o.fetch });
    for await (const e of entries) {
      add(e);
      if (out.size >= MAX_LISTED) {
        break;
      }
    }
    return out;
  }
  const infos = await pathsInfo({
    repo,
    paths: candidatePaths(spec),
    revision: o.revision,
    hubUrl: o.hubUrl,
    fetch: o.fetch,
  });
  for (const e of infos) {
    add(e);
  }
  return out;
}
