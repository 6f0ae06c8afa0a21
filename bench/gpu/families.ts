/**
 * The checkpoint-built families gpu-bench measures on the GPU (`--families`): each generates a random-weight
 * checkpoint with the benches' generators (seeded: the same bytes on every machine), builds its graph through
 * `resolveModelGraph` (what a user's load runs once the files are local), and says what to feed it.
 * `quick` shrinks every shape for a rehearsal on a small CPU box.
 */
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { resolveModelGraph } from '../../src/checkpoint/resolve-model-graph.js';
import type { CheckpointTask } from '../../src/checkpoint/architectures.js';
import { writeDebertaCheckpoint } from '../lib/deberta-checkpoint.js';
import { parameterCount, timesFm20Tensors, timesFm25Tensors, writeTimesFm20Checkpoint, writeTimesFm25Checkpoint, type TimesFm20Shape } from '../lib/timesfm-checkpoint.js';
import { writeRobertaCheckpoint } from '../lib/roberta-checkpoint.js';
import { writeFamilyCheckpoint } from '../lib/family-checkpoints.js';
import { CHRONOS_2_BASE, chronos2Tensors, writeChronos2Checkpoint, type Chronos2Shape } from './checkpoints.js';

/** What preparing a family produced (printed as JSON by the `--prepare` child). */
export interface Prepared {
  key: string;
  name: string;
  graphPath: string;
  parameters: number;
  generateS: number;
  buildS: number;
}

/** One family of `--families`. */
export interface BuiltFamily {
  key: string;
  unit: 'series' | 'sentences';
  batches: number[];
  /** Writes the checkpoint under `root` and builds its graph. */
  prepare: (root: string, quick: boolean) => Promise<Prepared>;
  /** The feeds of `batch` rows (`quick`: the rehearsal's shapes). */
  feeds: (batch: number, quick: boolean) => Record<string, ort.Tensor>;
}

const SEQ = 128;
/** Vocabulary sizes [real, rehearsal]. */
const VOCABS = { deberta: [128100, 2500], roberta: [50265, 3000], xlmr: [250002, 3000], bert: [30522, 30522] } as const;
const CONTEXT = 512;
const FUTURE = 64;

async function built(key: string, name: string, root: string, task: CheckpointTask, write: (dir: string) => number, variant?: string): Promise<Prepared> {
  const dir = join(root, key);
  const t0 = performance.now();
  const bytes = write(dir);
  const t1 = performance.now();
  const r = await resolveModelGraph(dir, { task, onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'graphs'), ...(variant !== undefined ? { variant } : {}) });
  return { key, name, graphPath: r.graphPath, parameters: bytes / 4, generateS: (t1 - t0) / 1000, buildS: (performance.now() - t1) / 1000 };
}

/**
 * A token classifier's feeds: `batch` texts of `seq` tokens, all attended, ids spread over `[firstId, vocab)`
 * (the same stream for the same arguments). Shared by every token family of the GPU bench.
 */
export function tokenTensors(batch: number, seq: number, vocab: number, firstId: number): Record<string, ort.Tensor> {
  const n = batch * seq;
  const ids = BigInt64Array.from({ length: n }, (_, i) => BigInt(firstId + ((i * 7919) % (vocab - firstId))));
  return {
    input_ids: new ort.Tensor('int64', ids, [batch, seq]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [batch, seq]),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), [batch, seq]),
  };
}

function tokenFeeds(vk: keyof typeof VOCABS): BuiltFamily['feeds'] {
  return (batch, quick) => tokenTensors(batch, SEQ, VOCABS[vk][quick ? 1 : 0], 5);
}

function series(batch: number, length: number): Float32Array {
  return Float32Array.from({ length: batch * length }, (_, i) => {
    const [row, t] = [Math.floor(i / length), i % length];
    return 100 + 10 * Math.sin((t + row) / 6) + (t % 7) + 0.05 * t - (row % 3) * 20;
  });
}

function timesFmFeeds(withFreq: boolean): BuiltFamily['feeds'] {
  return (batch) => ({
    patches: new ort.Tensor('float32', series(batch, CONTEXT), [batch, CONTEXT]),
    padding: new ort.Tensor('float32', new Float32Array(batch * CONTEXT), [batch, CONTEXT]),
    ...(withFreq ? { freq: new ort.Tensor('int64', new BigInt64Array(batch), [batch]) } : {}),
  });
}

/** TimesFM at its real width (1280, 16 heads × 80), 20 layers (2.5's real depth; 2.0 has 50), context 512. */
const TIMESFM: TimesFm20Shape = { hidden: 1280, layers: 20, heads: 16, headDim: 80, intermediate: 1280, context: CONTEXT };
const TIMESFM_QUICK: TimesFm20Shape = { hidden: 320, layers: 2, heads: 4, headDim: 80, intermediate: 320, context: CONTEXT };
const CHRONOS_2_QUICK: Chronos2Shape = { dModel: 128, layers: 2, heads: 2, dFF: 512, contextLength: 8192 };

function timesFm(v: '2.0' | '2.5', layers = TIMESFM.layers): BuiltFamily {
  const key = `timesfm-${v}${layers === TIMESFM.layers ? '' : `-L${layers}`}`;
  return {
    key, unit: 'series', batches: [1, 16, 64], feeds: timesFmFeeds(v === '2.0'),
    prepare: (root, quick) => {
      const s = quick ? TIMESFM_QUICK : { ...TIMESFM, layers };
      const params = parameterCount((v === '2.0' ? timesFm20Tensors : timesFm25Tensors)(s));
      const name = `TimesFM ${v} built (width ${s.hidden}, ${s.layers} layers, ${(params / 1e6).toFixed(0)} M params; context ${CONTEXT}, horizon 128)`;
      return built(key, name, root, 'forecast', (dir) => {
        (v === '2.0' ? writeTimesFm20Checkpoint : writeTimesFm25Checkpoint)(dir, s);
        return params * 4;
      });
    },
  };
}

function encoder(key: 'deberta-v3' | 'roberta' | 'xlm-r', label: string, vk: keyof typeof VOCABS): BuiltFamily {
  return {
    key, unit: 'sentences', batches: [1, 8, 32], feeds: tokenFeeds(vk),
    prepare: (root, quick) => {
      const layers = quick ? 2 : 12;
      const vocab = VOCABS[vk][quick ? 1 : 0];
      return built(key, `${label} built (${layers} layers, hidden 768, vocab ${vocab}; ${SEQ} tokens)`, root, 'token-classification', (dir) =>
        vk === 'deberta' ? writeDebertaCheckpoint(dir, layers, vocab) : writeRobertaCheckpoint(dir, vocab, vk === 'xlmr', layers));
    },
  };
}

/** BERT, DistilBERT and ELECTRA (BERT's WordPiece vocabulary); `int8`: the graph built with dynamic int8 MatMul weights. */
function wordPiece(family: 'bert' | 'distilbert' | 'electra', label: string, variant?: 'int8'): BuiltFamily {
  const key = `${family}${variant === undefined ? '' : `-${variant}`}`;
  return {
    key, unit: 'sentences', batches: [1, 8, 32], feeds: tokenFeeds('bert'),
    prepare: (root, quick) => {
      const layers = quick ? 2 : family === 'distilbert' ? 6 : 12;
      return built(key, `${label} built${variant === undefined ? '' : ` (${variant})`} (${layers} layers, hidden 768, vocab 30522; ${SEQ} tokens)`, root, 'token-classification',
        (dir) => writeFamilyCheckpoint(family, dir, layers, VOCABS.bert[0]), variant);
    },
  };
}

/** Every family of `--families`, in the order they are measured. */
export const BUILT_FAMILIES: readonly BuiltFamily[] = [
  timesFm('2.0'),
  timesFm('2.5'),
  /** TimesFM 2.0 at its real depth (google/timesfm-2.0-500m: 50 layers, 2 GB); only with `--only timesfm-2.0-L50`. */
  timesFm('2.0', 50),
  {
    key: 'chronos-2', unit: 'series', batches: [1, 16, 64],
    feeds: (batch) => ({
      context: new ort.Tensor('float32', series(batch, CONTEXT), [batch, CONTEXT]),
      group_ids: new ort.Tensor('int64', BigInt64Array.from({ length: batch }, (_, i) => BigInt(i)), [batch]),
      future_covariates: new ort.Tensor('float32', new Float32Array(batch * FUTURE).fill(NaN), [batch, FUTURE]),
    }),
    prepare: (root, quick) => {
      const s = quick ? CHRONOS_2_QUICK : CHRONOS_2_BASE;
      const params = parameterCount(chronos2Tensors(s));
      return built('chronos-2', `Chronos-2 built (d_model ${s.dModel}, ${s.layers} layers, ${(params / 1e6).toFixed(0)} M params; context ${CONTEXT}, horizon ${FUTURE}, univariate)`, root, 'forecast', (dir) => writeChronos2Checkpoint(dir, s));
    },
  },
  encoder('deberta-v3', 'DeBERTa-v3-base token classifier', 'deberta'),
  encoder('roberta', 'RoBERTa-base token classifier', 'roberta'),
  encoder('xlm-r', 'XLM-R-base token classifier', 'xlmr'),
  wordPiece('bert', 'BERT-base token classifier'),
  wordPiece('bert', 'BERT-base token classifier', 'int8'),
  wordPiece('distilbert', 'DistilBERT-base token classifier'),
  wordPiece('electra', 'ELECTRA-base token classifier'),
];
