import { spawn } from 'node:child_process';

/** How a command run by {@link runGroup} ended. */
export interface GroupRun {
  stdout: string;
  stderr: string;
  /** Exit code; null when a signal ended it. */
  code: number | null;
  /** True when `timeoutMs` passed and the whole process group was killed. */
  timedOut: boolean;
}

/**
 * Runs a command in its own process group and, after `timeoutMs`, kills the whole group (SIGKILL), so a timed-out
 * headless notebook run takes nbconvert with it (its kernels, in their own sessions, follow their parent: see
 * scripts/tslab-kernel.sh). `onStart` gets the group id (the child's pid).
 */
export function runGroup(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; timeoutMs: number; cwd?: string; onStart?: (pgid: number) => void }): Promise<GroupRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const kill = (): void => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('spawn', () => options.onStart?.(child.pid ?? 0));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, timedOut });
    });
  });
}
