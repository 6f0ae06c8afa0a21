import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { toColumns } from '../../src/data/columns.js';
import { parseTimestamp } from '../../src/data/timestamps.js';
import { shortFloat32 } from '../../src/protocol/forecast/forecast.js';
import { benchFrame } from '../batch-forecast.js';
import type { BenchOptions, BenchResult } from './bench-result.js';
import { topSelfTime, type CpuProfile } from './cpu-profile.js';
import { measure } from './measure.js';
import { formatNumber, formatRatio, formatSummary } from './stats.js';
import type { Table } from './table.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

const JOBS = [
  { what: 'token', title: 'inferkit token classification end to end (classify + predictV1, 32 texts of 26 tokens, small BERT)', quick: 3, full: 20 },
  { what: 'forecast', title: 'inferkit forecast end to end (localForecaster, 512 series × 256 points, horizon 64, 3 quantiles, tiny bolt-like graph)', quick: 2, full: 8 },
  { what: 'batch', title: 'batchForecast from a DataFrame (2,000 series × 48 points, seasonal naive)', quick: 1, full: 3 },
] as const;

async function profileOne(what: string, iterations: number, dir: string): Promise<{ ms: number; profile: CpuProfile }> {
  const out = join(dir, `${what}.cpuprofile`);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(here, 'profile-target.ts'), what, String(iterations), out], {
    cwd: root,
    maxBuffer: 1 << 20,
    timeout: 300_000,
  });
  const line = stdout.trim().split('\n').pop() ?? '{}';
  const { ms } = JSON.parse(line) as { ms: number };
  return { ms, profile: JSON.parse(await readFile(out, 'utf8')) as CpuProfile };
}

/** Before/after of the waste the profiles show, measured on bench-local alternatives (src is not edited here). */
async function alternatives(quick: boolean): Promise<Table> {
  const frame = benchFrame(quick ? 500 : 2000);
  const rows = frame.shape[0];
  const opts = { warmup: 1, runs: quick ? 3 : 5 };
  const cols = await measure(() => toColumns(frame), opts);
  const direct = await measure(() => (frame as unknown as { getColumnData: unknown[][] }).getColumnData.map((c) => [...c]), opts);
  const stamps = toColumns(frame).get('timestamp') as string[];
  const perRow = await measure(() => stamps.map((s) => parseTimestamp(s)), opts);
  const memo = await measure(() => {
    const cache = new Map<string, ReturnType<typeof parseTimestamp>>();
    return stamps.map((s) => {
      if (!cache.has(s)) {
        cache.set(s, parseTimestamp(s));
      }
      return cache.get(s);
    });
  }, opts);
  // One forecast response of 512 series × 64 steps × (mean + 3 quantiles).
  const values = Float32Array.from({ length: 512 * 64 * 4 }, (_, i) => 100 + 10 * Math.sin(i / 7));
  const short = await measure(() => Array.from(values, shortFloat32), opts);
  const plain = await measure(() => Array.from(values), opts);
  return {
    title: 'Before/after on the waste found (bench-local alternatives; src unchanged)',
    headers: ['where', 'what', 'now ms', 'alternative', 'alternative ms', 'speed-up'],
    rows: [
      ['src/data/columns.ts toColumns', `read ${rows.toLocaleString('en-US')} rows × 3 columns of a DataFrame via frame.column(n).values (builds an indexed Series per column)`, formatSummary(cols), 'frame.getColumnData (column arrays, copied)', formatSummary(direct), formatRatio(cols.median, direct.median)],
      ['src/data/timestamps.ts parseTimestamp (from frameToInputs)', `parse ${stamps.length.toLocaleString('en-US')} timestamp cells, each twice by regex (isIsoTimestamp, then again) + Date`, formatSummary(perRow), 'memoise per distinct string (a long frame repeats the same 48 stamps)', formatSummary(memo), formatRatio(perRow.median, memo.median)],
      ['src/protocol/forecast/forecast.ts shortFloat32 (assemble)', `round ${values.length.toLocaleString('en-US')} output values to the shortest float32 decimal (up to 4 toPrecision + Number per value)`, formatSummary(short), 'Array.from(float32) (no rounding; round only when writing JSON for humans)', formatSummary(plain), formatRatio(short.median, plain.median)],
    ],
  };
}

/**
 * Profiles the hot paths once, each in its own process (warm-up first, then a V8 CPU profile of
 * the timed iterations through node:inspector), lists the top self-time functions, and measures
 * the alternatives to what does not belong there.
 */
export async function runProfileBench(options: BenchOptions = {}): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-prof-'));
  const tables: Table[] = [];
  try {
    for (const job of JOBS) {
      const iterations = options.quick ? job.quick : job.full;
      log(`profile: ${job.what} × ${iterations}`);
      const { ms, profile } = await profileOne(job.what, iterations, dir);
      const top = topSelfTime(profile, root, 10);
      tables.push({
        title: `Profile: ${job.title}`,
        headers: ['function (file)', 'self ms', '% of busy'],
        rows: top.rows.map((r) => [r.fn, formatNumber(r.selfMs), `${r.percent.toFixed(1)}%`]),
        notes: [`${iterations} iterations in ${formatNumber(ms)} ms; main thread busy ${formatNumber(top.busyMs)} ms, idle ${formatNumber(top.idleMs)} ms. "native, called from … backend.js" is InferenceSession.run (it runs on the main thread); "… load-text-tokenizer.ts" is the tokenizers addon.`],
      });
    }
    log('profile: alternatives');
    tables.push(await alternatives(options.quick ?? false));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { tables, notes: PROFILE_FINDINGS };
}

/** What the profiles show (read from a run on the 2-core machine; the tables above are regenerated each run). */
export const PROFILE_FINDINGS: string[] = [
  'Token classification: ONNX Runtime dominates ("native, called from backend.js" is InferenceSession.run: most of the main-thread time even on the 2-layer graph); inferkit\'s own JS (tokenizer glue, softmax, grouping) is a few percent. No tokenizer re-creation, no JSON round trips found. Note that onnxruntime-node runs `run()` on the main thread: the event loop is blocked during inference (matters for the server and for RSS sampling).',
  'Forecast end to end: `shortFloat32` (forecast.ts `assemble`) is the largest self-time item (~30% on the tiny graph): up to 4 `toPrecision` + `Number` per output value. Rounding for readability belongs at JSON serialisation for humans, not in the in-kernel path (or use a cheaper exact method). Next: planInput (Float32Array.from of number[]), interpolateQuantiles, zod parsing — all proportional to the data, none redundant.',
  'Batch forecast from a DataFrame: `toColumns` reads columns through `frame.column(n).values`, which builds an indexed danfojs Series per column (24–60× slower than `frame.getColumnData`, which returns the column arrays; it took ~1 s for 96k rows on a loaded run). `parseTimestamp` validates every cell with `isIsoTimestamp` and then parses it again with the same regex; a long frame repeats the same few timestamps, so memoising per string makes it 6–14× faster (table above). GC is 14% of that profile (per-row objects in frameToInputs).',
  '`__name` frames (src/data/timestamps.ts) come from tsx/esbuild\'s keepNames helper and do not exist in the tsc build.',
];
