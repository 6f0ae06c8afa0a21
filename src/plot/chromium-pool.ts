import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { InferkitError } from '../errors.js';
import { setKeepAlive, spawnedBy } from './process-keep-alive.js';

/** Chromium flags for a headless, offline, sandbox-less render (containers, CI). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** How long a shared Chromium stays open after its last render, in ms. */
export const DEFAULT_IDLE_MS = 30_000;

/** Options of `withBrowser`. */
export interface BrowserLeaseOptions {
  /** Chromium executable; each path gets its own browser. */
  chromiumPath: string;
  /** Limit for launching Chromium, in ms. */
  timeoutMs: number;
  /** Close the browser after this many ms without renders; 0 closes it at once. @default 30000 */
  idleMs?: number;
}

interface PoolEntry {
  executable: string;
  /** The launch in progress or done; shared by every caller, so concurrent renders launch once. */
  pending: Promise<Browser> | undefined;
  browser: Browser | undefined;
  child: ChildProcess | undefined;
  active: number;
  timer: NodeJS.Timeout | undefined;
}

// One browser per executable per process: a renderer cache with a lifecycle, not configuration.
const entries = new Map<string, PoolEntry>();
const children = new Set<ChildProcess>();
let launches = 0;
let exitHookInstalled = false;

/**
 * Runs `use` with the process's shared headless Chromium for `chromiumPath`, launching it on first use
 * (or after a crash) and closing it after `idleMs` without use. While idle it does not keep Node alive.
 * Throws `InferkitError('config')` when Chromium cannot start.
 */
export async function withBrowser<T>(options: BrowserLeaseOptions, use: (browser: Browser) => Promise<T>): Promise<T> {
  const entry = lease(options.chromiumPath);
  try {
    return await use(await connectedBrowser(entry, options.timeoutMs));
  } finally {
    await release(entry, options.idleMs ?? DEFAULT_IDLE_MS);
  }
}

/** Closes every shared Chromium now (renders in flight fail); the next render launches a new one. */
export async function closeRenderer(): Promise<void> {
  const all = [...entries.values()];
  entries.clear();
  await Promise.all(all.map(closeEntry));
}

/** Counters for tests and diagnostics: browsers launched so far, open now, and their process ids. */
export function rendererStats(): { launches: number; open: number; pids: number[] } {
  const open = [...entries.values()].filter((e) => e.browser?.isConnected()).length;
  const pids = [...children].map((c) => c.pid).filter((p): p is number => typeof p === 'number');
  return { launches, open, pids };
}

function lease(executable: string): PoolEntry {
  let entry = entries.get(executable);
  if (!entry) {
    entry = { executable, pending: undefined, browser: undefined, child: undefined, active: 0, timer: undefined };
    entries.set(executable, entry);
  }
  entry.active++;
  clearTimeout(entry.timer);
  entry.timer = undefined;
  setKeepAlive(entry.child, true);
  return entry;
}

async function release(entry: PoolEntry, idleMs: number): Promise<void> {
  entry.active--;
  if (entry.active > 0) {
    return;
  }
  if (idleMs <= 0) {
    if (entries.get(entry.executable) === entry) {
      entries.delete(entry.executable);
    }
    await closeEntry(entry);
    return;
  }
  setKeepAlive(entry.child, false);
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => {
    if (entry.active === 0) {
      if (entries.get(entry.executable) === entry) {
        entries.delete(entry.executable);
      }
      void closeEntry(entry);
    }
  }, idleMs);
  // Never hold the process open just to close an idle browser; the exit hook kills it instead.
  entry.timer.unref();
}

async function connectedBrowser(entry: PoolEntry, timeoutMs: number): Promise<Browser> {
  // Bounded: a browser found disconnected is forgotten and relaunched once.
  for (let attempt = 0; attempt < 2; attempt++) {
    const pending = (entry.pending ??= launch(entry, timeoutMs));
    let browser: Browser;
    try {
      browser = await pending;
    } catch (e) {
      if (entry.pending === pending) {
        entry.pending = undefined;
      }
      throw e;
    }
    if (browser.isConnected()) {
      return browser;
    }
    if (entry.pending === pending) {
      forget(entry);
    }
  }
  throw new InferkitError('config', `Chromium at ${entry.executable} disconnected right after launch`);
}

async function launch(entry: PoolEntry, timeoutMs: number): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  let browser: Browser;
  let child: ChildProcess | undefined;
  try {
    ({ result: browser, child } = await spawnedBy(entry.executable, () =>
      chromium.launch({ executablePath: entry.executable, args: [...CHROMIUM_ARGS], timeout: timeoutMs }),
    ));
  } catch (e) {
    throw new InferkitError('config', `Chromium at ${entry.executable} did not start: ${firstLine(e)}`, { cause: e });
  }
  launches++;
  if (child) {
    children.add(child);
    installExitHook();
  }
  entry.browser = browser;
  entry.child = child;
  browser.on('disconnected', () => {
    if (child) {
      children.delete(child);
    }
    if (entry.browser === browser) {
      forget(entry);
    }
  });
  if (entry.active === 0) {
    setKeepAlive(child, false);
  }
  return browser;
}

/** Drops a dead or closing browser so the next lease launches a fresh one. */
function forget(entry: PoolEntry): void {
  entry.pending = undefined;
  entry.browser = undefined;
  entry.child = undefined;
}

async function closeEntry(entry: PoolEntry): Promise<void> {
  clearTimeout(entry.timer);
  entry.timer = undefined;
  const { pending, child } = entry;
  forget(entry);
  // Hold the process open until Chromium has exited cleanly.
  setKeepAlive(child, true);
  if (pending) {
    await pending.then((b) => b.close()).catch(() => undefined);
  }
}

function installExitHook(): void {
  if (exitHookInstalled) {
    return;
  }
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: kill what is left rather than closing gracefully.
  process.once('exit', () => {
    for (const c of children) {
      c.kill('SIGKILL');
    }
  });
}

function firstLine(e: unknown): string {
  return e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
}
