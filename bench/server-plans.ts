/**
 * Which session plan serves a float token classifier best on this machine: `inferkit serve` of one family's random
 * base-width checkpoint (bench/lib/family-checkpoints.ts) under several replica plans, at c=32 and c=8, on short texts
 * (the server benches' 6–20 words) and long ones (five times the words), each against the in-process limit at the same
 * moment (server-limit's measureLimit on the same graph; its best cell measured again right before and right after each
 * c=32 cell). Written for a many-core host: on 16 cores the default plan (one one-thread replica per thread) served
 * short texts at 0.69–0.83× of that limit (bench/RESULTS.md, docs/gpu.md), against 0.78–1.09× on 2 cores.
 *
 * Plans: `d` = the server's default; `N` = `--replicas N` (replicas and the latency session map one packed copy of
 * the weights, src/runtime/shared-weights/packed-graph.ts); `Np` = the same with `--prepack` (a private packed copy
 * per session).
 * Run: `npx tsx bench/server-plans.ts [--family bert] [--plans d,1,2,4,4p,8] [--sets short,long] [--cell-ms 1500] [--layers N]`;
 * bundled for a GPU host's CPUs by bench/gpu/prepare.sh (`bash .gpu/run.sh OUT --plans …`).
 */
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
        const loaders = defaultLoaders(plan.prepack ? { session: { prepacking: true } } : {});
        const inference = { threads: cpus, ...(plan.replicas !== undefined ? { replicas: plan.replicas } : {}) };
        const memoryBefore = processMemory();
        const row = await withCliServer(manifest(ck.dir, 'fp32', 'v1'), loaders, inference, async (server, state) => {
          const job = { port: server.port, path: '/v1/models/bert:predict', bodies, ms: o.cellMs, probeLive: false };
          await runLoadInChild({ ...job, ms: 1000, concurrency: 32 });
          const before = await limit.now();
          const many = await runLoadInChild({ ...job, concurrency: 32 });
          const memoryAfter = processMemory();
          const after = await limit.now();
          const moderate = await runLoadInChild({ ...job, concurrency: 8 });
          const rate = many.requests / many.seconds;
          const around = (before + after) / 2;
          const split = state.inference?.replicaThreads ?? [];
          const latency = state.inference?.latencyThreads;
          const sessions = `${split.length} × ${split[0] ?? '?'}${latency !== undefined ? ` + latency × ${latency}` : ''}${plan.prepack ? ', prepacked' : ''}`;
          const weights = state.memory?.weightsBytes;
          const grown = memoryBefore.pssBytes !== undefined && memoryAfter.pssBytes !== undefined ? memoryAfter.pssBytes - memoryBefore.pssBytes : undefined;
          const pss = grown !== undefined && weights !== undefined ? `${(grown / 2 ** 30).toFixed(2)} (${formatRatio(grown, weights)})` : 'n/a';
          o.log(`[${set}] plan ${plan.name} (${sessions}): c=32 ${formatNumber(rate)} sentences/s, limit around it ${formatNumber(around)}; c=8 ${formatNumber(moderate.requests / moderate.seconds)}; PSS growth after c=32 ${pss}`);
          return [set, formatNumber(meanTokens), `${plan.name} (${sessions})`, formatNumber(rate), formatRatio(rate, around), formatNumber(moderate.requests / moderate.seconds), formatRatio(moderate.requests / moderate.seconds, around), `${formatNumber(around)} (b${limit.lead.batch}, ${limit.lead.config})`, pss];
        });
        rows.push(row);
      }
    } finally {
      await limit.release();
    }
  }
  return {
    title: `Served c=32 and c=8 per session plan, ${ck.label}, ${cpus} threads (fp32, V1)`,
    headers: ['texts', 'tokens per text (mean)', 'plan (sessions × threads)', 'c=32 sent/s', 'c=32 / limit at the same moment', 'c=8 sent/s', 'c=8 / that limit', 'limit sent/s (best cell)', 'PSS growth after c=32, GiB (× weights)'],
    rows,
    notes: [
      `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadavg()[0].toFixed(2)} on ${budget.affinity} CPUs.`,
      `Served: inferkit serve of a KServe manifest (--model_id=<folder>, the graph built from model.safetensors), the event loop at nice +10 once loaded, one single-text V1 request per call from a load generator in a child process, a 1 s warm-up at c=32, then ${o.cellMs} ms at c=32 and at c=8; a fresh server per plan. Limit: server-limit's measureLimit on the same graph (the 32-text mix sorted by tokens, batches of 1, 8 and 32, one session with all threads spinning off and on, one-thread sessions side by side unpacked and prepacked); its best cell measured again right before and right after each c=32 cell, their mean. PSS growth: this process's PSS from before the server started to the end of its c=32 cell, against the graph's weights (a packed copy is paged in by the runs, not at load); the limit's sessions stay open meanwhile and map the graph itself, so a plan that maps that file (one session, prepacking from it) shares those pages with them and reads low.`,
      `Machine: ${machineLine(machineInfo())}.`,
    ],
  };
}

if (/server-plans\.(ts|mjs)$/.test(process.argv[1] ?? '')) {
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
