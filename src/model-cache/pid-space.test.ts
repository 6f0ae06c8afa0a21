import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/fixtures/temp-dirs.js';
import { isAlive, pidSpace } from '../hub/with-file-lock.js';
import { hostTag, unfinishedFolder, unfinishedOf } from '../runtime/shared-weights/stale-copies.js';
import { scanModelCache } from './scan-model-cache.js';

/** Makes `graphs/<name>` in `cache`, two hours old; returns its path. */
function oldFolder(cache: string, name: string): string {
  const dir = join(cache, 'graphs', name);
  mkdirSync(dir, { recursive: true });
  const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
  utimesSync(dir, twoHoursAgo, twoHoursAgo);
  return dir;
}

// A restarted container keeps its host name and starts over at pid 1: the pid an unfinished folder names may be alive
// again, in another process. The last test starts such a writer in a pid namespace of its own (`unshare`: as root, where
// allowed; skipped elsewhere).
const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { timeout: 10_000 });
const canUnshare = unshare.status === 0;

describe('an unfinished folder names the pid space its writer ran in', () => {
  it('on Linux: 8 hex digits of the boot and the pid namespace, the same for the whole process, in the name read back', () => {
    const space = pidSpace();
    expect(space).toMatch(/^[0-9a-f]{8}$/);
    expect(pidSpace()).toBe(space);
    const name = basename(unfinishedFolder('/cache/graphs/packed-0123456789abcdef'));
    expect(name.startsWith(`packed-0123456789abcdef.incomplete-${hostTag()}+${space}-${process.pid}-`)).toBe(true);
    expect(unfinishedOf(name)).toEqual({ of: 'packed-0123456789abcdef', pid: process.pid, host: hostTag(), space });
  });

  it('a folder of this host name from another pid space is abandoned after the hour though its pid runs here; one of this pid space whose writer runs is kept', async () => {
    const cache = tempDir('inferkit-pid-space-');
    const other = (pidSpace() ?? '') === 'ffffffff' ? 'eeeeeeee' : 'ffffffff';
    const elsewhere = oldFolder(cache, `bert-fp32-00112233445566aa.incomplete-${hostTag()}+${other}-${process.pid}-1`);
    const writing = oldFolder(cache, basename(unfinishedFolder(join(cache, 'graphs', 'bert-fp32-00112233445566bb'))));
    const byPath = new Map((await scanModelCache(cache)).entries.map((e) => [e.path, e]));
    expect(byPath.get(elsewhere)).toMatchObject({ kind: 'unfinished', removable: 'abandoned' });
    expect(byPath.get(writing)?.kind).toBe('unfinished');
    expect(byPath.get(writing)?.removable).toBeUndefined();
  });

  it.runIf(canUnshare)('a writer that ran as pid 1 of a container under this host name, since gone, leaves a folder the scan takes as abandoned (pid 1 runs here too)', async () => {
    const cache = tempDir('inferkit-pid-space-ns-');
    // The writer names its folder as inferkit does, in a new pid namespace with its own /proc (as a container starts),
    // and exits.
    const script = `import { unfinishedFolder } from ${JSON.stringify(resolve('src/runtime/shared-weights/stale-copies.ts'))};
      import { pidSpace } from ${JSON.stringify(resolve('src/hub/with-file-lock.ts'))};
      console.log(JSON.stringify({ pid: process.pid, space: pidSpace(), name: unfinishedFolder('/x/graphs/bert-fp32-0123456789abcdef') }));`;
    const run = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const writer = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { pid: number; space: string; name: string };
    expect(writer.pid).toBe(1);
    expect(writer.space).toMatch(/^[0-9a-f]{8}$/);
    expect(writer.space).not.toBe(pidSpace());
    expect(unfinishedOf(basename(writer.name))).toMatchObject({ pid: 1, host: hostTag(), space: writer.space });
    expect(isAlive(1)).toBe(true); // what the host name alone would have looked up: another process
    const left = oldFolder(cache, basename(writer.name));
    const [entry] = (await scanModelCache(cache)).entries.filter((e) => e.path === left);
    expect(entry).toMatchObject({ kind: 'unfinished', name: 'bert-fp32-0123456789abcdef', removable: 'abandoned' });
  }, 90_000);
});
