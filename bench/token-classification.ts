/**
 * Token-classification throughput on a BERT-base-shaped graph (12 layers, 768 hidden, 9 labels,
 * random weights, generated once into ~/.cache/inferkit-bench): sentences/s and tokens/s at batch
 * 1, 8, 32 for (a) raw `InferenceSession.run` on pre-tokenized tensors, (a') the same fed by
 * inferkit's tokenizer and fresh tensors each call, (b) inferkit end to end
 * (`predictV1`, and `classify` with simple aggregation), (c) transformers.js
 * `pipeline('token-classification')` on the same folder when installed. Plus: padding cut by
 * sorting by length within a request. Run: `npx tsx bench/token-classification.ts [--quick] [--threads N] [--repeats N] [--no-sorting]`.
 */
import { pathToFileURL } from 'node:url';
import { loadTokenClassifier } from '../src/runtime/token-classification/load-token-classifier.js';
import { benchText, benchWords } from './lib/bench-text.js';
import type { BenchOptions, BenchResult } from './lib/bench-result.js';
import { BERT_BASE, BERT_SMALL, cachedBertRepo } from './lib/graph-cache.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { measureInterleaved, type Measurement } from './lib/measure.js';
import { withPeakRss } from './lib/rss.js';
import { formatNumber, formatRatio, rateOf } from './lib/stats.js';
import { renderTable, type Table } from './lib/table.js';
import { openTextContenders } from './lib/text-contenders.js';

/** Options of {@link runTokenClassificationBench}. */
export interface TokenClassificationBenchOptions extends BenchOptions {
  /** Thread counts to measure; `threads` (run-all) narrows it to one. @default [1, 2] */
  threadCounts?: number[];
  /** @default [1, 8, 32] */
  batchSizes?: number[];
  /** Texts per timed pass (mixed lengths, 8–40 words). @default 32 */
  texts?: number;
  /** Timed passes per cell, after one warm-up pass. @default 3 */
  repeats?: number;
  /** Also measure sorting by length vs input order (32 mixed texts, batches of 8). @default true */
  sorting?: boolean;
}

const WORD_COUNTS = [8, 40, 12, 24, 16, 32, 10, 20];

/** Mixed-length bench texts: every word one token, so a text is words + 2 tokens. */
function mixedTexts(count: number, seed: number): string[] {
  const pool = benchWords();
  return Array.from({ length: count }, (_, i) => benchText(WORD_COUNTS[i % WORD_COUNTS.length], seed * 7919 + i, pool));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

/** Runs the benchmark and returns its markdown tables (also what run-all prints). */
export async function runTokenClassificationBench(options: TokenClassificationBenchOptions = {}): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const shape = options.quick ? BERT_SMALL : BERT_BASE;
  const threadCounts = options.threads !== undefined ? [options.threads] : (options.threadCounts ?? [1, 2]);
  const batchSizes = options.batchSizes ?? [1, 8, 32];
  const count = options.texts ?? 32;
  const runs = options.repeats ?? 3;
  const { value: tables, rss } = await withPeakRss(async () => {
    log(`token-classification: graph ${JSON.stringify(shape)} (generated once, then cached)`);
    const dir = await cachedBertRepo(shape);
    const texts = mixedTexts(count, 1);
    const totalTokens = texts.reduce((n, t) => n + t.split(' ').length + 2, 0);
    const rows: string[][] = [];
    let peerNote = '';
    for (const threads of threadCounts) {
      const c = await openTextContenders(dir, { threads });
      peerNote = c.peer ? `transformers.js ${c.peer.version}, aggregation 'simple'` : `transformers.js: not installed / not available (${c.peerReason})`;
      try {
        const before = c.classifier.stats().tokens;
        await c.classifier.predictTokenIds(texts);
        if (c.classifier.stats().tokens - before !== totalTokens) {
          throw new Error('inferkit tokenized the bench texts differently from the raw feeds');
        }
        for (const batch of batchSizes) {
          log(`token-classification: threads ${threads}, batch ${batch}`);
          const parts = chunks(texts, batch);
          const feeds = parts.map((p) => c.feeds(p));
          const contenders: Record<string, () => Promise<unknown>> = {
            raw: async () => {
              for (const f of feeds) {
                await c.raw.run(f);
              }
            },
            rawTokenized: async () => {
              for (const p of parts) {
                await c.raw.run(await c.tokenizedFeeds(p));
              }
            },
            v1: async () => {
              for (const p of parts) {
                await c.classifier.predictV1({ instances: p });
              }
            },
            entities: async () => {
              for (const p of parts) {
                await c.classifier.classify(p, { aggregation: 'simple' });
              }
            },
          };
          const peer = c.peer;
          if (peer) {
            contenders.peer = async () => {
              for (const p of parts) {
                await peer.classify(p);
              }
            };
          }
          const m = await measureInterleaved(contenders, { warmup: 1, runs });
          rows.push(throughputRow(threads, batch, m, count, totalTokens));
        }
      } finally {
        await c.dispose();
      }
    }
    const out: Table[] = [
      {
        title: `Token classification throughput (${options.quick ? 'small BERT, 2 layers' : 'BERT-base shape'}, ${count} texts of 10–42 tokens, ${totalTokens} tokens per pass; medians of ${runs} passes)`,
        headers: ['threads', 'batch', '(a) raw sent/s', '(a) raw tok/s', "(a') tokenize + raw sent/s", '(b) V1 sent/s', '(b) V1 tok/s', '(b)/(a)', "(b)/(a')", "(b') entities sent/s", "(b')/(a)", '(c) transformers.js sent/s', "(b')/(c)"],
        rows,
        notes: [
          "(a) `InferenceSession.run` on pre-built int64 tensors (tokenization excluded: the limit); (a') the same session fed by inferkit's tokenizer with fresh tensors each call (the end-to-end limit: what any pipeline must do before the run, with none of inferkit's batching, argmax or response); (b) `predictV1` end to end (tokenize, pad, mask, run, argmax, response); (b') `classify` with simple aggregation (softmax, offsets, grouping).",
          'Same batches for every contender: the pass splits the texts into requests of `batch` texts in the same order; tokens/s counts real tokens, not padding.',
          peerNote,
        ],
      },
    ];
    if (options.sorting ?? true) {
      out.push(await sortingTable(dir, threadCounts[0], runs, log));
    }
    return out;
  });
  return { tables, peakRssBytes: rss.peakBytes, notes: [machineLine(machineInfo())] };
}

function throughputRow(threads: number, batch: number, m: Record<string, Measurement>, count: number, tokens: number): string[] {
  const sent = (k: string) => (m[k] ? rateOf(m[k], count).median : Number.NaN);
  const tok = (k: string) => (m[k] ? rateOf(m[k], tokens).median : Number.NaN);
  return [
    String(threads),
    String(batch),
    formatNumber(sent('raw')),
    formatNumber(tok('raw')),
    formatNumber(sent('rawTokenized')),
    formatNumber(sent('v1')),
    formatNumber(tok('v1')),
    formatRatio(sent('v1'), sent('raw')),
    formatRatio(sent('v1'), sent('rawTokenized')),
    formatNumber(sent('entities')),
    formatRatio(sent('entities'), sent('raw')),
    m.peer ? formatNumber(sent('peer')) : 'not installed',
    m.peer ? formatRatio(sent('entities'), sent('peer')) : 'n/a',
  ];
}

/** One request of 32 mixed-length texts with maxBatchSize 8: grouped by length vs input order. */
async function sortingTable(dir: string, threads: number, runs: number, log: (l: string) => void): Promise<Table> {
  log('token-classification: sorting by length vs input order');
  const texts = mixedTexts(32, 2);
  const session = { intraOpThreads: threads };
  const sorted = await loadTokenClassifier(dir, { modelName: 'sorted', maxBatchSize: 8, sortByLength: true, session });
  const plain = await loadTokenClassifier(dir, { modelName: 'plain', maxBatchSize: 8, sortByLength: false, session });
  try {
    const m = await measureInterleaved(
      { sorted: () => sorted.predictV1({ instances: texts }), plain: () => plain.predictV1({ instances: texts }) },
      { warmup: 1, runs },
    );
    const lengths = texts.map((t) => t.split(' ').length + 2);
    const padded = (order: number[]) => chunks(order, 8).reduce((n, c) => n + c.length * Math.max(...c.map((i) => lengths[i])), 0);
    const idx = lengths.map((_, i) => i);
    const bySize = [...idx].sort((a, b) => lengths[b] - lengths[a]);
    const real = lengths.reduce((a, b) => a + b, 0);
    return {
      title: `Sorting by length within a request (32 texts of 10–42 tokens, maxBatchSize 8, ${threads} thread(s))`,
      headers: ['order', 'sent/s', 'tokens fed incl. padding', 'vs input order'],
      rows: [
        ['input order', formatNumber(rateOf(m.plain, texts.length).median), `${padded(idx)} (${real} real)`, '1.00×'],
        ['sorted by length (default)', formatNumber(rateOf(m.sorted, texts.length).median), `${padded(bySize)} (${real} real)`, formatRatio(m.plain.median, m.sorted.median)],
      ],
    };
  } finally {
    await sorted.dispose();
    await plain.dispose();
  }
}

function parseArgs(argv: readonly string[]): TokenClassificationBenchOptions {
  const opts: TokenClassificationBenchOptions = { log: (l) => process.stderr.write(`  ${l}\n`) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') {
      opts.quick = true;
    } else if (argv[i] === '--threads') {
      opts.threads = Number(argv[++i]);
    } else if (argv[i] === '--repeats') {
      opts.repeats = Number(argv[++i]);
    } else if (argv[i] === '--no-sorting') {
      opts.sorting = false;
    } else {
      throw new Error(`unknown option ${argv[i]} (--quick, --threads N, --repeats N, --no-sorting)`);
    }
  }
  return opts;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runTokenClassificationBench(parseArgs(process.argv.slice(2)))
    .then((r) => {
      process.stdout.write(`${machineLine(machineInfo())}\n\n${r.tables.map(renderTable).join('\n\n')}\n`);
    })
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
