/**
 * gpu-bench `--threads`: how one model's CPU threads are best shared out on a many-core host (issue #25: the
 * server's default plan gives a float token classifier one session up to 4 threads, then one replica per 4).
 * A BERT-base graph built from a random checkpoint (as the server builds it) runs under each plan — sessions ×
 * intra-op threads, e.g. 1×16, 4×4, 16×1 — each session in its own worker thread, as the server's replicas are.
 * Every session pulls the next batch of 8 texts from one shared counter over a length-sorted mix (the least
 * padding), for `--threads-s` seconds; sentences/s is their sum. Before that, the widest session's batch-1
 * latency (what a lone request gets). Session options as the server's: spinning off, prepacked weights (a
 * plan ending in `u`: prepacking off, every session mapping the graph's one external-data file, as the server's
 * float replicas do).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { resolveModelGraph } from '../../src/checkpoint/resolve-model-graph.js';
import { BERT_BASE } from '../lib/graph-cache.js';
import { writeFamilyCheckpoint } from '../lib/family-checkpoints.js';

// Sessions opened here straight from onnxruntime-node: its telemetry off, as src/runtime/ort.ts sets it for inferkit's own.
process.env.ORT_DISABLE_TELEMETRY ??= '1';

const VOCAB = 30522;
const BATCH = 8;
/** Token counts of the mix (with [CLS]/[SEP]): 256 texts, 6–160 tokens, skewed short as NER sentences are; sorted. */
export function mixLengths(n = 256): number[] {
  let s = 7;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const u = s / 2 ** 31;
    out.push(Math.round(6 + 154 * u * u));
  }
  return out.sort((a, b) => a - b);
}

function feeds(lengths: readonly number[]): Record<string, ort.Tensor> {
  const seq = Math.max(...lengths);
  const n = lengths.length * seq;
  const ids = new BigInt64Array(n);
  const mask = new BigInt64Array(n);
  lengths.forEach((len, r) => {
    for (let t = 0; t < len; t++) {
      ids[r * seq + t] = BigInt(1000 + ((r * 131 + t * 7919) % (VOCAB - 1000)));
      mask[r * seq + t] = 1n;
    }
  });
  return {
    input_ids: new ort.Tensor('int64', ids, [lengths.length, seq]),
    attention_mask: new ort.Tensor('int64', mask, [lengths.length, seq]),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), [lengths.length, seq]),
  };
}

/** Milliseconds since the epoch, sub-millisecond, comparable across worker threads. */
const epochMs = (): number => performance.timeOrigin + performance.now();

interface WorkerIn {
  graph: string;
  threads: number;
  /** Int32 [0] = next batch index, [1] = go (0 wait, 1 run); Float64 at byte 8 = the window's end (epochMs). */
  shared: SharedArrayBuffer;
  latency: boolean;
  lengths: number[];
  /** Prepacking off: the server's float replicas, which share one mapped copy of the weights. */
  unpacked: boolean;
  batch: number;
}

interface WorkerOut {
  sentences: number;
  runs: number;
  sessionS: number;
  b1Ms?: number;
}

async function workerMain(input: WorkerIn): Promise<void> {
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(input.graph, {
    executionProviders: ['cpu'], graphOptimizationLevel: 'all', intraOpNumThreads: input.threads, interOpNumThreads: 1,
    extra: { session: { intra_op: { allow_spinning: '0' }, ...(input.unpacked ? { disable_prepacking: '1' } : {}) } },
  });
  const sessionS = (performance.now() - t0) / 1000;
  const batches: Record<string, ort.Tensor>[] = [];
  for (let k = 0; k + input.batch <= input.lengths.length; k += input.batch) {
    batches.push(feeds(input.lengths.slice(k, k + input.batch)));
  }
  await session.run(batches[batches.length - 1]);
  await session.run(batches[0]);
  let b1Ms: number | undefined;
  if (input.latency) {
    const times: number[] = [];
    const lone = [20, 40, 14, 64, 30].map((len) => feeds([len]));
    for (let i = 0; i < 25; i++) {
      const t = performance.now();
      await session.run(lone[i % lone.length]);
      times.push(performance.now() - t);
    }
    b1Ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  }
  const flags = new Int32Array(input.shared, 0, 2);
  const end = new Float64Array(input.shared, 8, 1);
  parentPort?.postMessage({ ready: true });
  Atomics.wait(flags, 1, 0);
  let sentences = 0;
  let runs = 0;
  // A run that straddles the end counts for the part of it inside the window.
  for (let start = epochMs(); start < end[0]; start = epochMs()) {
    const k = Atomics.add(flags, 0, 1) % batches.length;
    await session.run(batches[k]);
    const finish = epochMs();
    sentences += input.batch * Math.min(1, (end[0] - start) / (finish - start));
    runs++;
  }
  await session.release();
  parentPort?.postMessage({ sentences, runs, sessionS, ...(b1Ms !== undefined ? { b1Ms } : {}) } satisfies WorkerOut);
}

/** One plan's result. */
export interface ThreadsRow {
  plan: string;
  sessions: number;
  threads: number;
  sentencesPerS: number;
  cpuMsPerSentence: number;
  b1Ms: number | null;
  sessionS: number;
}

async function runPlan(graph: string, [sessions, threads, unpacked, batch]: Plan, seconds: number, lengths: number[]): Promise<ThreadsRow> {
  const shared = new SharedArrayBuffer(16);
  const flags = new Int32Array(shared, 0, 2);
  const workers = Array.from({ length: sessions }, (_, i) => new Worker(new URL(import.meta.url), { workerData: { graph, threads, shared, latency: i === 0, lengths, unpacked, batch } satisfies WorkerIn }));
  const ready = workers.map((w) => new Promise<void>((resolve, reject) => {
    w.once('error', reject);
    w.once('message', () => resolve());
  }));
  await Promise.all(ready);
  const results = workers.map((w) => new Promise<WorkerOut>((resolve, reject) => {
    w.once('error', reject);
    w.once('message', (m: WorkerOut) => resolve(m));
  }));
  // process.cpuUsage counts every thread of the process: from the go to the last run's end, over every run made.
  const cpu0 = process.cpuUsage();
  new Float64Array(shared, 8, 1)[0] = epochMs() + seconds * 1000;
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 1);
  const wall = seconds;
  const outs = await Promise.all(results);
  const used = process.cpuUsage(cpu0);
  await Promise.all(workers.map((w) => w.terminate()));
  const sentences = outs.reduce((n, o) => n + o.sentences, 0);
  const ran = outs.reduce((n, o) => n + o.runs, 0) * batch;
  return { plan: `${sessions}×${threads}${unpacked ? ' unpacked' : ''}${batch === BATCH ? '' : `, batch ${batch}`}`, sessions, threads, sentencesPerS: sentences / wall, cpuMsPerSentence: (used.user + used.system) / 1000 / Math.max(1, ran), b1Ms: outs[0].b1Ms ?? null, sessionS: Math.max(...outs.map((o) => o.sessionS)) };
}

/** Sessions, threads each, prepacking off, texts per run. */
export type Plan = [sessions: number, threads: number, unpacked: boolean, batch: number];

/**
 * `4x4` = 4 sessions of 4 threads, prepacked; `4x4u` = the same sharing one mapped copy of the weights, unpacked;
 * `16x1u@2` = runs of 2 texts (what 16 replicas get of a 32-text merged call) instead of 8.
 */
export function parsePlan(spec: string): Plan {
  const m = /^(\d+)x(\d+)(u?)(?:@(\d+))?$/.exec(spec.trim());
  if (m === null) {
    throw new Error(`--plans ${spec}: expected SESSIONSxTHREADS[u][@BATCH], e.g. 4x4, 4x4u or 16x1u@2`);
  }
  return [Number(m[1]), Number(m[2]), m[3] === 'u', m[4] === undefined ? BATCH : Number(m[4])];
}

/** Runs every plan of `--plans` (default: the splits of all CPUs into 1, 2, 4, … sessions) and writes threads-results.{md,json}. */
export async function threadsMode(outDir: string, options: { plans?: string; seconds?: number; quick?: boolean; label?: string }): Promise<string[]> {
  const n = cpus().length;
  const plans: Plan[] = options.plans !== undefined
    ? options.plans.split(',').map(parsePlan)
    : [1, 2, 4, 8, 16, 32].filter((s) => s <= n && n % s === 0).map((s): Plan => [s, n / s, false, BATCH]);
  const root = mkdtempSync(join(tmpdir(), 'inferkit-threads-'));
  const t0 = performance.now();
  const layers = options.quick === true ? 2 : BERT_BASE.layers;
  writeFamilyCheckpoint('bert', join(root, 'bert'), layers, VOCAB);
  const built = await resolveModelGraph(join(root, 'bert'), { task: 'token-classification', onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'graphs') });
  const head = `${options.label ?? `${n} CPUs`} (${cpus()[0]?.model ?? '?'}), Node ${process.version}, onnxruntime-node ${ort.env.versions.common}; BERT-base (${layers} layers) built from a random checkpoint in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  console.log(head);
  const lengths = mixLengths();
  const rows: ThreadsRow[] = [];
  // Each plan twice, in the order A B C … C B A, averaged: a many-core host warms up and drifts.
  const order = [...plans, ...[...plans].reverse()];
  const passes = new Map<string, ThreadsRow[]>();
  for (const plan of order) {
    const load = loadavg()[0];
    const r = await runPlan(built.graphPath, plan, options.seconds ?? 6, lengths);
    console.log(`${r.plan}: ${r.sentencesPerS.toFixed(1)} sentences/s, ${r.cpuMsPerSentence.toFixed(1)} CPU ms/sentence, b1 ${r.b1Ms?.toFixed(1)} ms (sessions in ${r.sessionS.toFixed(1)} s; load before ${load.toFixed(1)})`);
    passes.set(r.plan, [...(passes.get(r.plan) ?? []), r]);
  }
  for (const [plan, ps] of passes) {
    const mean = (f: (r: ThreadsRow) => number): number => ps.reduce((a, r) => a + f(r), 0) / ps.length;
    rows.push({ ...ps[0], plan, sentencesPerS: mean((r) => r.sentencesPerS), cpuMsPerSentence: mean((r) => r.cpuMsPerSentence), b1Ms: mean((r) => r.b1Ms ?? NaN), sessionS: mean((r) => r.sessionS) });
  }
  const best = Math.max(...rows.map((r) => r.sentencesPerS));
  const lines = [head, `mix: ${lengths.length} texts of ${Math.min(...lengths)}–${Math.max(...lengths)} tokens sorted, runs of ${BATCH} texts unless the plan says; ${options.seconds ?? 6} s per plan, each plan twice (A B … B A) and averaged; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`, '',
    '| plan (sessions × threads) | sentences/s | vs best here | CPU ms / sentence | widest session batch-1 ms | sessions opened in s |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of rows) {
    lines.push(`| ${r.plan} | ${r.sentencesPerS.toFixed(1)} | ${(r.sentencesPerS / best).toFixed(2)}× | ${r.cpuMsPerSentence.toFixed(1)} | ${r.b1Ms?.toFixed(1) ?? ''} | ${r.sessionS.toFixed(1)} |`);
  }
  const tag = options.label === undefined ? '' : `-${options.label.replace(/[^a-z0-9]+/gi, '-')}`;
  writeFileSync(join(outDir, `threads-results${tag}.md`), `${lines.join('\n')}\n`);
  writeFileSync(join(outDir, `threads-results${tag}.json`), JSON.stringify({ machine: head, rows, passes: [...passes.values()] }, null, 2));
  return lines;
}

if (!isMainThread && (workerData as { shared?: unknown } | null)?.shared instanceof SharedArrayBuffer) {
  workerMain(workerData as WorkerIn).catch((err: unknown) => {
    throw err;
  });
}
