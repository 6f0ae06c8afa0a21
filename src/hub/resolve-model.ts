import { modelInfo } from '@huggingface/hub';
import { envCacheDir } from '../config.js';
import { InferkitError, isInferkitError } from '../errors.js';
import { createHubFetch } from './create-hub-fetch.js';
import { downloadModelFiles, isFresh } from './download-model-files.js';
import { assertRepoPath, candidatePaths, selectFiles, type FileSpec } from './file-spec.js';
import { listRemoteFiles, type RemoteFile } from './list-remote-files.js';
import { fileSize, modelCachePaths, readCacheMeta, updateCacheMeta, type ModelCachePaths } from './model-cache.js';
import { parseModelRef } from './parse-model-ref.js';
import { fileMap, localPath, resolveLocalModel, selectLocalFiles } from './resolve-local-model.js';
import { toHubError, type HubErrorContext } from './to-hub-error.js';
import type { ResolvedModel, ResolveModelOptions } from './types.js';

/** The public Hugging Face Hub. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

interface Target {
  ref: string;
  repo: string;
  revision: string;
  spec: FileSpec | 'all';
  cache: ModelCachePaths;
}

/**
 * Resolves a model reference to local files, downloading only the wanted ones into the cache
 * (`cacheDir`, by default the one model cache the CLI uses: `INFERKIT_CACHE`, see `envCacheDir()`).
 * `resolveModel('org/name', { files: { required: ['config.json'] } })` is enough for a public model.
 *
 * `ref`: a hub id (`dslim/bert-base-NER`), `hf://org/name`, either with an optional `@revision`
 * (`hf://org/name@v1.0`, `org/name@<commit sha>`), or a local folder (absolute, or starting
 * with `.` or `/`). Online, one metadata call (`paths-info`, or a tree listing for `'all'`) tells
 * which files exist and their oids; files whose cached copy matches are reused (`cache-hit`),
 * others are downloaded resumably, up to `concurrency` (4) at once. Before downloading, a branch or
 * tag is pinned to its current commit (model info `sha`) and every file is fetched at that commit,
 * which is recorded in the cache record, so a push meanwhile cannot mix files. Each file downloads
 * under a lock in the cache (`.locks/`), so concurrent calls or processes fetch it once and never
 * share a partial file. If the hub cannot be reached but the cache has every wanted file, the
 * cache is used. Offline, only the cache is read.
 *
 * Errors (`InferkitError.code`): `not_cached` (offline and missing files), `unauthorized`
 * (gated/private: 401/403), `model_not_found` (404, or wanted files absent), `network`,
 * `hub_error`, `invalid_request` (bad ref), `timeout` (a file's lock stayed held past
 * `lockTimeoutMs`; the message names the lock file). No message or cause ever contains the token.
 */
export async function resolveModel(ref: string, options: ResolveModelOptions = {}): Promise<ResolvedModel> {
  const parsed = parseModelRef(ref);
  const spec = options.files ?? 'all';
  if (spec !== 'all') {
    candidatePaths(spec).forEach(assertRepoPath);
  }
  if (parsed.kind === 'local') {
    return resolveLocalModel(ref, parsed.path, spec);
  }
  if (parsed.revision !== undefined && options.revision !== undefined && parsed.revision !== options.revision) {
    throw new InferkitError(
      'invalid_request',
      `Model ref ${JSON.stringify(ref)} names revision "${parsed.revision}" but the revision option is "${options.revision}"`,
    );
  }
  const revision = parsed.revision ?? options.revision ?? 'main';
  const t: Target = { ref, repo: parsed.repo, revision, spec, cache: modelCachePaths(options.cacheDir ?? envCacheDir(), parsed.repo, revision) };
  if (options.offline) {
    const hit = await fromCache(t, options);
    if ('missing' in hit) {
      throw new InferkitError(
        'not_cached',
        `Model ${t.repo}@${t.revision} is not in the cache at ${t.cache.dir} and offline mode is on; missing: ${hit.missing.join(', ')}. ` +
          'Run once online (offline: false, HF_HUB_OFFLINE unset) to download it, or set cacheDir to the cache that holds it',
      );
    }
    return hit;
  }
  return fromHub(t, options);
}

async function fromCache(t: Target, o: ResolveModelOptions): Promise<ResolvedModel | { missing: string[] }> {
  const { chosen, missing } = await selectLocalFiles(t.cache.dir, t.spec);
  if (missing.length > 0) {
    return { missing };
  }
  const files = fileMap(t.cache.dir, chosen);
  for (const [file, path] of Object.entries(files)) {
    const size = (await fileSize(path)) ?? 0;
    o.onProgress?.({ type: 'cache-hit', file, bytes: size, total: size });
  }
  const meta = await readCacheMeta(t.cache.metaFile, t.repo, t.revision);
  return { ...base(t), commit: meta.commit, files, fromCache: true };
}

function base(t: Target): Pick<ResolvedModel, 'ref' | 'repo' | 'revision' | 'source' | 'dir'> {
  return { ref: t.ref, repo: t.repo, revision: t.revision, source: 'hub', dir: t.cache.dir };
}

async function fromHub(t: Target, o: ResolveModelOptions): Promise<ResolvedModel> {
  const hubUrl = (o.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, '');
  const token = o.accessToken && o.accessToken.length > 0 ? o.accessToken : undefined;
  const ctx: HubErrorContext = { repo: t.repo, revision: t.revision, hubUrl, hasToken: token !== undefined, token };
  const hubFetch = createHubFetch({ hubUrl, accessToken: token, signal: o.signal, fetch: o.fetch });
  const list = (revision: string): Promise<Map<string, RemoteFile>> =>
    listRemoteFiles(t.spec, { repo: t.repo, revision, hubUrl, fetch: hubFetch });
  let remote: Map<string, RemoteFile>;
  try {
    remote = await list(t.revision);
  } catch (err) {
    const e = toHubError(err, ctx, o.signal);
    if (isInferkitError(e) && e.code === 'network') {
      const hit = await fromCache(t, o);
      if (!('missing' in hit)) {
        return hit;
      }
    }
    throw e;
  }
  let chosen = choose(t, remote, hubUrl);
  const meta = await readCacheMeta(t.cache.metaFile, t.repo, t.revision);
  const fresh = new Set<string>();
  for (const file of chosen) {
    const want = remote.get(file);
    if (want !== undefined && (await isFresh(meta, localPath(t.cache.dir, file), file, want))) {
      fresh.add(file);
    }
  }
  let urlRevision = t.revision;
  if (fresh.size < chosen.length) {
    // Pin the branch to one commit so that a push while we download cannot mix files of two commits.
    const commit = await pinCommit(t, hubUrl, hubFetch, o.signal);
    if (commit !== undefined && commit !== t.revision) {
      try {
        remote = await list(commit);
      } catch (err) {
        throw toHubError(err, ctx, o.signal);
      }
      chosen = choose(t, remote, hubUrl);
      urlRevision = commit;
    }
  }
  const todo = new Map<string, RemoteFile>();
  for (const file of chosen) {
    assertRepoPath(file);
    const want = remote.get(file);
    if (want === undefined) {
      continue;
    }
    // After pinning, the listing may differ from the one `fresh` was judged on: the locked re-check decides.
    if (fresh.has(file) && urlRevision === t.revision) {
      o.onProgress?.({ type: 'cache-hit', file, bytes: want.size, total: want.size });
    } else {
      todo.set(file, want);
    }
  }
  const downloaded = todo.size === 0 ? 0 : await downloadModelFiles({ repo: t.repo, revision: t.revision, urlRevision, hubUrl, cache: t.cache, files: todo, ctx }, o);
  if (downloaded > 0 && urlRevision !== t.revision) {
    await updateCacheMeta(t.cache, t.repo, t.revision, (m) => {
      m.commit = urlRevision;
    }, { timeoutMs: o.lockTimeoutMs, signal: o.signal });
  }
  const final = await readCacheMeta(t.cache.metaFile, t.repo, t.revision);
  return { ...base(t), commit: final.commit, files: fileMap(t.cache.dir, chosen), fromCache: downloaded === 0 };
}

function choose(t: Target, remote: Map<string, RemoteFile>, hubUrl: string): string[] {
  const { chosen, missing } =
    t.spec === 'all' ? { chosen: [...remote.keys()], missing: [] } : selectFiles(t.spec, (p) => remote.has(p));
  if (missing.length > 0 || chosen.length === 0) {
    throw new InferkitError(
      'model_not_found',
      `Model ${t.repo}@${t.revision} on ${hubUrl} lacks the files needed: ${missing.join(', ') || 'it has no files'}`,
    );
  }
  return chosen;
}

/**
 * The commit sha a branch or tag points to now (model info `sha`), or undefined when the revision
 * already is a sha or the hub does not say; then downloads go by the revision name as before.
 */
async function pinCommit(t: Target, hubUrl: string, hubFetch: typeof fetch, signal?: AbortSignal): Promise<string | undefined> {
  if (/^[0-9a-f]{40}$/i.test(t.revision)) {
    return undefined;
  }
  try {
    const info = await modelInfo({ name: t.repo, revision: t.revision, hubUrl, fetch: hubFetch, additionalFields: ['sha'] });
    return typeof info.sha === 'string' && /^[0-9a-f]{40}$/i.test(info.sha) ? info.sha : undefined;
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
}
