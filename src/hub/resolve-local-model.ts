import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InferkitError } from '../errors.js';
import { assertRepoPath, candidatePaths, selectFiles, type FileSelection, type FileSpec } from './file-spec.js';
import { fileSize, listLocalFiles } from './model-cache.js';
import type { ResolvedModel } from './types.js';

/** Applies a spec to the files present under `dir` (`'all'`: every file; none found counts as missing). */
export async function selectLocalFiles(dir: string, spec: FileSpec | 'all'): Promise<FileSelection> {
  if (spec === 'all') {
    const chosen = await listLocalFiles(dir);
    return { chosen, missing: chosen.length === 0 ? ['any file (the folder is empty)'] : [] };
  }
  const present = new Set<string>();
  for (const p of candidatePaths(spec)) {
    assertRepoPath(p);
    if ((await fileSize(localPath(dir, p))) !== undefined) {
      present.add(p);
    }
  }
  return selectFiles(spec, (p) => present.has(p));
}

/** Absolute local path of a repo path under `dir`. */
export function localPath(dir: string, repoPath: string): string {
  return join(dir, ...repoPath.split('/'));
}

/** Repo path → absolute path for each chosen file. */
export function fileMap(dir: string, chosen: readonly string[]): Record<string, string> {
  return Object.fromEntries(chosen.map((p) => [p, localPath(dir, p)]));
}

/**
 * Resolves a local model folder: checks the wanted files exist and throws `model_not_found`
 * listing every missing one.
 */
export async function resolveLocalModel(ref: string, dir: string, spec: FileSpec | 'all'): Promise<ResolvedModel> {
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    throw new InferkitError('model_not_found', `Local model folder ${dir} does not exist (from ref ${JSON.stringify(ref)})`);
  }
  const { chosen, missing } = await selectLocalFiles(dir, spec);
  if (missing.length > 0) {
    throw new InferkitError(
      'model_not_found',
      `Local model folder ${dir} is missing: ${missing.join(', ')}. Put these files there in repo layout, or use a hub id`,
    );
  }
  return { ref, repo: dir, revision: 'local', commit: undefined, source: 'local', dir, files: fileMap(dir, chosen), fromCache: true };
}
