import { rm } from 'node:fs/promises';
import { InferkitError, isInferkitError } from '../errors.js';
import { createHubFetch } from './create-hub-fetch.js';
import { downloadResumable } from './download-resumable.js';
import { assertRepoPath, candidatePaths, selectFiles, type FileSpec } from './file-spec.js';
import { listRemoteFiles, type RemoteFile } from './list-remote-files.js';
import { fileSize, modelCachePaths, readCacheMeta, writeCacheMeta, type ModelCachePaths } from './model-cache.js';
import { parseModelRef } from './parse-model-ref.js';
import { fileMap, localPath, resolveLocalModel, selectLocalFiles } from './resolve-local-model.js';
import { failureToError, toHubError, type HubErrorContext } from './to-hub-error.js';
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
 * Resolves a model reference to local files, downloading only the wanted ones into the cache.
 *
 * `ref`: a hub id (`dslim/bert-base-NER`), `hf://org/name`, either with an optional `@revision`
 * (`hf://org/name@v1.0`, `org/name@<commit sha>`), or a local folder (absolute, or starting
 * with `.` or `/`). Online, one metadata call (`paths-info`, or a tree listing for `'all'`) tells
 * which files exist and their oids; files whose cached copy matches are reused (`cache-hit`),
 * others are downloaded resumably. If the hub cannot be reached but the cache has every wanted
 * file, the cache is used. Offline, only the cache is read.
 *
 * Errors (`InferkitError.code`): `not_cached` (offline and missing files), `unauthorized`
 * (gated/private: 401/403), `model_not_found` (404, or wanted files absent), `network`,
 * `hub_error`, `invalid_request` (bad ref). No message or cause ever contains the token.
 */
export async function resolveModel(ref: string, options: ResolveModelOptions): Promise<ResolvedModel> {
  const parsed = parseModelRef(ref);
  const spec = options.files ?? 'all';
  if (spec !== 'all') candidatePaths(spec).forEach(assertRepoPath);
  if (parsed.kind === 'local') return resolveLocalModel(ref, parsed.path, spec);
  if (parsed.revision !== undefined && options.revision !== undefined && parsed.revision !== options.revision) {
    throw new InferkitError(
      'invalid_request',
      `Model ref ${JSON.stringify(ref)} names revision "${parsed.revision}" but the revision option is "${options.revision}"`,
    );
  }
  const revision = parsed.revision ?? options.revision ?? 'main';
  const t: Target = { ref, repo: parsed.repo, revision, spec, cache: modelCachePaths(options.cacheDir, parsed.repo, revision) };
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
  if (missing.length > 0) return { missing };
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
  let remote: Map<string, RemoteFile>;
  try {
    remote = await listRemoteFiles(t.spec, { repo: t.repo, revision: t.revision, hubUrl, fetch: hubFetch });
  } catch (err) {
    const e = toHubError(err, ctx, o.signal);
    if (isInferkitError(e) && e.code === 'network') {
      const hit = await fromCache(t, o);
      if (!('missing' in hit)) return hit;
    }
    throw e;
  }
  const { chosen, missing } =
    t.spec === 'all' ? { chosen: [...remote.keys()], missing: [] } : selectFiles(t.spec, (p) => remote.has(p));
  if (missing.length > 0 || chosen.length === 0) {
    throw new InferkitError(
      'model_not_found',
      `Model ${t.repo}@${t.revision} on ${hubUrl} lacks the files needed: ${missing.join(', ') || 'it has no files'}`,
    );
  }
  const meta = await readCacheMeta(t.cache.metaFile, t.repo, t.revision);
  let downloaded = false;
  for (const file of chosen) {
    assertRepoPath(file);
    const want = remote.get(file);
    if (want === undefined) continue;
    const dest = localPath(t.cache.dir, file);
    const rec = meta.files[file];
    const fresh = rec !== undefined && rec.size === want.size && rec.oid === want.oid;
    if (fresh && (await fileSize(dest)) === want.size) {
      o.onProgress?.({ type: 'cache-hit', file, bytes: want.size, total: want.size });
      continue;
    }
    if (rec !== undefined && !fresh) await rm(`${dest}.incomplete`, { force: true });
    const fileCtx = { ...ctx, file };
    const path = file.split('/').map(encodeURIComponent).join('/');
    try {
      const { commit } = await downloadResumable({
        url: `${hubUrl}/${t.repo}/resolve/${encodeURIComponent(t.revision)}/${path}`,
        dest,
        file,
        expectedSize: want.size,
        sha256: o.verifySha256 === false ? undefined : want.sha256,
        fetch: hubFetch,
        retries: o.retries ?? 3,
        onProgress: o.onProgress,
        onHttpError: (res) => httpFailure(res, fileCtx),
      });
      meta.commit = commit ?? meta.commit;
    } catch (err) {
      throw toHubError(err, fileCtx, o.signal);
    }
    meta.files[file] = { size: want.size, oid: want.oid };
    await writeCacheMeta(t.cache.metaFile, meta);
    downloaded = true;
  }
  return { ...base(t), commit: meta.commit, files: fileMap(t.cache.dir, chosen), fromCache: !downloaded };
}

async function httpFailure(res: Response, ctx: HubErrorContext): Promise<InferkitError> {
  let message = res.headers.get('x-error-message') ?? '';
  try {
    const body: unknown = await res.json();
    const err = (body as { error?: unknown } | null)?.error;
    if (typeof err === 'string') message = err;
  } catch {
    // not JSON: keep the header message
  }
  return failureToError({ status: res.status, errorCode: res.headers.get('x-error-code') ?? undefined, message }, ctx);
}
