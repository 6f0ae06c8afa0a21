import type { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

interface Handle {
  ref?(): void;
  unref?(): void;
}

/**
 * Runs `start` and returns, with its result, the child process running `executable` that it spawned.
 * playwright-core does not expose the process of `chromium.launch()`, yet its pipes keep Node's event
 * loop alive; we need it so that an idle browser does not hold the process open. Node publishes every
 * new `ChildProcess` on the documented diagnostics channel `"child_process"` (Node ≥ 16.18); we listen
 * only while `start` runs. The message comes before the spawn, so the executable is checked afterwards.
 */
export async function spawnedBy<T>(executable: string, start: () => Promise<T>): Promise<{ result: T; child: ChildProcess | undefined }> {
  const seen: ChildProcess[] = [];
  const onMessage = (message: unknown): void => {
    const child = (message as { process?: ChildProcess }).process;
    if (child !== undefined) {
      seen.push(child);
    }
  };
  subscribe('child_process', onMessage);
  try {
    const result = await start();
    return { result, child: seen.find((c) => c.spawnfile === executable && typeof c.pid === 'number') };
  } finally {
    unsubscribe('child_process', onMessage);
  }
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
