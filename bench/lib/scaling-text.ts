import { BERT_BASE, BERT_SMALL, cachedBertRepo } from './graph-cache.js';
import { benchTexts } from './bench-text.js';
import type { BenchOptions } from './bench-result.js';
import { measureInterleaved } from './measure.js';
import { formatNumber, formatRatio, formatSummary } from './stats.js';
import type { Table } from './table.js';
import { openTextContenders } from './text-contenders.js';

/**
 * Token classification cost vs text length (8 → 512 tokens, [CLS]/[SEP] included), one text per
 * call, on the BERT-base-shaped graph (BERT_SMALL with `quick`): raw ORT on pre-tokenized tensors,
 * inferkit V1 (`predictV1`), inferkit entities (`classify`, simple aggregation), transformers.js.
 */
export async function textLengthScaling(options: BenchOptions): Promise<Table> {
  const log = options.log ?? (() => undefined);
  const shape = options.quick ? BERT_SMALL : BERT_BASE;
  const dir = await cachedBertRepo(shape);
  const lengths = options.quick ? [8, 32, 128, 512] : [8, 32, 128, 512];
  const runs = options.quick ? 3 : 5;
  const c = await openTextContenders(dir, { threads: options.threads });
  const rows: string[][] = [];
  try {
    for (const tokens of lengths) {
      const texts = benchTexts(1, tokens - 2, tokens);
      const got = (await c.classifier.predictTokenIds(texts)).classIds[0].length;
      if (got !== tokens) {
        throw new Error(`bench text tokenized to ${got} tokens, expected ${tokens}`);
      }
      const feeds = c.feeds(texts);
      log(`scaling/text: ${tokens} tokens`);
      const contenders: Record<string, () => Promise<unknown>> = {
        raw: () => c.raw.run(feeds),
        v1: () => c.classifier.predictV1({ instances: texts }),
        entities: () => c.classifier.classify(texts),
      };
      if (c.peer) {
        const peer = c.peer;
        contenders.peer = () => peer.classify(texts);
      }
      const m = await measureInterleaved(contenders, { warmup: 1, runs, budgetMs: options.quick ? 2_000 : 40_000, minRuns: 3 });
      rows.push([
        String(tokens),
        formatSummary(m.raw),
        formatSummary(m.v1),
        formatSummary(m.entities),
        m.peer ? formatSummary(m.peer) : 'not available',
        formatNumber((m.raw.median * 1000) / tokens),
        formatNumber((m.entities.median * 1000) / tokens),
        formatRatio(m.raw.median, m.v1.median),
        formatRatio(m.raw.median, m.entities.median),
        m.peer ? formatRatio(m.peer.median, m.entities.median) : 'n/a',
      ]);
    }
  } finally {
    await c.dispose();
  }
  return {
    title: `Token classification vs text length (${options.quick ? 'small BERT, 2 layers' : 'BERT-base shape'}, 1 text per call, ms per call)`,
    headers: [
      'tokens',
      'raw ORT ms',
      'inferkit V1 ms',
      'inferkit entities ms',
      'transformers.js ms',
      'raw µs/token',
      'entities µs/token',
      'V1 / raw',
      'entities / raw',
      'entities vs transformers.js',
    ],
    rows,
    notes: [
      'Ratios are throughput ratios (raw ms ÷ inferkit ms): 1.00× = as fast as the raw session; "vs transformers.js" > 1 means inferkit is faster.',
      'Per-token cost rising with length is attention (quadratic in tokens); flat per-token cost means linear growth.',
      c.peer ? `transformers.js ${c.peer.version}, pipeline('token-classification', aggregation 'simple').` : `transformers.js not available: ${c.peerReason}`,
    ],
  };
}
