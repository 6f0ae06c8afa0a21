/**
 * Token-classification graphs built from checkpoints (issue 25, item 5):
 * 1. speed — the graph inferkit builds from the BERT conformance checkpoint (`kserve-hf/model/model.safetensors`)
 *    vs the torch export of the same weights (`onnx/model.onnx` beside it): raw `InferenceSession.run`, same
 *    tensors, interleaved runs (target ≥ 0.95×);
 * 2. BERT-base — a random 110 M-parameter `BertForTokenClassification` checkpoint (generated once into the bench
 *    cache) built (openCheckpoint + the BERT builder + the graph cache, what `resolveModelGraph` runs once the files are local) in a fresh process (wall time, the process's peak RSS vs the weights'
 *    size; fp32 and int8, and fp32 from the same weights as `pytorch_model.bin`), then the built graph's speed vs inferkit's generated BERT-base graph (the fixture
 *    graph measured at 0.96–1.02× of torch's export on 2026-11-23), and the built int8 graph vs the built fp32.
 * Run: `npx tsx bench/token-checkpoint-build.ts [--quick] [--threads N]` (env `INFERKIT_KSERVE_HF_MODEL`: the conformance
 * model folder when it is not at ../shared; `INFERKIT_BENCH_CACHE`: the bench cache).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BERT_BUILDER } from '../src/checkpoint/families/bert.js';
import { cachedGraph } from '../src/checkpoint/graph-cache.js';
import { openCheckpoint } from '../src/checkpoint/safetensors.js';
import { createLocalSession, int64Tensor } from '../src/runtime/ort.js';
import { pytorchBinCopy } from '../test/fixtures/torch-save.js';
import { writeBertCheckpoint } from './lib/bert-checkpoint.js';
import { BERT_BASE, BERT_SMALL, benchCacheDir, cachedBertRepo, type BertShape } from './lib/graph-cache.js';
import { formatSummary, median, summarize } from './lib/stats.js';
import type { Table } from './lib/table.js';

const CONFORMANCE_MODEL = process.env.INFERKIT_KSERVE_HF_MODEL ?? join(process.cwd(), '../shared/conformance/kserve-hf/model');
type Session = Awaited<ReturnType<typeof createLocalSession>>;

/** Options of {@link runTokenCheckpointBench}. */
export interface TokenCheckpointBenchOptions {
  quick?: boolean;
  /** Intra-op threads of every session. @default 1 */
  threads?: number;
  log?: (line: string) => void;
}

/** All parts; returns their tables. */
export async function runTokenCheckpointBench(options: TokenCheckpointBenchOptions = {}): Promise<Table[]> {
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const threads = options.threads ?? 1;
  const quick = options.quick === true;
  const cacheDir = mkdtempSync(join(tmpdir(), 'inferkit-tc-bench-'));
  try {
    const tables: Table[] = [];
    const tiny = await buildBert(CONFORMANCE_MODEL, cacheDir, 'fp32');
    tables.push(await compare('Tiny BERT (conformance kserve-hf: 2 layers, hidden 32): built graph vs the torch export of the same weights', tiny.graphPath, join(CONFORMANCE_MODEL, 'onnx', 'model.onnx'), ['built', 'torch export'], threads, quick, log));
    const shape = quick ? BERT_SMALL : BERT_BASE;
    const dir = join(benchCacheDir(), `bert-checkpoint-L${shape.layers}-H${shape.hidden}-v1`);
    log(`  generating (once) ${dir}`);
    const weights = writeBertCheckpoint(dir, shape, CONFORMANCE_MODEL);
    const builds = (['fp32', 'int8'] as const).map((variant): { variant: string; report: ChildReport } => ({ variant, report: child(dir, cacheDir, variant) }));
    // The same weights as an older repo publishes them (pytorch_model.bin, torch.save's layout; written by Python's
    // pickle and zipfile, test/fixtures/torch-save.py): the build reads them through the zip and pickle readers.
    const binDir = `${dir}-pytorch-bin`;
    if (!existsSync(join(binDir, 'complete'))) {
      log(`  writing (once) ${binDir}`);
      rmSync(binDir, { recursive: true, force: true });
      pytorchBinCopy(dir, binDir);
      writeFileSync(join(binDir, 'complete'), '');
    }
    builds.push({ variant: 'fp32 from pytorch_model.bin', report: child(binDir, cacheDir, 'fp32') });
    const [fromSafetensors, fromBin] = [builds[0], builds[2]].map((b) => readFileSync(`${b.report.graphPath}.data`));
    tables.push(buildTable(shape, weights, builds, fromSafetensors.equals(fromBin)));
    const fixture = join(await cachedBertRepo(shape), 'onnx', 'model.onnx');
    const [fp32, int8] = builds.map((b) => b.report.graphPath);
    tables.push(await compare(`${quick ? 'Small' : 'Base'} BERT (${shape.layers} layers, hidden ${shape.hidden}): built graph vs inferkit's generated BERT graph`, fp32, fixture, ['built', 'generated'], threads, quick, log));
    tables.push(await compare(`${quick ? 'Small' : 'Base'} BERT: built int8 vs built fp32`, int8, fp32, ['int8', 'fp32'], threads, quick, log));
    return tables;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

interface ChildReport {
  ms: number;
  cached: boolean;
  maxRssBytes: number;
  startRssBytes: number;
  graphPath: string;
}

function child(dir: string, cacheDir: string, variant: string): ChildReport {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', dir, cacheDir, variant], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildReport;
}

function buildTable(shape: BertShape, weights: number, builds: ReadonlyArray<{ variant: string; report: ChildReport }>, binSame: boolean): Table {
  const gib = (n: number): string => `${(n / 2 ** 30).toFixed(2)} GiB`;
  return {
    title: `Building a BERT token-classification graph from its checkpoint (${shape.layers} layers, hidden ${shape.hidden}, ${(weights / 4 / 1e6).toFixed(0)} M parameters)`,
    headers: ['variant', 'build s', 'process peak RSS', 'peak RSS / weights', 'RSS before'],
    rows: builds.map(({ variant, report: r }) => [variant, (r.ms / 1000).toFixed(2), gib(r.maxRssBytes), `${(r.maxRssBytes / weights).toFixed(2)}×`, gib(r.startRssBytes)]),
    notes: [
      `Weights ${gib(weights)} F32 (random, generated once into the bench cache). Each build runs in a fresh Node process (tsx): peak RSS is its getrusage maxrss, the Node/tsx baseline included.`,
      `fp32 streams one tensor at a time (lazy initializers); "from pytorch_model.bin": the same weights saved as torch.save lays them out, read through the zip and pickle readers (src/checkpoint/pytorch/); its graph's weights ${binSame ? 'equal' : 'DIFFER FROM'} the fp32 build's byte for byte. int8 quantizes each MatMul weight at build time and holds the int8 tensors (¼ of their F32 size) until the graph is written.`,
    ],
  };
}

/** `a` vs `b` on identical token tensors: medians of alternating runs; ratio = b's time / a's time (> 1: a faster). */
async function compare(title: string, a: string, b: string, names: [string, string], threads: number, quick: boolean, log: (l: string) => void): Promise<Table> {
  const sa = await createLocalSession(a, { intraOpThreads: threads });
  const sb = await createLocalSession(b, { intraOpThreads: threads });
  const loadBefore = loadavg()[0];
  const rows: string[][] = [];
  const shapes: [number, number][] = quick ? [[1, 16], [8, 64]] : [[1, 16], [1, 64], [8, 32], [8, 128], [32, 64]];
  for (const [batch, seq] of shapes) {
    const feedsFor = (s: Session): Record<string, ReturnType<typeof int64Tensor>> => {
      const ids = BigInt64Array.from({ length: batch * seq }, (_, i) => BigInt(1000 + ((i * 7919) % 20000)));
      const all = { input_ids: int64Tensor(ids, [batch, seq]), attention_mask: int64Tensor(new BigInt64Array(batch * seq).fill(1n), [batch, seq]), token_type_ids: int64Tensor(new BigInt64Array(batch * seq), [batch, seq]) };
      return Object.fromEntries(s.inputNames.map((n) => [n, all[n as keyof typeof all]]));
    };
    const [fa, fb] = [feedsFor(sa), feedsFor(sb)];
    const once = async (s: Session, f: typeof fa): Promise<number> => {
      const t = performance.now();
      await s.run(f);
      return performance.now() - t;
    };
    for (let i = 0; i < 3; i++) {
      await once(sa, fa);
      await once(sb, fb);
    }
    const ta: number[] = [];
    const tb: number[] = [];
    const budget = quick ? 1000 : 5000;
    for (const start = performance.now(); (ta.length < 5 || performance.now() - start < budget) && ta.length < 300; ) {
      if (ta.length % 2 === 0) {
        ta.push(await once(sa, fa));
        tb.push(await once(sb, fb));
      } else {
        tb.push(await once(sb, fb));
        ta.push(await once(sa, fa));
      }
    }
    const [ma, mb] = [median(ta), median(tb)];
    rows.push([`${batch} × ${seq}`, formatSummary(summarize(ta)), formatSummary(summarize(tb)), `${(mb / ma).toFixed(2)}×`, String(ta.length)]);
    log(`  ${batch}×${seq}: ${names[0]} ${ma.toFixed(2)} ms, ${names[1]} ${mb.toFixed(2)} ms`);
  }
  await sa.release();
  await sb.release();
  return {
    title: `${title} (${threads} intra-op thread(s))`,
    headers: ['batch × tokens', `${names[0]} ms`, `${names[1]} ms`, `${names[0]} / ${names[1]} speed`, 'runs each'],
    rows,
    notes: [
      'Raw InferenceSession.run on identical tensors (graphOptimizationLevel all, cpu), the two sessions alternating run by run; medians (min–max).',
      `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadavg()[0].toFixed(2)}: on a shared machine trust the ratio more than the milliseconds.`,
    ],
  };
}

/** The BERT graph of the checkpoint in `dir`, built (or reused) as `resolveModelGraph` does once the files are local. */
async function buildBert(dir: string, cacheDir: string, variant: string): Promise<{ graphPath: string; cached: boolean }> {
  const ck = await openCheckpoint(dir);
  try {
    return await cachedGraph(ck, { family: 'bert', builderVersion: BERT_BUILDER.version, variant, cacheDir }, (c) => BERT_BUILDER.build(c, { variant }));
  } finally {
    ck.close();
  }
}

/** Child: build (or reuse) the graph and report time and peak RSS. */
async function buildInChild(dir: string, cacheDir: string, variant: string): Promise<void> {
  const startRssBytes = process.memoryUsage.rss();
  const t = performance.now();
  const r = await buildBert(dir, cacheDir, variant);
  const ms = performance.now() - t;
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify({ ms, cached: r.cached === true, maxRssBytes, startRssBytes, graphPath: r.graphPath } satisfies ChildReport)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    await buildInChild(argv[1], argv[2], argv[3]);
  } else {
    const threads = argv.includes('--threads') ? Number(argv[argv.indexOf('--threads') + 1]) : 1;
    const tables = await runTokenCheckpointBench({ quick: argv.includes('--quick'), threads });
    const { renderTable } = await import('./lib/table.js');
    process.stdout.write(`${tables.map(renderTable).join('\n\n')}\n`);
  }
}
