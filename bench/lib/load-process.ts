/**
 * A load generator in its own process, so the server's process CPU time is the server's alone:
 * `node --import tsx bench/lib/load-process.ts '<json LoadJob>'`. Prints `start` when the measured
 * window opens, then one JSON line with the {@link LoadResult} (its `coresUsed` is this process's).
 * Bundled (bench/gpu/prepare.sh), the child is the `load-process.mjs` beside the calling bundle, run without tsx.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult } from './load-client.js';

/** What the child is asked to do. */
export interface LoadJob {
  port: number;
  path: string;
  bodies: string[];
  concurrency: number;
  ms: number;
  probeLive: boolean;
}

/** {@link LoadResult} of the child, plus the server process's cores used over the child's measured window. */
export interface ChildLoadResult extends LoadResult {
  /** Cores the calling (server) process used during the measured window. */
  serverCores: number;
  /** Cores the load generator used. */
  clientCores: number;
}

/** Runs `job` in a child process; measures this process's CPU over the child's measured window. */
export function runLoadInChild(job: LoadJob): Promise<ChildLoadResult> {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'load-process.mjs');
  const args = existsSync(bundled) ? [bundled] : ['--import', 'tsx', resolve(process.cwd(), 'bench/lib/load-process.ts')];
  const child = spawn(process.execPath, [...args, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let cpu0: NodeJS.CpuUsage | undefined;
  let t0 = 0;
  let cpu: NodeJS.CpuUsage | undefined;
  let wall = 0;
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    if (cpu0 === undefined && out.includes('start\n')) {
      cpu0 = process.cpuUsage();
      t0 = performance.now();
    }
    if (cpu === undefined && cpu0 !== undefined && out.includes('end\n')) {
      cpu = process.cpuUsage(cpu0);
      wall = performance.now() - t0;
    }
  });
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || line === undefined || cpu === undefined) {
        reject(new Error(`load generator exited with ${code}: ${out.slice(-500)}`));
        return;
      }
      const r = JSON.parse(line) as LoadResult;
      resolvePromise({ ...r, clientCores: r.coresUsed, serverCores: (cpu.user + cpu.system) / 1000 / wall });
    });
  });
}

// By the script's name, not import.meta.url: inlined in another bundle, this module shares that bundle's URL.
if (/load-process\.(ts|mjs)$/.test(process.argv[1] ?? '')) {
  const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
  runLoad(job.port, job.path, job.bodies, job.concurrency, job.ms, job.probeLive, {
    onStart: () => process.stdout.write('start\n'),
    onEnd: () => process.stdout.write('end\n'),
  })
    .then((r) => process.stdout.write(`${JSON.stringify(r)}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
