import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeChronosFixtureRepo, writeTokenClassifierRepo } from '../../src/onnx/model-repo.js';
import { benchVocab } from './bench-text.js';

/** Where generated benchmark graphs live: `INFERKIT_BENCH_CACHE`, else `~/.cache/inferkit-bench` (outside the repo). */
export function benchCacheDir(): string {
  const fromEnv = process.env.INFERKIT_BENCH_CACHE;
  return fromEnv && fromEnv.length > 0 ? fromEnv : join(homedir(), '.cache', 'inferkit-bench');
}

/** Shape of a generated BERT token classifier. BERT-base: 12 layers, 768 hidden, 12 heads, 3072 FFN. */
export interface BertShape {
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
}

/** BERT-base (the shape of dslim/bert-base-NER). */
export const BERT_BASE: BertShape = { layers: 12, hidden: 768, heads: 12, intermediate: 3072 };
/** A small BERT for `--quick` runs. */
export const BERT_SMALL: BertShape = { layers: 2, hidden: 128, heads: 2, intermediate: 512 };

// Bump when the generator or the vocabulary changes, so stale graphs are not reused.
const GRAPH_VERSION = 'v1';

/**
 * A hub-style token-classification repo of `shape` (vocabulary 30,522, 9 CoNLL labels, random
 * weights) under the bench cache; generated once (BERT-base: ~436 MB, a few seconds) and reused.
 */
export async function cachedBertRepo(shape: BertShape): Promise<string> {
  const dir = join(benchCacheDir(), `bert-L${shape.layers}-H${shape.hidden}-A${shape.heads}-I${shape.intermediate}-${GRAPH_VERSION}`);
  if (!existsSync(join(dir, 'onnx', 'model.onnx'))) {
    await writeTokenClassifierRepo(dir, { vocab: benchVocab(), lowercase: true, model: { ...shape, seed: 7 } });
  }
  return dir;
}

/** Shape of a generated Chronos-Bolt-like forecaster. Chronos-Bolt-small: d 512, 6 layers, 8 heads, FFN 2048. */
export interface BoltShape {
  contextLength: number;
  predictionLength: number;
  patchSize: number;
  dModel: number;
  layers: number;
  heads: number;
  dFF: number;
}

/** Chronos-Bolt-small's compute shape, context 2,048 and horizon 64 as the real model. */
export const BOLT_SMALL: BoltShape = { contextLength: 2048, predictionLength: 64, patchSize: 16, dModel: 512, layers: 6, heads: 8, dFF: 2048 };
/** A tiny bolt-like graph for `--quick` runs. */
export const BOLT_TINY: BoltShape = { contextLength: 512, predictionLength: 64, patchSize: 16, dModel: 64, layers: 2, heads: 4, dFF: 256 };

/** The 9 quantile levels Chronos-Bolt predicts. */
export const BOLT_QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

/** A Chronos-Bolt-style repo (config.json + onnx/model.onnx, random weights) under the bench cache, generated once. */
export async function cachedBoltRepo(shape: BoltShape): Promise<string> {
  const s = shape;
  const dir = join(benchCacheDir(), `bolt-C${s.contextLength}-H${s.predictionLength}-P${s.patchSize}-D${s.dModel}-L${s.layers}-A${s.heads}-F${s.dFF}-${GRAPH_VERSION}`);
  if (!existsSync(join(dir, 'onnx', 'model.onnx'))) {
    await writeChronosFixtureRepo(dir, { kind: 'bolt-like', ...s, quantiles: [...BOLT_QUANTILES], seed: 7 });
  }
  return dir;
}

/**
 * Adds `onnx/model_quantized.onnx` to a {@link cachedBertRepo} folder: the same seed's weights,
 * dynamically int8-quantized as onnxruntime's `quantize_dynamic` writes it (generated once).
 */
export async function ensureQuantizedBert(dir: string, shape: BertShape): Promise<string> {
  const path = join(dir, 'onnx', 'model_quantized.onnx');
  if (!existsSync(path)) {
    const { buildBertTokenClassifier } = await import('../../src/onnx/bert-token-classifier.js');
    const { writeFile, rename } = await import('node:fs/promises');
    const bytes = buildBertTokenClassifier({ ...shape, seed: 7, vocabSize: benchVocab().length, numLabels: 9, quantize: true });
    await writeFile(`${path}.incomplete`, bytes);
    await rename(`${path}.incomplete`, path);
  }
  return path;
}
