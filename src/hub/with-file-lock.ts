import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { link, mkdir, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { InferkitError } from '../errors.js';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** Give up waiting for the lock after this long (ms), with a `timeout` InferkitError. @default 600_000 */
  timeoutMs?: number;
  /**
   * A lock file not refreshed for this long (ms) is taken over; the holder refreshes it every
   * `staleMs / 4`. A lock of a dead process on this host (in this {@link pidSpace}) is taken over at once. @default 60_000
   */
  staleMs?: number;
  /** Stops waiting with the signal's reason. */
  signal?: AbortSignal;
}

/** Tail of the in-process queue per lock path: same-process callers wait here, not by polling. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` while holding an exclusive lock on `lockPath`, across processes (a file created with
 * `open(path, 'wx')` holding pid, host, pid space, time and a random token) and within this process (a FIFO
 * queue per path, so concurrent callers run one after another). Waiting is bounded by
 * `timeoutMs`; stale locks (a dead pid in this host's pid space, or not refreshed for `staleMs`) are broken.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, o: FileLockOptions = {}): Promise<T> {
  const timeoutMs = o.timeoutMs ?? 600_000;
  const staleMs = o.staleMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const prev = queues.get(lockPath) ?? Promise.resolve();
  let leave = (): void => {};
  const mine = new Promise<void>((resolve) => {
    leave = resolve;
  });
  const tail = prev.then(() => mine);
  queues.set(lockPath, tail);
  try {
    await waitFor(prev, deadline, lockPath, o.signal);
    const token = await acquire(lockPath, deadline, staleMs, o.signal);
    const beat = setInterval(() => {
      const now = new Date();
      utimes(lockPath, now, now).catch(() => undefined);
    }, Math.max(10, Math.floor(staleMs / 4)));
    beat.unref();
    try {
      return await fn();
    } finally {
      clearInterval(beat);
      await release(lockPath, token);
    }
  } finally {
    leave();
    if (queues.get(lockPath) === tail) {
      queues.delete(lockPath);
    }
  }
}

function timeoutError(lockPath: string, why: string): InferkitError {
  return new InferkitError(
    'timeout',
    `Could not acquire the cache lock ${lockPath} (${why}). Another download of this file is running; wait for it, ` +
      'or delete the lock file if no such process exists',
  );
}

/** Waits for `p` until the deadline or an abort, whichever comes first. */
async function waitFor(p: Promise<void>, deadline: number, lockPath: string, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => {};
  try {
    await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timeoutError(lockPath, 'held by this process')), Math.max(0, deadline - Date.now()));
        onAbort = () => reject(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
  signal?.throwIfAborted();
}

async function acquire(lockPath: string, deadline: number, staleMs: number, signal?: AbortSignal): Promise<string> {
  const token = randomBytes(8).toString('hex');
  const space = pidSpace();
  const body = JSON.stringify({ pid: process.pid, host: hostname(), ...(space !== undefined ? { pidSpace: space } : {}), time: new Date().toISOString(), token });
  await mkdir(dirname(lockPath), { recursive: true });
  let holder = 'unknown holder';
  // Bounded twice: by the deadline, and by a turn count (each turn sleeps at least 25 ms).
  const maxTurns = Math.ceil((deadline - Date.now()) / 25) + 64;
  for (let turn = 0; turn < maxTurns; turn++) {
    try {
      const fh = await open(lockPath, 'wx');
      try {
        await fh.writeFile(body);
      } finally {
        await fh.close();
      }
      return token;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw err;
      }
    }
    const seen = await inspect(lockPath, staleMs);
    if (seen.stale !== undefined) {
      await breakLock(lockPath, seen.raw);
      continue;
    }
    holder = seen.holder;
    if (Date.now() >= deadline) {
      break;
    }
    await sleep(Math.min(1000, 25 * 2 ** Math.min(turn, 6), Math.max(1, deadline - Date.now())), signal);
  }
  throw timeoutError(lockPath, `held by ${holder}`);
}

interface LockView {
  raw: string;
  holder: string;
  /** Why the lock counts as stale, if it does. */
  stale?: string;
}

async function inspect(lockPath: string, staleMs: number): Promise<LockView> {
  let raw = '';
  let mtime: number;
  try {
    mtime = (await stat(lockPath)).mtimeMs;
    raw = await readFile(lockPath, 'utf8');
  } catch {
    return { raw, holder: 'a process that just released it' };
  }
  let info: { pid?: unknown; host?: unknown; pidSpace?: unknown } = {};
  try {
    info = JSON.parse(raw) as typeof info;
  } catch {
    // being written right now, or garbage: judged by age alone
  }
  const pid = typeof info.pid === 'number' ? info.pid : undefined;
  const holder = pid === undefined ? 'an unknown process' : `pid ${pid}${typeof info.host === 'string' ? ` on ${info.host}` : ''}`;
  // A lock written before it named its pid space (an older inferkit) is judged by the host name alone, as then.
  const here = info.host === hostname() && (info.pidSpace === undefined || info.pidSpace === pidSpace());
  if (pid !== undefined && here && !isAlive(pid)) {
    return { raw, holder, stale: 'dead holder' };
  }
  if (Date.now() - mtime > staleMs) {
    return { raw, holder, stale: 'not refreshed' };
  }
  return { raw, holder };
}

/** Whether a process with this id runs on this machine (one we may not signal counts as running). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let space: string | undefined | null = null;

/**
 * Where this process's pid means something, beyond the host name: on Linux 8 hex digits of the kernel's boot id and the
 * pid namespace (`/proc/self/ns/pid`); undefined where those cannot be read (then the host name alone stands for it).
 * Two processes with the same host name can still see different pids: containers given one name (a restarted pod keeps
 * its name and starts over at pid 1, so a dead writer's pid is often alive again), or the same machine after a reboot.
 * A pid is looked up ({@link isAlive}) only where it was written in this pid space.
 */
export function pidSpace(): string | undefined {
  if (space === null) {
    try {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      space = createHash('sha256').update(`${boot} ${readlinkSync('/proc/self/ns/pid')}`).digest('hex').slice(0, 8);
    } catch {
      space = undefined;
    }
  }
  return space;
}

/**
 * Moves the stale lock aside (rename is atomic, so one breaker wins). If what was moved is not the
 * lock judged stale (a fresh lock taken meanwhile), it is put back unless a newer one exists.
 */
async function breakLock(lockPath: string, judged: string): Promise<void> {
  const aside = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(lockPath, aside);
  } catch {
    return; // someone else broke or released it
  }
  try {
    const moved = await readFile(aside, 'utf8').catch(() => judged);
    if (moved !== judged) {
      await link(aside, lockPath).catch(() => undefined);
    }
  } finally {
    await rm(aside, { force: true });
  }
}

async function release(lockPath: string, token: string): Promise<void> {
  const raw = await readFile(lockPath, 'utf8').catch(() => '');
  if (raw.includes(`"token":"${token}"`)) {
    await rm(lockPath, { force: true });
  }
}
