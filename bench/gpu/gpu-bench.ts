/**
 * In-kernel GPU inference check (docs/gpu.md): the same graphs on onnxruntime-node's CPU provider and on
 * each GPU provider this build offers (WebGPU is bundled; CUDA needs provider libraries fetched at
 * install). Per model and batch: median ms per run (after warm-up), throughput, the GPU/CPU speed-up and
 * how far the outputs lie from the CPU's. Writes `gpu-results.json` and `gpu-results.md` to the folder
 * given as the first argument (default `out/gpu`).
 *
 * Modes: default — inferkit's generated BERT-base and a Chronos-Bolt-small-shaped graph (`--built` adds
 * Chronos-Bolt-base built from a checkpoint, `--built-only` runs that alone); `--families` — the graphs built
 * from random checkpoints of TimesFM 2.0/2.5, Chronos-2, DeBERTa-v3, RoBERTa and XLM-R (bench/gpu/families.ts),
 * prepared in parallel child processes before anything is timed. Flags of `--families`: `--only k1,k2`,
 * `--quick` (small shapes, for a rehearsal), `--cpu-only`, `--jobs N` (parallel preparations), `--budget-s S`
 * (skip what is left after S seconds), `--run-ms M` (timed runs per batch after the first 3), `--batches 1,64`
 * (instead of each family's), `--placements` (GPU sessions log verbosely: ORT then lists the nodes each provider runs).
 * `--threads` (alone or after `--families`): CPU thread plans of one BERT-base on all cores (bench/gpu/threads.ts;
 * `--plans 1x16,4x4u,16x1u@2`, `--threads-s S` per plan, `--label 4-cores` names the output files and the
 * machine line, for runs under `taskset`).
 *
 * Bundled to one file by `bench/gpu/prepare.sh` so it runs on a machine that has only `node`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { resolveModelGraph } from '../../src/checkpoint/resolve-model-graph.js';
import { buildBertTokenClassifier } from '../../src/onnx/bert-token-classifier.js';
import { buildChronosBoltLike } from '../../src/onnx/chronos-bolt.js';
import { BOLT_BASE, writeBoltCheckpoint } from '../lib/bolt-checkpoint.js';
import { BUILT_FAMILIES, tokenTensors, type Prepared } from './families.js';
import { measureModel, resultLines, type BenchModel, type Row } from './measure.js';
import { threadsMode } from './threads.js';

// Sessions opened here straight from onnxruntime-node: its telemetry off, as src/runtime/ort.ts sets it for inferkit's own.
process.env.ORT_DISABLE_TELEMETRY ??= '1';

const argv = process.argv.slice(2);
const VALUED = ['--only', '--jobs', '--budget-s', '--run-ms', '--prepare', '--batches', '--plans', '--threads-s', '--label'];
const flag = (name: string): boolean => argv.includes(name);
const value = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const outDir = argv.find((a, i) => !a.startsWith('--') && !VALUED.includes(argv[i - 1] ?? '')) ?? 'out/gpu';
const SEQ = 128;
const VOCAB = 30522;

function bertFeeds(batch: number): Record<string, ort.Tensor> {
  return tokenTensors(batch, SEQ, VOCAB, 1000);
}

function boltFeeds(batch: number): Record<string, ort.Tensor> {
  const T = 512;
  const ctx = Float32Array.from({ length: batch * T }, (_, i) => 100 + 10 * Math.sin((i % T) / 6) + (i % 7));
  return { context: new ort.Tensor('float32', ctx, [batch, T]) };
}

/** Chronos-Bolt-base (205 M parameters, random weights) written as safetensors and built by inferkit's checkpoint builder. */
async function builtBoltBase(): Promise<BenchModel> {
  const root = mkdtempSync(join(tmpdir(), 'inferkit-gpu-built-'));
  const t0 = performance.now();
  writeBoltCheckpoint(join(root, 'model'), BOLT_BASE);
  const built = await resolveModelGraph(join(root, 'model'), { task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'cache') });
  console.log(`Chronos-Bolt-base checkpoint written and its graph built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${built.family})`);
  return { name: 'Chronos-Bolt-base built from model.safetensors (context 512, horizon 64)', bytes: built.graphPath, feeds: boltFeeds, batches: [1, 16, 64, 256] };
}

function generatedModels(): BenchModel[] {
  const t0 = performance.now();
  const bert = buildBertTokenClassifier({ layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocabSize: VOCAB, numLabels: 9, seed: 1 });
  const bolt = buildChronosBoltLike({ contextLength: 512, predictionLength: 64, quantiles: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], dModel: 512, layers: 6, heads: 8, dFF: 2048, seed: 1 });
  console.log(`graphs built in ${((performance.now() - t0) / 1000).toFixed(1)} s (BERT-base ${(bert.byteLength / 2 ** 20).toFixed(0)} MiB, Chronos-Bolt-small-shaped ${(bolt.byteLength / 2 ** 20).toFixed(0)} MiB)`);
  return [
    { name: `BERT-base token classification (seq ${SEQ})`, bytes: bert, feeds: bertFeeds, batches: [1, 8, 32, 128] },
    { name: 'Chronos-Bolt-small-shaped forecaster (context 512, horizon 64)', bytes: bolt, feeds: boltFeeds, batches: [1, 16, 64, 256] },
  ];
}

/** Generates and builds each family in its own child process (at most `jobs` at once); a failure is a row, not an abort. */
async function prepareFamilies(keys: readonly string[], root: string, quick: boolean, jobs: number): Promise<Map<string, Prepared | Error>> {
  const run = promisify(execFile);
  const done = new Map<string, Prepared | Error>();
  const queue = [...keys];
  const worker = async (): Promise<void> => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      try {
        const args = [...process.execArgv, fileURLToPath(import.meta.url), '--prepare', key, root, ...(quick ? ['--quick'] : [])];
        const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
        const p = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Prepared;
        console.log(`${key}: checkpoint (${(p.parameters / 1e6).toFixed(0)} M params) generated in ${p.generateS.toFixed(1)} s, graph built in ${p.buildS.toFixed(1)} s`);
        done.set(key, p);
      } catch (err) {
        const e = err as Error & { stderr?: string };
        const why = (e.stderr?.trim().split('\n').find((l) => /Error|error/.test(l)) ?? e.message).slice(0, 400);
        console.log(`${key}: preparing failed: ${why}`);
        done.set(key, new Error(why));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return done;
}

function machineLine(): string {
  return `${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}, onnxruntime-node ${ort.env.versions.common}`;
}

function write(rows: readonly Row[], extra: Record<string, unknown> = {}): string[] {
  const head = machineLine();
  const lines = resultLines(head, rows);
  writeFileSync(join(outDir, 'gpu-results.md'), `${lines.join('\n')}\n`);
  writeFileSync(join(outDir, 'gpu-results.json'), JSON.stringify({ machine: head, ...extra, rows }, null, 2));
  return lines;
}

async function families(): Promise<string[]> {
  const start = performance.now();
  const quick = flag('--quick');
  const only = value('--only')?.split(',');
  const chosen = BUILT_FAMILIES.filter((f) => (only === undefined ? !f.key.endsWith('-L50') : only.includes(f.key)));
  const batches = value('--batches')?.split(',').map(Number);
  const root = mkdtempSync(join(tmpdir(), 'inferkit-gpu-families-'));
  const prepared = await prepareFamilies(chosen.map((f) => f.key), root, quick, Number(value('--jobs') ?? chosen.length));
  console.log(`all prepared in ${((performance.now() - start) / 1000).toFixed(1)} s; load average ${loadavg()[0].toFixed(2)}`);
  const deadline = start + Number(value('--budget-s') ?? 330) * 1000;
  const providers = flag('--cpu-only') ? ['cpu'] : ['cpu', 'webgpu'];
  const rows: Row[] = [];
  const preparedList: Prepared[] = [];
  for (const fam of chosen) {
    const p = prepared.get(fam.key);
    if (p === undefined || p instanceof Error) {
      rows.push({ model: fam.key, provider: 'build', batch: 0, ms: null, perSecond: null, speedup: null, maxAbsDiff: null, relDiff: null, error: `preparing failed: ${p?.message ?? '?'}` });
      continue;
    }
    preparedList.push(p);
    const model: BenchModel = { name: p.name, bytes: p.graphPath, feeds: (b) => fam.feeds(b, quick), batches: batches ?? fam.batches, unit: fam.unit };
    const extraOptions = (p: string): ort.InferenceSession.SessionOptions => (flag('--placements') && p !== 'cpu' ? { logSeverityLevel: 0 } : {});
    rows.push(...(await measureModel(model, { providers, deadline, extraOptions, runBudgetMs: Number(value('--run-ms') ?? 1500) })));
    write(rows, { prepared: preparedList });
  }
  console.log(`families done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return write(rows, { prepared: preparedList });
}

async function main(): Promise<void> {
  const prep = value('--prepare');
  if (prep !== undefined) {
    const fam = BUILT_FAMILIES.find((f) => f.key === prep);
    if (fam === undefined) {
      throw new Error(`unknown family ${prep} (${BUILT_FAMILIES.map((f) => f.key).join(', ')})`);
    }
    const root = argv[argv.indexOf('--prepare') + 2];
    process.stdout.write(`${JSON.stringify(await fam.prepare(root, flag('--quick')))}\n`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  const backends = (ort as unknown as { listSupportedBackends?: () => { name: string; bundled: boolean }[] }).listSupportedBackends?.() ?? [];
  console.log('backends', JSON.stringify(backends));
  if (flag('--families')) {
    console.log((await families()).join('\n'));
    if (!flag('--threads')) {
      return;
    }
  }
  if (flag('--threads')) {
    console.log((await threadsMode(outDir, { plans: value('--plans'), seconds: value('--threads-s') === undefined ? undefined : Number(value('--threads-s')), quick: flag('--quick'), label: value('--label') })).join('\n'));
    return;
  }
  const all = flag('--built-only') ? [] : generatedModels();
  if (flag('--built') || flag('--built-only')) {
    all.push(await builtBoltBase());
  }
  const rows: Row[] = [];
  for (const model of all) {
    rows.push(...(await measureModel(model, { providers: ['cpu', 'webgpu', 'cuda'] })));
  }
  console.log(write(rows).join('\n'));
}

// The bundle is also the `--threads` mode's worker-thread script (bench/gpu/threads.ts runs there).
if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
