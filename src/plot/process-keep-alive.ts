import type { ChildProcess } from 'node:child_process';

interface Handle {
  ref?(): void;
  unref?(): void;
}

/** Node's live handles (undocumented but stable since Node 0.x); empty where it is missing. */
function activeHandles(): unknown[] {
  const p = process as unknown as { _getActiveHandles?: () => unknown[] };
  return typeof p._getActiveHandles === 'function' ? p._getActiveHandles() : [];
}

/** A snapshot of the live handles, to find what a launch adds. */
export function handleSnapshot(): Set<unknown> {
  return new Set(activeHandles());
}

/**
 * The child process running `executable` that appeared since `before`, or undefined. playwright-core
 * does not expose the process of `chromium.launch()`, yet its pipes keep Node's event loop alive; we
 * need it to let an idle browser not hold the process open.
 */
export function findNewChild(before: Set<unknown>, executable: string): ChildProcess | undefined {
  for (const h of activeHandles()) {
    if (before.has(h) || typeof h !== 'object' || h === null) {
      continue;
    }
    const c = h as Partial<ChildProcess>;
    if (c.spawnfile === executable && typeof c.pid === 'number' && typeof c.ref === 'function') {
      return h as ChildProcess;
    }
  }
  return undefined;
}

/**
 * Makes a child process (and its stdio pipes) hold Node's event loop open (`true`, while it is
 * working for us) or not (`false`, while idle: Node may then exit and the exit hook kills it).
 */
export function setKeepAlive(child: ChildProcess | undefined, keep: boolean): void {
  if (!child) {
    return;
  }
  // The pipes are net.Socket instances at run time (typed as plain streams).
  const handles = [child, ...child.stdio].filter((h) => h !== null && h !== undefined) as unknown as Handle[];
  for (const h of handles) {
    if (keep) {
      h.ref?.();
    } else {
      h.unref?.();
    }
  }
}
