import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** The folders handed out in this vitest process, removed at its end. */
const dirs: string[] = [];

/** Names a new folder: nothing is created until a test packs (packed-tarball.ts), so runs that do not pack pay nothing. */
function provideNewDir(project: TestProject): void {
  const dir = join(tmpdir(), `inferkit-pack-${randomUUID()}`);
  dirs.push(dir);
  project.provide('packDir', dir);
}

/** vitest globalSetup: one pack folder per run, and a new one for each watch-mode rerun, so no tarball is stale. */
export function setup(project: TestProject): void {
  provideNewDir(project);
  project.onTestsRerun(() => provideNewDir(project));
}

/** Removes the run's pack folders. */
export async function teardown(): Promise<void> {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}
