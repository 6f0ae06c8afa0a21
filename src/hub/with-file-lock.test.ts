import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pidSpace, withFileLock } from './with-file-lock.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'file-lock-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('withFileLock', () => {
  it('runs same-process callers one at a time, in call order, and removes the lock file after', async () => {
    const lock = join(root, 'a', 'x.lock');
    const log: string[] = [];
    const job = (name: string) => async (): Promise<string> => {
      log.push(`${name}+`);
      expect(existsSync(lock)).toBe(true);
      await sleep(30);
      log.push(`${name}-`);
      return name;
    };
    const results = await Promise.all([withFileLock(lock, job('a')), withFileLock(lock, job('b')), withFileLock(lock, job('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    expect(readdirSync(join(root, 'a'))).toEqual([]);
  });

  it('releases the lock when the body throws', async () => {
    const lock = join(root, 'throws.lock');
    await expect(withFileLock(lock, () => Promise.reject(new RangeError('boom')))).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
    await expect(withFileLock(lock, () => Promise.resolve(1))).resolves.toBe(1);
  });

  it('takes over the lock of a process that no longer runs', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const lock = join(root, 'dead.lock');
    writeFileSync(lock, JSON.stringify({ pid: gone, host: hostname(), time: new Date().toISOString(), token: 'old' }));
    const t0 = Date.now();
    await expect(withFileLock(lock, () => Promise.resolve('mine'), { timeoutMs: 5000 })).resolves.toBe('mine');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(readdirSync(root).filter((f) => f.startsWith('dead'))).toEqual([]);
  });

  it('names its pid space in the lock; a dead pid of this pid space is taken over at once, one of another pid space under this host name only once stale', async () => {
    const held = join(root, 'space.lock');
    const body = await withFileLock(held, () => Promise.resolve(JSON.parse(readFileSync(held, 'utf8')) as Record<string, unknown>));
    expect(body).toMatchObject({ pid: process.pid, host: hostname(), pidSpace: pidSpace() });
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const here = join(root, 'dead-here.lock');
    writeFileSync(here, JSON.stringify({ pid: gone, host: hostname(), pidSpace: pidSpace(), time: new Date().toISOString(), token: 'old' }));
    await expect(withFileLock(here, () => Promise.resolve('mine'), { timeoutMs: 5000 })).resolves.toBe('mine');
    // The same host name, another pid space (a container of that name, restarted): the pid cannot be looked up here.
    const there = join(root, 'elsewhere.lock');
    const other = pidSpace() === 'ffffffff' ? 'eeeeeeee' : 'ffffffff';
    writeFileSync(there, JSON.stringify({ pid: gone, host: hostname(), pidSpace: other, time: new Date().toISOString(), token: 'theirs' }));
    const err = await withFileLock(there, () => Promise.resolve(0), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'InferkitError', code: 'timeout' });
    expect(JSON.parse(readFileSync(there, 'utf8'))).toMatchObject({ token: 'theirs' });
    const past = new Date(Date.now() - 120_000);
    utimesSync(there, past, past);
    await expect(withFileLock(there, () => Promise.resolve('after'), { timeoutMs: 2000, staleMs: 60_000 })).resolves.toBe('after');
  });

  it('takes over a lock of a live process that was not refreshed within staleMs', async () => {
    const lock = join(root, 'old.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), time: '2020-01-01T00:00:00Z', token: 'old' }));
    const past = new Date(Date.now() - 120_000);
    utimesSync(lock, past, past);
    await expect(withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 2000, staleMs: 60_000 })).resolves.toBe('ok');
  });

  it('keeps a held lock fresh, so a long holder is not taken over', async () => {
    const lock = join(root, 'long.lock');
    const order: string[] = [];
    const holder = withFileLock(lock, async () => {
      await sleep(400);
      order.push('holder done');
    }, { staleMs: 100 });
    await sleep(20);
    // A lock file from another evaluation of the module (tslab) looks like another process's lock.
    vi.resetModules();
    const { withFileLock: other } = await import('./with-file-lock.js');
    expect(other).not.toBe(withFileLock);
    await other(lock, () => Promise.resolve(order.push('waiter ran')), { staleMs: 100, timeoutMs: 5000 });
    await holder;
    expect(order).toEqual(['holder done', 'waiter ran']);
  });

  it('gives up after timeoutMs with a timeout error naming the lock file and its holder', async () => {
    const lock = join(root, 'busy.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), time: new Date().toISOString(), token: 't' }));
    const t0 = Date.now();
    const err = await withFileLock(lock, () => Promise.resolve(0), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(err).toMatchObject({ name: 'InferkitError', code: 'timeout' });
    expect((err as Error).message).toContain(lock);
    expect((err as Error).message).toContain(`pid ${process.pid}`);
    expect(existsSync(lock)).toBe(true);
    rmSync(lock);
  });

  it('stops waiting when the signal aborts, with its reason', async () => {
    const lock = join(root, 'abort.lock');
    const holder = withFileLock(lock, () => sleep(300));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 50);
    const err = await withFileLock(lock, () => Promise.resolve(0), { signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AbortError', message: 'stop' });
    await holder;
    expect(existsSync(lock)).toBe(false);
  });
});
