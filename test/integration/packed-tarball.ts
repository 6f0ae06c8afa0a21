import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { alive } from '../fixtures/processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder, new for each vitest run (and watch rerun), where the test files share one `npm pack`; see pack-dir.global-setup.ts. */
    packDir?: string;
  }
}

const run = promisify(execFile);
/** How long a test file waits for the `npm pack` another file started (prepack builds dist/: well under a minute). */
const WAIT_MS = 300_000;
const POLL_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const readOr = (file: string): Promise<string> => readFile(file, 'utf8').catch(() => '');

/** `npm pack` of `repo` into `destination`; the tarball's path. */
async function pack(repo: string, env: NodeJS.ProcessEnv, destination: string): Promise<string> {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: repo, env, maxBuffer: 64 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
  return join(destination, filename);
}

/**
 * The tarball of `npm pack` in `repo` (prepack rebuilds dist/), packed once per vitest run: the first test file to
 * ask packs into the run's folder (a `lock` folder, made atomically, says who packs), the others wait for its
 * `tarball.json`. Two packs at once would also race on dist/, which prepack deletes and rebuilds. Where the run's
 * folder is not provided (a config without the global setup), where the packing file fails or its process is
 * gone without a tarball, this file packs on its own into `ownDir`, as each file used to.
 */
export async function packedTarball(repo: string, env: NodeJS.ProcessEnv, ownDir: string): Promise<string> {
  const dir = inject('packDir');
  if (!dir) {
    return pack(repo, env, ownDir);
  }
  await mkdir(dir, { recursive: true });
  const lock = join(dir, 'lock');
  const done = join(dir, 'tarball.json');
  const failed = join(dir, 'failed.txt');
  try {
    await mkdir(lock);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw e;
    }
    for (let waited = 0; waited < WAIT_MS; waited += POLL_MS) {
      const result = await readOr(done);
      if (result) {
        return (JSON.parse(result) as { tarball: string }).tarball;
      }
      const owner = Number(await readOr(join(lock, 'pid')));
      if ((await readOr(failed)) || (owner > 0 && !alive(owner))) {
        return pack(repo, env, ownDir);
      }
      await sleep(POLL_MS);
    }
    throw new TypeError(`no tarball in ${dir} after ${WAIT_MS / 1000} s of waiting for the test file that packs it`);
  }
  await writeFile(join(lock, 'pid'), String(process.pid));
  try {
    const tarball = await pack(repo, env, dir);
    await writeFile(`${done}.tmp`, JSON.stringify({ tarball }));
    await rename(`${done}.tmp`, done);
    return tarball;
  } catch (e) {
    await writeFile(failed, String(e));
    throw e;
  }
}
