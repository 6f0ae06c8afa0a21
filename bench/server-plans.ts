/**
 * Which session plan serves a float token classifier best on this machine: `inferkit serve` of one family's random
 * base-width checkpoint (bench/lib/family-checkpoints.ts) under several replica plans, at c=32 and c=8, on short texts
 * (the server benches' 6–20 words) and long ones (five times the words), each against the in-process limit at the same
 * moment (server-limit's measureLimit on the same graph; its best cell measured again right before and right after each
 * c=32 cell). Written for a many-core host: on 16 cores the default plan (one one-thread replica per thread) served
 * short texts at 0.69–0.83× of that limit (bench/RESULTS.md, docs/gpu.md), against 0.78–1.09× on 2 cores.
 *
 * Each plan is served by a fresh server process of its own, so its memory columns are the server's alone.
 *
 * Plans: `d` = the server's default; `N` = `--replicas N` (replicas and the latency session map one packed copy of
 * the weights, src/runtime/shared-weights/packed-graph.ts); `Np` = the same with `--prepack` (a private packed copy
 * per session).
 * Run: `npx tsx bench/server-plans.ts [--family bert] [--plans d,1,2,4,4p,8] [--sets short,long] [--cell-ms 1500] [--layers N]`;
 * bundled for a GPU host's CPUs by bench/gpu/prepare.sh (`bash .gpu/run.sh OUT --plans …`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { processMemory } from '../src/runtime/shared-weights/process-memory.js';
import { availableCpus } from '../src/runtime/cpu-budget.js';
import { defaultLoaders } from '../src/server/default-loaders.js';
import { cachedFamilyCheckpoint, parseFamilies, type ServedFamily } from './lib/family-checkpoints.js';
import { runLoadInChild } from './lib/load-process.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { withCliServer } from './lib/serve-priority.js';
import { formatNumber, formatRatio } from './lib/stats.js';
import { renderTable, type Table } from './lib/table.js';
import { familyGraph } from './server-limit-families.js';
import { leadLimit, manifest, measureLimit, texts } from './server-limit.js';

/** Options of {@link serverPlansTable}. */
export interface ServerPlansOptions {
  family: ServedFamily;
  /** Plans as `d`, `N` or `Np` (see the module's doc). */
  plans: readonly string[];
  /** Text sets: `short` (6–20 words), `long` (30–100 words). */
  sets: ReadonlyArray<'short' | 'long'>;
  cellMs: number;
  /** Encoder layers. @default the family's base depth */
  layers?: number;
  log: (line: string) => void;
}

/** Words per text against server-limit's load texts (6–20 words). */
const SCALE = { short: 1, long: 5 } as const;

/** A plan's server options: the default plan, or `--replicas N` (`p`: prepacked sessions). */
function parsePlan(plan: string): { replicas?: number; prepack: boolean } {
  if (plan === 'd') {
    return { prepack: false };
  }
  const m = /^(\d+)(p?)$/.exec(plan);
  if (m === null || Number(m[1]) < 1) {
    throw new Error(`--plans ${plan}: expected d, N or Np (N ≥ 1)`);
  }
  return { replicas: Number(m[1]), prepack: m[2] === 'p' };
}

/** One row per plan and text set: served c=32 and c=8 against the limit at the same moment. */
export async function serverPlansTable(o: ServerPlansOptions): Promise<Table> {
  const plans = o.plans.map((p) => ({ name: p, ...parsePlan(p) }));
  const budget = availableCpus();
  const cpus = budget.cpus;
  const loadBefore = loadavg()[0];
  const ck = cachedFamilyCheckpoint(o.family, o.layers !== undefined ? { layers: o.layers } : {});
  const rows: string[][] = [];
  for (const set of o.sets) {
    const mixTexts = texts(32, 3, SCALE[set]);
    const loadTexts = texts(16, 11, SCALE[set]);
    const g = await familyGraph(ck.dir, [...mixTexts, ...loadTexts]);
    const tokens = (t: string) => g.ids.get(t)?.length ?? 0;
    const mix = [...mixTexts].sort((a, b) => tokens(a) - tokens(b));
    const meanTokens = loadTexts.reduce((a, t) => a + tokens(t), 0) / loadTexts.length;
    const first = await measureLimit(g.graphPath, cpus, mix, g.feeds, o.cellMs, () => undefined);
    o.log(`[${set}] ${formatNumber(meanTokens)} tokens per text; limit: ${first.map((l) => `${l.config} b${l.batch} ${formatNumber(l.rate)}`).join(', ')}`);
    const limit = await leadLimit(g.graphPath, cpus, first, mix, g.feeds, o.cellMs);
    const bodies = loadTexts.map((t) => JSON.stringify({ instances: [t] }));
    try {
      for (const plan of plans) {
        const row = await withPlanServer({ dir: ck.dir, threads: cpus, ...plan }, async (server) => {
          const job = { port: server.port, path: '/v1/models/bert:predict', bodies, ms: o.cellMs, probeLive: false };
          await runLoadInChild({ ...job, ms: 1000, concurrency: 32 });
          const before = await limit.now();
          const many = await runLoadInChild({ ...job, concurrency: 32 });
          const memoryAfter = await server.memory();
          const after = await limit.now();
          const moderate = await runLoadInChild({ ...job, concurrency: 8 });
          const rate = many.requests / many.seconds;
          const around = (before + after) / 2;
          const split = server.replicaThreads;
          const latency = server.latencyThreads;
          const sessions = `${split.length} × ${split[0] ?? '?'}${latency !== undefined ? ` + latency × ${latency}` : ''}${plan.prepack ? ', prepacked' : ''}`;
          // Growth from before the server started, in GiB and × the weights (`gib: false`: the ratio alone), by `key`.
          const growth = (at: PlanMemory, key: keyof PlanMemory, gib = true): string => {
            const now = at[key];
            const then = server.before[key];
            if (now === undefined || then === undefined || server.weightsBytes === undefined) {
              return 'n/a';
            }
            const ratio = formatRatio(now - then, server.weightsBytes);
            return gib ? `${((now - then) / 2 ** 30).toFixed(2)} (${ratio})` : ratio;
          };
          const grownAfter = growth(memoryAfter, 'bytes');
          o.log(`[${set}] plan ${plan.name} (${sessions}): c=32 ${formatNumber(rate)} sentences/s, limit around it ${formatNumber(around)}; c=8 ${formatNumber(moderate.requests / moderate.seconds)}; memory growth at load ${growth(server.loaded, 'bytes')}, after c=32 ${grownAfter} (PSS: ${growth(server.loaded, 'pss', false)}, ${growth(memoryAfter, 'pss', false)})`);
          return [set, formatNumber(meanTokens), `${plan.name} (${sessions})`, formatNumber(rate), formatRatio(rate, around), formatNumber(moderate.requests / moderate.seconds), formatRatio(moderate.requests / moderate.seconds, around), `${formatNumber(around)} (b${limit.lead.batch}, ${limit.lead.config})`, growth(server.loaded, 'bytes'), grownAfter];
        });
        rows.push(row);
      }
    } finally {
      await limit.release();
    }
  }
  return {
    title: `Served c=32 and c=8 per session plan, ${ck.label}, ${cpus} threads (fp32, V1)`,
    headers: ['texts', 'tokens per text (mean)', 'plan (sessions × threads)', 'c=32 sent/s', 'c=32 / limit at the same moment', 'c=8 sent/s', 'c=8 / that limit', 'limit sent/s (best cell)', 'server memory growth at load, GiB (× weights)', 'after c=32'],
    rows,
    notes: [
      `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadavg()[0].toFixed(2)} on ${budget.affinity} CPUs.`,
      `Served: inferkit serve of a KServe manifest (--model_id=<folder>, the graph built from model.safetensors) in a child process of its own, fresh per plan, the event loop at nice +10 once loaded; one single-text V1 request per call from a load generator in another child process, a 1 s warm-up at c=32, then ${o.cellMs} ms at c=32 and at c=8. Limit: server-limit's measureLimit on the same graph, in this process (the 32-text mix sorted by tokens, batches of 1, 8 and 32, one session with all threads spinning off and on, one-thread sessions side by side unpacked and prepacked); its best cell measured again right before and right after each c=32 cell, their mean. Memory growth: the server process's resident memory with each mapped file range counted once (anonymous pages, plus each range of a file at the most any of its mappings holds; not PSS, which would split the packed copy's pages with the limit's replica sessions here when they map it too), from before the server started to its load (sessions open, warm-up runs made) and to the end of its c=32 cell, against the graph's weights. A packed copy is paged in by the runs, not at load.`,
      `Machine: ${machineLine(machineInfo())}.`,
    ],
  };
}

/**
 * This process's resident memory with each mapped file range counted once: the anonymous pages of every mapping, plus
 * for each range of a file (path, offset, size) the most any of its mappings holds resident. The replicas map one
 * packed copy each: RSS would count it once per session. PSS divides a page among every process mapping it, so it
 * reads the server low whenever this bench's limit sessions (in the parent) map the same packed copy; this does not.
 * Undefined off Linux.
 */
function residentOnce(): number | undefined {
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  let anonymous = 0;
  const files = new Map<string, number>();
  let range: string | undefined;
  let rss = 0;
  for (const line of smaps.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ ([0-9a-f]+) \S+ (\d+)\s*(.*)$/.exec(line);
    if (head !== null) {
      const [lo, hi] = line.slice(0, line.indexOf(' ')).split('-').map((x) => Number.parseInt(x, 16));
      range = head[2] !== '0' && head[3] !== '' ? `${head[3]}@${head[1]}+${(hi ?? 0) - (lo ?? 0)}` : undefined;
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    if (field?.[1] === 'Rss') {
      rss = Number(field[2]) * 1024;
    } else if (field?.[1] === 'Anonymous') {
      const anon = Number(field[2]) * 1024;
      anonymous += anon;
      if (range !== undefined) {
        files.set(range, Math.max(files.get(range) ?? 0, rss - anon));
      } else {
        anonymous += rss - anon; // shared memory and the like: no file range to share with
      }
    }
  }
  return anonymous + [...files.values()].reduce((a, b) => a + b, 0);
}

/** A plan's server process's memory at one moment: {@link residentOnce}, and its PSS. */
interface PlanMemory {
  bytes?: number;
  /** PSS (`/proc/self/smaps_rollup`), for the log: it splits pages with other processes mapping them. */
  pss?: number;
}

function memoryNow(): PlanMemory {
  const pss = processMemory().pssBytes;
  return { bytes: residentOnce(), ...(pss !== undefined ? { pss } : {}) };
}

/** What a plan's server process says once its model is ready. */
interface PlanServerReady {
  port: number;
  replicaThreads: number[];
  latencyThreads?: number;
  weightsBytes?: number;
  /** Its memory before the server started, and once the model had loaded. */
  before: PlanMemory;
  loaded: PlanMemory;
}

/** A plan's server, as the parent sees it: its port and plan, and its process's memory on demand. */
interface PlanServer extends PlanServerReady {
  memory(): Promise<PlanMemory>;
}

/** What the parent asks of a plan's server process. */
interface PlanServerJob {
  dir: string;
  threads: number;
  replicas?: number;
  prepack: boolean;
}

/**
 * Runs `body` against `inferkit serve` of `job`'s plan in a child process of its own (this module again, `--serve-child`):
 * its memory is then the server's alone, read from a fresh process, not offset by what earlier servers or the limit's
 * sessions freed in this one. The child ends when `body` does, or with this process (its IPC channel closes).
 */
async function withPlanServer<T>(job: PlanServerJob, body: (server: PlanServer) => Promise<T>): Promise<T> {
  const child = fork(process.argv[1] ?? '', ['--serve-child', JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const ready = await nextMessage<PlanServerReady>(child, 'ready', 600_000);
    const memory = async (): Promise<PlanMemory> => {
      child.send({ type: 'memory' });
      return nextMessage<PlanMemory>(child, 'memory', 60_000);
    };
    const out = await body({ ...ready, memory });
    child.send({ type: 'close' });
    // Bounded: a server that does not close within a minute is killed below.
    await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
    return out;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }
}

/** The child's next message of `type` (its `value`); rejects if it exits first, or after `ms`. */
function nextMessage<T>(child: ChildProcess, type: string, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      done();
      reject(new Error(`plan server: no ${type} within ${ms / 1000} s`));
    }, ms);
    const onMessage = (m: { type?: string; value?: T; error?: string }) => {
      if (m.type === 'error') {
        done();
        reject(new Error(`plan server: ${m.error ?? 'failed'}`));
      } else if (m.type === type) {
        done();
        resolve(m.value as T);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`plan server exited (${signal ?? `code ${code}`}) before its ${type}`));
    };
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** The child side of {@link withPlanServer}: serves the plan, answers memory readings, closes when told. */
async function servePlanChild(job: PlanServerJob): Promise<void> {
  const send = (m: object) => process.send?.(m);
  process.on('disconnect', () => process.exit(1));
  const before = memoryNow();
  const loaders = defaultLoaders(job.prepack ? { session: { prepacking: true } } : {});
  const inference = { threads: job.threads, ...(job.replicas !== undefined ? { replicas: job.replicas } : {}) };
  await withCliServer(manifest(job.dir, 'fp32', 'v1'), loaders, inference, async (server, state) => {
    const closed = new Promise<void>((resolve) => {
      process.on('message', (m: { type?: string }) => {
        if (m.type === 'memory') {
          send({ type: 'memory', value: memoryNow() });
        } else if (m.type === 'close') {
          resolve();
        }
      });
    });
    const ready: PlanServerReady = {
      port: server.port,
      replicaThreads: state.inference?.replicaThreads ?? [],
      ...(state.inference?.latencyThreads !== undefined ? { latencyThreads: state.inference.latencyThreads } : {}),
      ...(state.memory?.weightsBytes !== undefined ? { weightsBytes: state.memory.weightsBytes } : {}),
      before,
      loaded: memoryNow(),
    };
    send({ type: 'ready', value: ready });
    await closed;
  });
}

if (process.argv[2] === '--serve-child') {
  servePlanChild(JSON.parse(process.argv[3] ?? '{}') as PlanServerJob)
    .then(() => process.exit(0))
    .catch((e: unknown) => {
      const why = (e as Error).stack ?? String(e);
      process.stderr.write(`${why}\n`);
      // Exit once the message is out (exiting at once could drop it).
      if (process.send === undefined) {
        process.exit(1);
      }
      process.send({ type: 'error', error: why }, () => process.exit(1));
    });
} else if (/server-plans\.(ts|mjs)$/.test(process.argv[1] ?? '')) {
  const argv = process.argv.slice(2);
  const value = (flag: string): string | undefined => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const sets = (value('--sets') ?? 'short,long').split(',').map((s) => {
    if (s !== 'short' && s !== 'long') {
      throw new Error(`--sets ${s}: expected short or long`);
    }
    return s;
  });
  serverPlansTable({
    family: parseFamilies([value('--family') ?? 'bert'])[0],
    plans: (value('--plans') ?? 'd,1,2,4,4p,8').split(','),
    sets,
    cellMs: Number(value('--cell-ms') ?? 1500),
    ...(value('--layers') !== undefined ? { layers: Number(value('--layers')) } : {}),
    log: (l) => process.stderr.write(`${l}\n`),
  })
    .then((t) => process.stdout.write(`${renderTable(t)}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
