import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { runGroup, type GroupRun } from './run-group.js';
import { alive } from '../fixtures/processes.js';

/** A headless notebook run whose one cell writes its kernel's pid to `pidFile`, then hangs. */
export interface KilledRun {
  /** The runner (nbconvert, scripts/run-notebooks.sh), started in its own process group. */
  command: string;
  args: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** Where the hanging cell writes its kernel's pid. */
  pidFile: string;
  /** Names the kernel in the failure message ("tslab", "Deno"). */
  kernel: string;
  /** Sent to the runner's whole process group. @default 'SIGKILL' (what a CI timeout sends) */
  signal?: NodeJS.Signals;
}

/** How long the kernel may take to start and run the cell, the runner to end once signalled, and the kernel to outlive it. */
const PID_WAIT_MS = 120_000;
const RUNNER_EXIT_MS = 60_000;
const EXIT_WAIT_MS = 15_000;
const POLL_MS = 100;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The pid in `file` once the cell has written all of it; 0 if it has not by then or the run ended first. */
async function kernelPid(file: string, ended: () => boolean): Promise<number> {
  for (let waited = 0; waited < PID_WAIT_MS && !ended(); waited += POLL_MS) {
    // The cell's write is not atomic: an empty or partial file reads as no pid yet (0 would signal our own group).
    const text = await readFile(file, 'utf8').catch(() => '');
    if (/^[1-9]\d*$/.test(text.trim())) {
      return Number(text.trim());
    }
    await sleep(POLL_MS);
  }
  return 0;
}

/**
 * Runs `run` in its own process group, waits for its kernel to write its pid (the kernel must be alive then),
 * kills the whole group as a user or a CI timeout does, and asserts that no kernel is left 15 s after the runner
 * ended: kernels run in their own session, so only their watcher (scripts/tslab-kernel.sh, scripts/deno-kernel.sh)
 * can end them. A kernel that is left is killed after the check, so a failure leaves nothing running.
 */
export async function expectKilledRunLeavesNoKernel(run: KilledRun): Promise<void> {
  let group = 0;
  let ended = false;
  const running: Promise<GroupRun> = runGroup(run.command, run.args, { cwd: run.cwd, env: run.env, timeoutMs: 200_000, onStart: (g) => (group = g) }).finally(() => {
    ended = true;
  });
  // A kernel inherits the runner's stdout and stderr: while one is left, the run's pipes stay open and `running`
  // does not settle. So the checks wait for processes, and for `running` only once no kernel can be left.
  const stop = async (): Promise<GroupRun | undefined> => {
    if (group > 0 && !ended) {
      process.kill(-group, 'SIGKILL');
    }
    return Promise.race([running, sleep(EXIT_WAIT_MS).then(() => undefined)]);
  };
  const kernel = await kernelPid(run.pidFile, () => ended);
  if (kernel === 0) {
    const r = await stop();
    const how = r ? `${r.timedOut ? 'timed out' : `exited ${r.code}`}:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}` : 'was killed';
    throw new TypeError(`no ${run.kernel} kernel pid in ${run.pidFile}; the run ${how}`);
  }
  if (!alive(kernel)) {
    await stop();
  }
  expect(alive(kernel), `${run.kernel} kernel ${kernel} not running after it wrote its pid`).toBe(true);
  // A group id of 0 would signal vitest's own group.
  expect(group).toBeGreaterThan(0);
  process.kill(-group, run.signal ?? 'SIGKILL');
  // The runner (the group's leader) ends first; its kernel then has 15 s to follow.
  for (let waited = 0; waited < RUNNER_EXIT_MS && alive(group); waited += POLL_MS) {
    await sleep(POLL_MS);
  }
  for (let waited = 0; waited < EXIT_WAIT_MS && alive(kernel); waited += POLL_MS) {
    await sleep(POLL_MS);
  }
  const left = alive(kernel);
  if (left) {
    try {
      process.kill(kernel, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }
  await Promise.race([running, sleep(EXIT_WAIT_MS)]);
  expect(left, `${run.kernel} kernel ${kernel} still running`).toBe(false);
}
