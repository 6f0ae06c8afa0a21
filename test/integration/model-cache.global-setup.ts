import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's model cache. */
let dir = '';

/**
 * vitest globalSetup: the run's own model cache (`INFERKIT_CACHE`, inherited by the test processes and every server,
 * CLI and kernel they start), removed at its end. What tests load from temporary folders (copies of their graphs,
 * built graphs, built-in fixtures) never lands in the developer's cache: before this, each run left ~0.3 GB there,
 * 16 GB over a few days of runs. Tests that need a cache of their own still set one.
 */
export function setup(): void {
  dir = join(tmpdir(), `inferkit-cache-${randomUUID()}`);
  process.env.INFERKIT_CACHE = dir;
}

/** Removes the run's model cache. */
export async function teardown(): Promise<void> {
  if (dir !== '') {
    await rm(dir, { recursive: true, force: true });
  }
}
