import type { FileSpec } from './file-spec.js';

/**
 * Download progress. `bytes` is the count on disk so far (a resumed download starts above 0),
 * `total` the file size. `cache-hit` means the cached copy was used and nothing was fetched.
 */
export interface HubProgressEvent {
  type: 'file-start' | 'progress' | 'file-done' | 'cache-hit';
  /** Repo-relative path, e.g. `onnx/model.onnx`. */
  file: string;
  bytes: number;
  total: number;
}

/**
 * Options of `resolveModel`. Only the cache's default comes from the environment (the one model cache the CLI
 * uses); for the token, hub URL and offline mode of the environment, spread `hubOptionsFromEnv()`.
 */
export interface ResolveModelOptions {
  /** Which files are wanted; `'all'` takes every file of the repo or folder. @default 'all' */
  files?: FileSpec | 'all';
  /** Branch, tag or commit. A `@revision` in the ref must agree with it. @default 'main' */
  revision?: string;
  /** Hub token (`hf_…`), sent only to `hubUrl`'s origin, never logged nor put in errors. */
  accessToken?: string;
  /** Hub base URL. @default 'https://huggingface.co' */
  hubUrl?: string;
  /**
   * Cache root; files land in `<cacheDir>/models/<org>--<name>/<revision>/<path>`.
   * @default the one model cache of the CLI and notebooks (`envCacheDir()`): `INFERKIT_CACHE`, else `$XDG_CACHE_HOME/inferkit`, else `~/.cache/inferkit`
   */
  cacheDir?: string;
  /** Use only the cache; never touch the network. @default false */
  offline?: boolean;
  /** Called with download progress and cache hits. */
  onProgress?: (e: HubProgressEvent) => void;
  /** Custom fetch (proxy, tests). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Cancels metadata calls and downloads; partial files are kept for resuming. */
  signal?: AbortSignal;
  /** Resume attempts per file after a connection dropped mid-body. @default 3 */
  retries?: number;
  /** Check each LFS file's sha256 after download (one extra read of the file). @default true */
  verifySha256?: boolean;
  /** Files downloaded at once within one resolve. @default 4 */
  concurrency?: number;
  /**
   * Longest wait (ms) for a file another call or process is downloading into the same cache
   * (per-file lock under `<cacheDir>/models/<repo>/.locks/`); then a `timeout` error naming the
   * lock file. @default 600_000
   */
  lockTimeoutMs?: number;
}

/** A model resolved to local files. */
export interface ResolvedModel {
  /** The reference as given. */
  ref: string;
  /** Hub repo id (`org/name`), or the absolute folder for a local ref. */
  repo: string;
  /** Revision resolved against (`'local'` for a folder). */
  revision: string;
  /** Commit sha the downloaded files were pinned to (or the hub reported), when known. */
  commit: string | undefined;
  /** `'hub'` or `'local'`. */
  source: 'hub' | 'local';
  /** Local folder holding the files in repo layout. */
  dir: string;
  /** Repo path → absolute local path, for every chosen file. */
  files: Record<string, string>;
  /** True when no file was downloaded by this call. */
  fromCache: boolean;
}
