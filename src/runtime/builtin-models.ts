import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { envCacheDir } from '../config.js';
import { writeNerFixtureRepo } from '../onnx/model-repo.js';

/** Prefix of the model ids inferkit generates itself (offline, no download). */
export const BUILTIN_PREFIX = 'inferkit/';

/**
 * A resolver of built-in model ids to folders, generated on first use: `inferkit/ner-fixture` is
 * the "known words" NER fixture (CoNLL labels; lower-cased unless `cased`). Resolves undefined for
 * any other id. Written under `<cacheDir>/builtin/`; `cacheDir` defaults to the one model cache of
 * inferkit (`envCacheDir()`: `INFERKIT_CACHE`, see src/config.ts). Used by `loadTokenClassifier` and by the
 * server's default loaders alike.
 */
export function builtinModels(cacheDir?: string): (id: string, cased: boolean) => Promise<string | undefined> {
  // One write per folder even when several services name the same fixture at once.
  const writes = new Map<string, Promise<string>>();
  return async (id, cased) => {
    if (id.toLowerCase() !== `${BUILTIN_PREFIX}ner-fixture`) {
      return undefined;
    }
    const dir = join(cacheDir ?? envCacheDir(), 'builtin', cased ? 'ner-fixture-cased' : 'ner-fixture');
    let write = writes.get(dir);
    if (write === undefined) {
      write = ensureFixture(dir, cased);
      writes.set(dir, write);
    }
    return write;
  };
}

async function ensureFixture(dir: string, cased: boolean): Promise<string> {
  const exists = await access(join(dir, 'onnx', 'model.onnx')).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await writeNerFixtureRepo(dir, { lowercase: !cased });
  }
  return dir;
}
