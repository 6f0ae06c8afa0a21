/**
 * Per-request server overhead: the main thread's CPU per single-text V1/V2 request (event-loop
 * active time, `performance.eventLoopUtilization`) while a child process keeps 32 requests in
 * flight against `inferkit serve` on the small BERT-shaped graph (sessions in a worker thread, so
 * inference is not on the main thread). With `--profile DIR` it also writes a V8 CPU profile of
 * the main thread per protocol and prints the top self-time functions.
 * Run: `npx tsx bench/server-overhead.ts [--ms 3000] [--profile DIR]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { InferenceService } from '../src/contract/inference-service.js';
import { defaultLoaders } from '../src/server/default-loaders.js';
import { serve } from '../src/server/serve.js';
import { benchText, benchWords } from './lib/bench-text.js';
import { topSelfTime, type CpuProfile } from './lib/cpu-profile.js';
import { BERT_SMALL, cachedBertRepo } from './lib/graph-cache.js';
import { runLoadInChild } from './lib/load-process.js';

const WORDS = [6, 14, 9, 20, 11, 8, 16, 12];

/** CPU time (ms) per thread name of this process, from /proc (Linux). */
function threadCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}#${tid === String(process.pid) ? 'main' : tid}`;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    }
  } catch {
    // not Linux
  }
  return out;
}

/** CPU time (user + system, ms) of this process's main thread, from /proc (Linux; 10 ms ticks). */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return Number.NaN;
  }
}

function manifest(dir: string, protocol: 'v1' | 'v2'): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'bert' },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, ...(protocol === 'v2' ? { protocolVersion: 'v2' as const } : {}), args: ['--model_name=bert', `--model_id=${dir}`, '--task=token_classification'] } } },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const ms = Number(at('--ms') ?? 3000);
  const profileDir = at('--profile');
  const dir = await cachedBertRepo(BERT_SMALL);
  const texts = Array.from({ length: 16 }, (_, i) => benchText(WORDS[i % WORDS.length], 11 * 7919 + i, benchWords()));
  for (const protocol of ['v1', 'v2'] as const) {
    const server = await serve([manifest(dir, protocol)], { port: 0, loaders: defaultLoaders(), inference: { threads: 1 }, log: () => undefined });
    try {
      await server.loaded();
      const path = protocol === 'v1' ? '/v1/models/bert:predict' : '/v2/models/bert/infer';
      const bodies = texts.map((t) => JSON.stringify(protocol === 'v1' ? { instances: [t] } : { inputs: [{ name: 'text', shape: [1], datatype: 'BYTES', data: [t] }] }));
      await runLoadInChild({ port: server.port, path, bodies, ms: 500, concurrency: 32, probeLive: false }); // warm-up
      let session: Session | undefined;
      if (profileDir !== undefined) {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
      }
      const load0 = loadavg()[0];
      const elu0 = performance.eventLoopUtilization();
      const main0 = mainThreadCpuMs();
      const cpu0 = process.cpuUsage();
      const threads0 = threadCpuMs();
      const r = await runLoadInChild({ port: server.port, path, bodies, ms, concurrency: 32, probeLive: false });
      const elu = performance.eventLoopUtilization(elu0);
      const mainMs = mainThreadCpuMs() - main0;
      const cpu = process.cpuUsage(cpu0);
      const byThread = [...threadCpuMs()].map(([name, ms]) => [name, ms - (threads0.get(name) ?? 0)] as const).filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
      if (session !== undefined && profileDir !== undefined) {
        const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
        session.disconnect();
        await writeFile(join(profileDir, `server-${protocol}.cpuprofile`), JSON.stringify(profile));
        const top = topSelfTime(profile, resolve('.'), 25);
        process.stdout.write(`${protocol} top self time (busy ${top.busyMs.toFixed(0)} ms):\n${top.rows.map((x) => `  ${x.percent.toFixed(1).padStart(5)}%  ${x.fn}`).join('\n')}\n`);
      }
      // Per request answered in the window (which also spans the child's start-up: a slight overstatement).
      const activeUs = (elu.active * 1000) / r.requests;
      const mainUs = (mainMs * 1000) / r.requests;
      const processUs = (cpu.user + cpu.system) / r.requests;
      process.stdout.write(
        `${protocol}: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${(r.requests / r.seconds).toFixed(0)}/s); per request: main-thread CPU ${mainUs.toFixed(0)} µs, process CPU ${processUs.toFixed(0)} µs (all threads), event-loop active ${activeUs.toFixed(0)} µs (ELU ${elu.utilization.toFixed(2)}); load ${load0.toFixed(2)}→${loadavg()[0].toFixed(2)}\n`,
      );
      process.stdout.write(`  µs/request by thread: ${byThread.map(([name, ms]) => `${name} ${((ms * 1000) / r.requests).toFixed(0)}`).join(', ')}\n`);
    } finally {
      await server.close();
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
