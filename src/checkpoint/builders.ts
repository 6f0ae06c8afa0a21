import type { OnnxGraphBuilder } from '../onnx/graph-builder.js';
import { BERT_BUILDER, ELECTRA_BUILDER, ROBERTA_BUILDER } from './families/bert.js';
import { DISTILBERT_BUILDER } from './families/distilbert.js';
import { DEBERTA_V2_BUILDER } from './families/deberta-v2.js';
import { chronosBoltBuilder } from './families/chronos-bolt.js';
import { chronos2Builder } from './families/chronos-2.js';
import { TIMESFM_20_BUILDER } from './families/timesfm-2.0.js';
import { TIMESFM_25_BUILDER } from './families/timesfm-2.5.js';
import type { BuildableFamily } from './architectures.js';
import type { Checkpoint } from './safetensors.js';

/** Options every family builder takes. */
export interface BuildOptions {
  /** `fp32`, or a variant the builder lists (e.g. `int8`: dynamic int8 MatMul weights). */
  variant: string;
}

/** A family's graph builder. */
export interface GraphBuilderEntry {
  /** Bump when the written graph changes (the cache key includes it). */
  version: number;
  /** Variants beyond `fp32`. */
  variants?: readonly string[];
  /**
   * A token classifier whose `attention_mask` may pack several texts in a row (segment numbers 1, 2, …, padding 0;
   * see families/encoder/segments.ts): the runner then packs a run's texts instead of padding them.
   */
  packsTexts?: boolean;
  /** The graph, with weights as lazy initializers read from `ck` (see OnnxGraphBuilder.lazyFloat32). */
  build(ck: Checkpoint, options: BuildOptions): OnnxGraphBuilder | Promise<OnnxGraphBuilder>;
}

/**
 * Family id (architectures.ts) → builder. One line per family; the builders live in `families/`. Every family
 * of BUILDABLE_ARCHITECTURES has one: the compiler refuses a family without a builder or a builder without a
 * family, so what `validate` accepts (architectures.ts alone, without loading the builders) is what loads.
 */
const BUILDERS = {
  bert: BERT_BUILDER,
  distilbert: DISTILBERT_BUILDER,
  roberta: ROBERTA_BUILDER,
  electra: ELECTRA_BUILDER,
  'deberta-v2': DEBERTA_V2_BUILDER,
  'chronos-bolt': chronosBoltBuilder,
  'chronos-2': chronos2Builder,
  'timesfm-2.0': TIMESFM_20_BUILDER,
  'timesfm-2.5': TIMESFM_25_BUILDER,
} satisfies Record<BuildableFamily, GraphBuilderEntry>;

/** {@link BUILDERS} by any family id (undefined for an id that is not a family). */
export const GRAPH_BUILDERS: Partial<Record<string, GraphBuilderEntry>> = BUILDERS;
