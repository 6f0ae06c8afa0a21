/**
 * DeBERTa-v3 token classifiers built from safetensors (issue 25, item 5):
 * 1. build — a random `DebertaV2ForTokenClassification` of deberta-v3-base's shape (12 layers, hidden 768, 12 heads,
 *    FFN 3072, 128,100-piece vocabulary, 256 position buckets: 184 M parameters; `--quick`: 2 layers, 2,500 pieces),
 *    generated once into the bench cache, built in a fresh process per variant (openCheckpoint + the builder + the
 *    graph cache): wall time and the process's peak RSS against the weights' size, fp32 and int8;
 * 2. speed — the built int8 graph vs the built fp32 on identical tensors, alternating runs.
 * Run: `npx tsx bench/deberta-checkpoint-build.ts [--quick] [--threads N]` (env `INFERKIT_BENCH_CACHE`: the bench cache).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEBERTA_V2_BUILDER } from '../src/checkpoint/families/deberta-v2.js';
import { cachedGraph } from '../src/checkpoint/graph-cache.js';
import { openCheckpoint } from '../src/checkpoint/safetensors.js';
import { createLocalSession, int64Tensor } from '../src/runtime/ort.js';
import { benchCacheDir } from './lib/graph-cache.js';
import { DEBERTA_HIDDEN as HIDDEN, writeDebertaCheckpoint } from './lib/deberta-checkpoint.js';
import { formatSummary, median, summarize } from './lib/stats.js';
import type { Table } from './lib/table.js';

const BASE = { layers: 12, vocab: 128100 };
const QUICK = { layers: 2, vocab: 2500 };
interface ChildReport {
  ms: number;
  maxRssBytes: number;
  graphPath: string;
}

async function build(dir: string, cacheDir: string, variant: string): Promise<string> {
  const ck = await openCheckpoint(dir);
  try {
    const r = await cachedGraph(ck, { family: 'deberta-v2', builderVersion: DEBERTA_V2_BUILDER.version, variant, cacheDir }, (c) => DEBERTA_V2_BUILDER.build(c, { variant }));
    return r.graphPath;
  } finally {
    ck.close();
  }
}

function child(dir: string, cacheDir: string, variant: string): ChildReport {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', dir, cacheDir, variant], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildReport;
}

/** Both parts; returns their tables. */
export async function runDebertaCheckpointBench(options: { quick?: boolean; threads?: number; log?: (line: string) => void } = {}): Promise<Table[]> {
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const threads = options.threads ?? 1;
  const shape = options.quick === true ? QUICK : BASE;
  const dir = join(benchCacheDir(), `deberta-v3-checkpoint-L${shape.layers}-V${shape.vocab}-v1`);
  log(`  generating (once) ${dir}`);
  const weights = writeDebertaCheckpoint(dir, shape.layers, shape.vocab);
  const cacheDir = mkdtempSync(join(tmpdir(), 'inferkit-deberta-bench-'));
  try {
    const builds = ['fp32', 'int8'].map((variant) => ({ variant, r: child(dir, cacheDir, variant) }));
    const gib = (n: number): string => `${(n / 2 ** 30).toFixed(2)} GiB`;
    const buildTable: Table = {
      title: `Building a DeBERTa-v3 token-classification graph from safetensors (${shape.layers} layers, hidden ${HIDDEN}, ${(weights / 4 / 1e6).toFixed(0)} M parameters)`,
      headers: ['variant', 'build s', 'process peak RSS', 'peak RSS / weights'],
      rows: builds.map(({ variant, r }) => [variant, (r.ms / 1000).toFixed(2), gib(r.maxRssBytes), `${(r.maxRssBytes / weights).toFixed(2)}×`]),
      notes: [`Weights ${gib(weights)} F32 (random). Each build in a fresh Node process (tsx): peak RSS is its getrusage maxrss, Node/tsx included. Load average ${loadavg()[0].toFixed(2)}.`],
    };
    const [fp32, int8] = builds.map((b) => b.r.graphPath);
    const sa = await createLocalSession(int8, { intraOpThreads: threads });
    const sb = await createLocalSession(fp32, { intraOpThreads: threads });
    const rows: string[][] = [];
    for (const [batch, seq] of options.quick === true ? [[1, 16], [8, 64]] : [[1, 16], [8, 32], [8, 128]]) {
      const feeds = { input_ids: int64Tensor(BigInt64Array.from({ length: batch * seq }, (_, i) => BigInt(5 + ((i * 7919) % (shape.vocab - 5)))), [batch, seq]), attention_mask: int64Tensor(new BigInt64Array(batch * seq).fill(1n), [batch, seq]) };
      const once = async (s: typeof sa): Promise<number> => {
        const t = performance.now();
        await s.run(feeds);
        return performance.now() - t;
      };
      await once(sa);
      await once(sb);
      const [ta, tb]: [number[], number[]] = [[], []];
      for (const start = performance.now(); ta.length < 5 || (performance.now() - start < 4000 && ta.length < 100); ) {
        ta.push(await once(sa));
        tb.push(await once(sb));
      }
      rows.push([`${batch} × ${seq}`, formatSummary(summarize(ta)), formatSummary(summarize(tb)), `${(median(tb) / median(ta)).toFixed(2)}×`, String(ta.length)]);
      log(`  ${batch}×${seq}: int8 ${median(ta).toFixed(1)} ms, fp32 ${median(tb).toFixed(1)} ms`);
    }
    await sa.release();
    await sb.release();
    const speedTable: Table = {
      title: `DeBERTa-v3 built int8 vs built fp32 (${threads} intra-op thread(s))`,
      headers: ['batch × tokens', 'int8 ms', 'fp32 ms', 'int8 / fp32 speed', 'runs each'],
      rows,
      notes: ['Raw InferenceSession.run on identical tensors, alternating; medians (min–max).'],
    };
    return [buildTable, speedTable];
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    const t = performance.now();
    const graphPath = await build(argv[1], argv[2], argv[3]);
    process.stdout.write(`${JSON.stringify({ ms: performance.now() - t, maxRssBytes: process.resourceUsage().maxRSS * 1024, graphPath } satisfies ChildReport)}\n`);
  } else {
    const threads = argv.includes('--threads') ? Number(argv[argv.indexOf('--threads') + 1]) : 1;
    const tables = await runDebertaCheckpointBench({ quick: argv.includes('--quick'), threads });
    const { renderTable } = await import('./lib/table.js');
    process.stdout.write(`${tables.map(renderTable).join('\n\n')}\n`);
  }
}
