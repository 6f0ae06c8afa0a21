import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

/** A POST (or GET without body) over a keep-alive agent; resolves with the status. */
export function send(agent: Agent, port: number, path: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request({ host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What {@link runLoad} saw. */
export interface LoadResult {
  requests: number;
  seconds: number;
  latenciesMs: number[];
  /** Process CPU time (main + worker threads, user + system) over wall time: cores used. */
  coresUsed: number;
  /** `/v2/health/live` latencies sampled every ~10 ms during the load (when probed). */
  liveMs: number[];
}

/**
 * `concurrency` clients POST `bodies` (round robin) back to back for `ms`, after a short warm-up;
 * every answer must be 200. With `probeLive`, a separate connection asks `/v2/health/live` meanwhile.
 */
export async function runLoad(
  port: number,
  path: string,
  bodies: readonly string[],
  concurrency: number,
  ms: number,
  probeLive = false,
  hooks: { onStart?: () => void; onEnd?: () => void } = {},
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latenciesMs: number[] = [];
  const client = async (id: number, until: number, record: boolean) => {
    for (let n = 0; n < 1_000_000; n++) {
      if (performance.now() >= until && n > 0) {
        return;
      }
      const t0 = performance.now();
      const status = await send(agent, port, path, bodies[(id + n) % bodies.length]);
      if (status !== 200) {
        throw new Error(`${path} answered ${status}`);
      }
      if (record) {
        latenciesMs.push(performance.now() - t0);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, 4) }, (_, i) => client(i, 0, false)));
  const liveMs: number[] = [];
  let loading = true;
  const liveAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probe = probeLive
    ? (async () => {
        for (let i = 0; i < 100_000 && loading; i++) {
          const t = performance.now();
          await send(liveAgent, port, '/v2/health/live');
          liveMs.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 10));
        }
      })()
    : Promise.resolve();
  hooks.onStart?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, i) => client(i, t0 + ms, true)));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  hooks.onEnd?.();
  loading = false;
  await probe;
  agent.destroy();
  liveAgent.destroy();
  return { requests: latenciesMs.length, seconds: wall / 1000, latenciesMs, coresUsed: (cpu.user + cpu.system) / 1000 / wall, liveMs };
}

/** p99 of a list, NaN when empty. */
export function p99(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : percentile(values, 99);
}
