/**
 * server-limit's `--family`: each family's random base-sized checkpoint (bench/lib/family-checkpoints.ts) served
 * as a user serves it — `inferkit serve` of a KServe manifest with `--model_id=<folder>`, the graph built from
 * `model.safetensors` — against the in-process limit on the graph the server runs. The same loader the server
 * calls builds that graph in this process first, into the same graph cache, so both open one file. Measured with
 * server-limit.ts's own functions (measureLimit, measureTokenServer): one table, default plan, fp32, V1.
 */
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { runtimeConfig } from '../src/manifest/runtime-config.js';
import { availableCpus } from '../src/runtime/cpu-budget.js';
import { createSession, type OrtFeeds } from '../src/runtime/ort.js';
import { mappedWeights } from '../src/runtime/shared-weights/mapped-weights.js';
import { loadTextTokenizer } from '../src/runtime/token-classification/load-text-tokenizer.js';
import { loadTokenClassifier } from '../src/runtime/token-classification/load-token-classifier.js';
import { findTokenClassFiles, readJsonFile, TokenClassConfigSchema } from '../src/runtime/token-classification/model-files.js';
import { runLayout, tokenFeeds } from '../src/runtime/token-classification/run-token-logits.js';
import { cachedFamilyCheckpoint, type ServedFamily } from './lib/family-checkpoints.js';
import { formatBusy } from './lib/forecast-limit.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { formatNumber, formatRatio } from './lib/stats.js';
import type { Table } from './lib/table.js';
import { betterPass, leadLimit, manifest, measureLimit, measureServedRate, measureTokenServer, memoryCell, texts, type LimitCell, type RawB1, type TokenCell } from './server-limit.js';

/** The moderate concurrency measured beside c=32: fewer texts wait, so runs are formed from fewer lengths. */
const MODERATE = 8;

/** Options of {@link familyLimitTable}. */
export interface FamilyLimitOptions {
  /** 2-layer checkpoints (base width) for a rehearsal. */
  quick: boolean;
  /** Encoder layers. @default 12 (DistilBERT 6); quick: 2 */
  layers?: number;
  /** Time per server cell and per raw batch size, ms. */
  cellMs: number;
  /** Threads the server plans and the limit uses. */
  cpus: number;
  /** Server passes per family, each a fresh server (averaged). @default 2 */
  passes?: number;
  /** Where the checkpoints live. @default `<bench cache>/families` */
  root?: string;
  log: (line: string) => void;
}

/** The graph the server runs for `dir` and this process's feeds for `all` texts, tokenized as the server does. */
export interface FamilyGraph {
  graphPath: string;
  /** ms this process spent building the graph; undefined when it was in the cache already. */
  buildMs: number | undefined;
  ids: Map<string, number[]>;
  feeds: (texts: readonly string[]) => OrtFeeds;
}

export async function familyGraph(dir: string, all: readonly string[]): Promise<FamilyGraph> {
  // The call the server's loader makes (same cache, fp32, KServe's lower-casing default): it builds or finds the graph.
  const { disableLowerCase } = runtimeConfig(manifest(dir, 'fp32', 'v1'));
  const classifier = await loadTokenClassifier(dir, { modelName: 'limit', disableLowerCase, session: { intraOpThreads: 1 } });
  const { modelFile, inputNames, graph, packsTexts } = classifier.info;
  const buildMs = graph.from === 'checkpoint' ? graph.buildMs : undefined;
  await classifier.dispose();
  const files = await findTokenClassFiles(dir, {}, { graphPath: modelFile });
  const config = await readJsonFile(files.config, TokenClassConfigSchema);
  const tokenizer = await loadTextTokenizer(files, config, { disableLowerCase, ...(config.vocab_size !== undefined ? { embeddingRows: config.vocab_size } : {}) });
  const encoded = await tokenizer.encode(all, false);
  const ids = new Map(all.map((t, i) => [t, encoded[i].ids]));
  const plan = { padId: config.pad_token_id ?? 0, tokenTypeIds: inputNames.includes('token_type_ids'), inputIdsName: 'input_ids', attentionMaskName: 'attention_mask', tokenTypeIdsName: 'token_type_ids' };
  // A graph that packs texts gets its runs packed, as the server's runner packs them (one text: padded as ever).
  const feeds = (ts: readonly string[]): OrtFeeds => {
    const seqs = ts.map((t) => ids.get(t) ?? []);
    return tokenFeeds(seqs, plan, runLayout(seqs, { packsTexts }));
  };
  return { graphPath: modelFile, buildMs: buildMs !== undefined && buildMs > 0 ? buildMs : undefined, ids, feeds };
}

/** {@link spareCoreCell}'s answer: the served rate on one thread fewer and its limit at the same moment. */
interface SpareCore {
  threads: number;
  rate: number;
  limitAround: number;
  lead: LimitCell;
}

/**
 * The server planned on `cpus − 1` threads, so that a core is left for HTTP, JSON, tokenizing and the load generator,
 * against the limit on as many threads at the same moment: its best of batch 8 and 32, spinning off and on, measured
 * right before and right after the server's c=32 cell. What the server's own design costs, apart from the CPU its
 * requests take from the sessions when they hold every core.
 */
async function spareCoreCell(dir: string, graphPath: string, cpus: number, mix: readonly string[], feeds: (t: readonly string[]) => OrtFeeds, cellMs: number): Promise<SpareCore> {
  const threads = cpus - 1;
  const first = await measureLimit(graphPath, threads, mix, feeds, cellMs, () => undefined, { batches: [8, 32], configs: ['spin off', 'spin on'] });
  const limit = await leadLimit(graphPath, threads, first, mix, feeds, cellMs);
  try {
    const { rate, limitAround } = await measureServedRate(manifest(dir, 'fp32', 'v1'), threads, cellMs, limit.now);
    return { threads, rate, limitAround, lead: limit.lead };
  } finally {
    await limit.release();
  }
}

/** One family's row of the table: limit before and after its server passes (better per cell kept). */
async function familyRow(family: ServedFamily, o: FamilyLimitOptions): Promise<string[]> {
  const ck = cachedFamilyCheckpoint(family, { ...(o.quick ? { layers: 2 } : o.layers !== undefined ? { layers: o.layers } : {}), ...(o.root !== undefined ? { root: o.root } : {}) });
  const mixTexts = texts(32, 3);
  const loadTexts = texts(16, 11);
  const g = await familyGraph(ck.dir, [...mixTexts, ...loadTexts]);
  const tokens = (t: string) => g.ids.get(t)?.length ?? 0;
  // Sorted by the family's own token counts: the least padding batches of these texts can have.
  const mix = [...mixTexts].sort((a, b) => tokens(a) - tokens(b));
  const weightBytes = mappedWeights(g.graphPath)?.bytes ?? statSync(g.graphPath).size;
  const log = (l: string) => o.log(`  ${family} ${l}`);
  const first = await measureLimit(g.graphPath, o.cpus, mix, g.feeds, o.cellMs, log);
  // The first pass's best cell, measured again right before and right after each c=32 cell: the same moment.
  const { lead, now: limitNow, release: releaseLead } = await leadLimit(g.graphPath, o.cpus, first, mix, g.feeds, o.cellMs);
  const lone: RawB1 = { all: await createSession(g.graphPath, { intraOpThreads: o.cpus }), one: await createSession(g.graphPath, { intraOpThreads: 1 }), feeds: g.feeds };
  const cells: TokenCell[] = [];
  try {
    for (let p = 0; p < (o.passes ?? 2); p++) {
      const cell = await measureTokenServer(manifest(ck.dir, 'fp32', 'v1'), 'v1', undefined, o.cpus, o.cellMs, lone, false, MODERATE, limitNow);
      log(`served V1: c=32 ${formatNumber(cell.rate)} sentences/s (limit around it ${formatNumber(cell.limitAround)}); c=${MODERATE} ${formatNumber(cell.rateModerate)}; c=1 p50 ${formatNumber(cell.p50)} ms`);
      cells.push(cell);
    }
  } finally {
    await lone.all.release();
    await lone.one.release();
    await releaseLead();
  }
  const limit = betterPass(first, await measureLimit(g.graphPath, o.cpus, mix, g.feeds, o.cellMs, log));
  const spare = o.cpus > 1 ? await spareCoreCell(ck.dir, g.graphPath, o.cpus, mix, g.feeds, o.cellMs) : undefined;
  if (spare !== undefined) {
    log(`a core left over: served on ${spare.threads} thread(s) ${formatNumber(spare.rate)} sentences/s, limit around it ${formatNumber(spare.limitAround)}`);
  }
  const best = limit.reduce((a, b) => (b.rate > a.rate ? b : a));
  const mean = (f: (c: TokenCell) => number) => cells.reduce((a, c) => a + f(c), 0) / cells.length;
  const { split, latency } = cells[0];
  const rate = mean((c) => c.rate);
  const replicas = split.length > 1;
  return [
    `${ck.label} (${replicas ? `${split.length} replicas × ${split[0]}${latency !== undefined ? ` + latency session × ${latency}` : ''}` : `1 session × ${split[0]}`})`,
    formatNumber(loadTexts.reduce((a, t) => a + tokens(t), 0) / loadTexts.length),
    g.buildMs === undefined ? 'cached' : formatNumber(g.buildMs / 1000),
    `${formatNumber(best.rate)} (b${best.batch}, ${best.config})`,
    `${formatNumber(rate)} (${cells.map((c) => formatNumber(c.rate)).join(', ')})`,
    formatRatio(rate, best.rate),
    `${formatRatio(mean((c) => c.rate / c.limitAround), 1)} (${cells.map((c) => formatRatio(c.rate, c.limitAround)).join(', ')}; limit b${lead.batch} ${lead.config} ${formatNumber(mean((c) => c.limitAround))})`,
    `${formatNumber(mean((c) => c.rateModerate))} (${formatRatio(mean((c) => c.rateModerate), best.rate)})`,
    formatNumber(mean((c) => c.perCall)),
    formatBusy(mean((c) => c.busy)),
    formatNumber(mean((c) => c.p50)),
    `${formatNumber(mean((c) => c.b1All))} / ${replicas ? formatNumber(mean((c) => c.b1One)) : '–'}`,
    formatNumber(mean((c) => c.p50 - (replicas ? Math.min(c.b1All, c.b1One) : c.b1All))),
    memoryCell(mean((c) => c.loadRssBytes), mean((c) => c.loadPssBytes), weightBytes),
    memoryCell(mean((c) => c.rssBytes), mean((c) => c.pssBytes), weightBytes),
    spare === undefined ? '–' : `${formatRatio(spare.rate, spare.limitAround)} (${formatNumber(spare.rate)} / ${formatNumber(spare.limitAround)}, b${spare.lead.batch} ${spare.lead.config})`,
  ];
}

/** "Served vs the in-process limit per family": one row per family in `families`, measured in turn. */
export async function familyLimitTable(families: readonly ServedFamily[], o: FamilyLimitOptions): Promise<Table> {
  const affinity = availableCpus().affinity;
  const loadBefore = loadavg()[0];
  const rows: string[][] = [];
  for (const family of families) {
    rows.push(await familyRow(family, o));
  }
  const loadAfter = loadavg()[0];
  const busy = loadBefore > 0.5 * affinity;
  const passes = o.passes ?? 2;
  return {
    title: `Served vs the in-process limit per family (default plan, fp32, V1, c=32 and c=1)${o.quick ? ', quick: 2 layers' : ''}, ${o.cpus} threads${busy ? ' — BUSY MACHINE' : ''}`,
    headers: ['family checkpoint (server sessions × threads)', 'tokens per load text (mean)', 'graph build s (this run)', 'limit sent/s (best batch, config)', 'server c=32 sent/s (mean of passes)', 'server / limit', 'server / limit at the same moment (per pass; the limit\'s first-pass best cell, mean of right before and right after)', `server c=${MODERATE} sent/s (/ limit)`, 'texts per merged call (c=32)', 'replicas busy (c=32)', 'server c=1 p50 ms', 'raw b1 ms, same texts (all threads / 1 thread)', 'c=1 p50 − faster b1 ms', 'model memory at load (serve\'s line): RSS / PSS growth GiB (× weights)', 'model memory after c=32: RSS / PSS growth GiB (× weights)', `a core left over: server on ${o.cpus - 1} thread(s) / limit on as many, same moment (sent/s)`],
    rows,
    notes: [
      `Load average (1 min) before ${loadBefore.toFixed(2)}, after ${loadAfter.toFixed(2)} on ${affinity} CPUs${busy ? ': the machine was busy, so absolute numbers and ratios are noisy' : ''}.`,
      'Checkpoints: random F32 weights of each family\'s base width (hidden 768, 12 heads, FFN 3072; 12 layers, DistilBERT 6 as distilbert-base) written as config.json + model.safetensors (bench/lib/family-checkpoints.ts, seeded, generated once under the bench cache), each with its family\'s tiny conformance tokenizer.json (../shared/conformance/kserve-hf-*/model; ELECTRA takes BERT\'s) and vocab_size written to match it: 30,522 WordPiece pieces for BERT, DistilBERT and ELECTRA (their real size); 2,000 / 3,000 / 2,500 pieces for RoBERTa / XLM-R / DeBERTa-v3 (real: 50,265 / 250,002 / 128,100). The vocabulary size changes only the embedding gather, not the encoder\'s cost — but it does shrink those three\'s weights, so their model memory is against smaller weights than the real checkpoints. The small tokenizers cut the bench words into more pieces (tokens per load text), which the limit sees too.',
      `Server = inferkit serve of a KServe manifest (--model_id=<folder>, --task=token_classification, fp32, V1, defaultLoaders: the graph built from model.safetensors, server defaults for the plan and batching, the event loop at nice +10 once loaded as inferkit serve runs it), one single-text request per call, ${o.cellMs} ms per cell, load generator in a child process (server-limit's measureTokenServer; the c=32 throughput cell without health probes); ${passes} passes per family, each a fresh server, averaged (passes in brackets). Graph build s: the build in this process before the server starts (the server reuses it from the same graph cache); "cached" when an earlier run built it.`,
      `Limit = server-limit's measureLimit on the graph the server runs: the 32-text mix tokenized with the family's tokenizer, sorted by token count, cut into batches of 1, 8 or 32 (packed into rows as the server's runs are: every family's graph here is built from its checkpoint and packs), on one session with ${o.cpus} intra-op threads spinning off and on${o.cpus > 1 ? ` and ${o.cpus} one-thread sessions in worker threads side by side` : ''}; the better of a pass before and after the server passes per cell, the best cell is the limit. Raw b1: batch-1 medians on the c=1 load's texts right before each c=1 cell; the c=1 column is each pass's p50 minus its faster raw b1, averaged. Model memory, as in the generated-BERT tables: at load, what inferkit serve prints per model (the RSS / PSS growth while its sessions opened and made their load-time runs); after c=32, this process's growth from before the server started to the end of its c=32 cell; both against the graph's weights.`,
      `A core left over: the same server planned on ${o.cpus - 1} thread(s) (one fresh server, V1, c=32 after a 1 s warm-up), against the limit on as many threads (its best of batch 8 and 32, spinning off and on, measured first; that cell again right before and right after the server's, their mean). The sessions then leave a core to HTTP, JSON, tokenizing and the load generator, so the ratio is what the server's own path costs (batch composition, hand-over, idle gaps), apart from the CPU its requests take from sessions that hold every core.`,
      'Same moment: before and after each c=32 cell, the limit\'s best cell of the first pass (its batch and configuration) is measured again for one cell; the pass\'s ratio is its c=32 rate over the mean of the two. The best-of-all-passes column takes the limit\'s best of 24 cells (12 per pass, each a median), which on a machine that drifts ±15% over minutes reads high; the same-moment ratio is what the server costs against the limit at that moment.',
      `Machine: ${machineLine(machineInfo())}.`,
    ],
  };
}
