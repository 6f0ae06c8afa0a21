import { InferkitError } from '../errors.js';
import { OnnxGraphBuilder, attr } from './graph-builder.js';
import { createSeededRandom } from './random-weights.js';
import { additiveMask, feedForward, layerNorm, linear, multiHeadAttention, type BlockContext } from './transformer-blocks.js';

/** Options of {@link buildRuleForecaster}. */
export interface RuleForecasterOptions {
  /** Forecast steps H. */
  predictionLength: number;
  /** Quantile levels, e.g. [0.1, …, 0.9]. */
  quantiles: readonly number[];
  /** Per-quantile offsets added to the mean. @default (quantiles[i] - 0.5) * 10 */
  offsets?: readonly number[];
  /** Added per step: `trend * (h + 1)`. @default 0 */
  trend?: number;
}

/**
 * A Chronos-Bolt-shaped forecaster with an exact, documented rule, so tests can assert numbers.
 * Input `context`: float32 [batch, time] (NaN = missing or left padding; any time length).
 * Output `quantile_preds`: float32 [batch, numQuantiles, predictionLength] with
 * `out[b, i, h] = m_b + offsets[i] + trend * (h + 1)`, where `m_b` is the float32 mean of the
 * non-NaN values of row b, and **NaN when the row has no value** (so an all-NaN series is detectable).
 * `offsets[i] + trend * (h + 1)` is computed in double then rounded to float32 once; the sum with
 * `m_b` is one float32 addition (exact for small integers and halves).
 */
export function buildRuleForecaster(opts: RuleForecasterOptions): Uint8Array {
  return ruleForecasterGraph(opts).toBytes();
}

/** {@link buildRuleForecaster}'s graph, unserialised (e.g. for `toExternalData`). */
export function ruleForecasterGraph(opts: RuleForecasterOptions): OnnxGraphBuilder {
  const { predictionLength: H, quantiles } = opts;
  const Q = quantiles.length;
  checkPositive({ predictionLength: H, quantiles: Q });
  const offsets = opts.offsets ?? quantiles.map((q) => (q - 0.5) * 10);
  if (offsets.length !== Q) {
    throw new InferkitError('invalid_request', `buildRuleForecaster: ${offsets.length} offsets for ${Q} quantiles`);
  }
  const trend = opts.trend ?? 0;
  const table = new Float32Array(Q * H);
  for (let i = 0; i < Q; i++) {
    for (let h = 0; h < H; h++) {
      table[i * H + h] = offsets[i] + trend * (h + 1);
    }
  }
  const g = new OnnxGraphBuilder({ name: 'chronos_rule_forecaster' });
  const context = g.input('context', 'float32', ['batch', 'time']);
  const { x0, keep } = splitMissing(g, context);
  const sum = g.op('ReduceSum', [x0, g.int64Vector([1])], { keepdims: attr.int(1) });
  const count = g.op('ReduceSum', [keep, g.int64Vector([1])], { keepdims: attr.int(1) });
  const mean = g.op('Div', [sum, count]); // 0 / 0 = NaN for an all-missing row
  const m3 = g.op('Unsqueeze', [mean, g.int64Vector([2])]);
  g.op('Add', [m3, g.float32('offsets', table, [Q, H])], {}, 'quantile_preds');
  g.output('quantile_preds', 'float32', ['batch', Q, H]);
  return g;
}

/** Options of {@link buildChronosBoltLike}; Chronos-Bolt-small is dModel 512, 6 layers, 8 heads, dFF 2048, patch 16, context 2048, horizon 64, 9 quantiles. */
export interface ChronosBoltLikeOptions {
  /** Longest context used; longer inputs keep their last `contextLength` steps. Multiple of `patchSize`. */
  contextLength: number;
  /** Forecast steps H. */
  predictionLength: number;
  /** Quantile levels. */
  quantiles: readonly number[];
  /** Steps per patch. @default 16 */
  patchSize?: number;
  /** Model width. @default 64 */
  dModel?: number;
  /** Encoder layers. @default 2 */
  layers?: number;
  /** Attention heads (divides dModel). @default 4 */
  heads?: number;
  /** Inner size of the FFN and residual MLPs. @default 4 * dModel */
  dFF?: number;
  /** Seed of the deterministic random weights. @default 0 */
  seed?: number;
  /** Standard deviation of random weights. @default 0.02 */
  initStd?: number;
}

/**
 * A compute-shaped stand-in for Chronos-Bolt with random weights (forecasts are meaningless).
 * Input `context`: float32 [batch, time], NaN = missing; **time must be a multiple of
 * `patchSize`** (callers left-pad with NaN). Output `quantile_preds`: float32 [batch, Q, H].
 * Graph: keep the last `contextLength` steps → NaN-aware instance norm (mean/std over present
 * values, scale ≥ 1e-5) → NaN→0 plus a mask channel → patches [batch, time/patch, 2·patch] →
 * residual-MLP patch embedding → N pre-LayerNorm encoder layers (attention ignores fully missing
 * patches; no position encoding, so extra all-NaN left-padding patches do not change the output) →
 * final LayerNorm → last patch → residual MLP to Q·H → [batch, Q, H] → de-normalise.
 * An all-NaN row gives finite values near 0.
 */
export function buildChronosBoltLike(opts: ChronosBoltLikeOptions): Uint8Array {
  return chronosBoltLikeGraph(opts).toBytes();
}

/** {@link buildChronosBoltLike}'s graph, unserialised (e.g. for `toExternalData`). */
export function chronosBoltLikeGraph(opts: ChronosBoltLikeOptions): OnnxGraphBuilder {
  const P = opts.patchSize ?? 16;
  const dModel = opts.dModel ?? 64;
  const layers = opts.layers ?? 2;
  const heads = opts.heads ?? 4;
  const dFF = opts.dFF ?? 4 * dModel;
  const H = opts.predictionLength;
  const Q = opts.quantiles.length;
  checkPositive({ contextLength: opts.contextLength, predictionLength: H, quantiles: Q, patchSize: P, dModel, heads, dFF });
  if (opts.contextLength % P !== 0 || dModel % heads !== 0) {
    throw new InferkitError('invalid_request', 'buildChronosBoltLike: contextLength must be a multiple of patchSize and dModel of heads');
  }
  const g = new OnnxGraphBuilder({ name: 'chronos_bolt_like' });
  const ctx: BlockContext = { g, random: createSeededRandom(opts.seed ?? 0), std: opts.initStd ?? 0.02 };
  const input = g.input('context', 'float32', ['batch', 'time']);
  const context = g.op('Slice', [input, g.int64Vector([-opts.contextLength]), g.int64Vector([2 ** 53]), g.int64Vector([1])]);
  const { x0, keep } = splitMissing(g, context);

  const axis1 = g.int64Vector([1]);
  const denom = g.op('Max', [g.op('ReduceSum', [keep, axis1], { keepdims: attr.int(1) }), g.floatScalar(1)]);
  const mean = g.op('Div', [g.op('ReduceSum', [x0, axis1], { keepdims: attr.int(1) }), denom]);
  const centered = g.op('Mul', [g.op('Sub', [x0, mean]), keep]);
  const variance = g.op('Div', [g.op('ReduceSum', [g.op('Mul', [centered, centered]), axis1], { keepdims: attr.int(1) }), denom]);
  const scale = g.op('Max', [g.op('Sqrt', [variance]), g.floatScalar(1e-5)]);
  const normed = g.op('Div', [centered, scale]);

  const toPatches = g.int64Vector([0, -1, P]);
  const maskPatches = g.op('Reshape', [keep, toPatches]);
  const features = g.op('Concat', [g.op('Reshape', [normed, toPatches]), maskPatches], { axis: attr.int(-1) });
  const patchKeep = g.op('ReduceMax', [maskPatches], { axes: attr.ints([2]), keepdims: attr.int(0) });
  const mask = additiveMask(ctx, patchKeep);

  let x = residualMlp(ctx, features, 2 * P, dFF, dModel, 'input_patch_embedding');
  for (let i = 0; i < layers; i++) {
    const p = `encoder.block.${i}`;
    const attention = multiHeadAttention(ctx, layerNorm(ctx, x, dModel, `${p}.ln_attention`, 1e-6), mask, { hidden: dModel, heads }, `${p}.attention`);
    x = g.op('Add', [x, attention]);
    x = g.op('Add', [x, feedForward(ctx, layerNorm(ctx, x, dModel, `${p}.ln_ff`, 1e-6), dModel, dFF, 'relu', `${p}.ff`)]);
  }
  x = layerNorm(ctx, x, dModel, 'encoder.final_layer_norm', 1e-6);
  const last = g.op('Gather', [x, g.int64('last_patch', [-1], [])], { axis: attr.int(1) });
  const flat = residualMlp(ctx, last, dModel, dFF, Q * H, 'output_patch_embedding');
  const shaped = g.op('Reshape', [flat, g.int64Vector([0, Q, H])]);
  const scale3 = g.op('Unsqueeze', [scale, g.int64Vector([2])]);
  const mean3 = g.op('Unsqueeze', [mean, g.int64Vector([2])]);
  g.op('Add', [g.op('Mul', [shaped, scale3]), mean3], {}, 'quantile_preds');
  g.output('quantile_preds', 'float32', ['batch', Q, H]);
  return g;
}

/** `x0` = context with NaN → 0; `keep` = 1 where present, 0 where NaN (float32). */
function splitMissing(g: OnnxGraphBuilder, context: string): { x0: string; keep: string } {
  const missing = g.op('IsNaN', [context]);
  const x0 = g.op('Where', [missing, g.floatScalar(0), context]);
  const keep = g.op('Cast', [g.op('Not', [missing])], { to: attr.int(1) });
  return { x0, keep };
}

/** Chronos-Bolt's residual block: `W2 relu(W1 x) + Wr x`. */
function residualMlp(ctx: BlockContext, x: string, inDim: number, hidden: number, outDim: number, prefix: string): string {
  const inner = ctx.g.op('Relu', [linear(ctx, x, inDim, hidden, `${prefix}.hidden_layer`)]);
  const out = linear(ctx, inner, hidden, outDim, `${prefix}.output_layer`);
  return ctx.g.op('Add', [out, linear(ctx, x, inDim, outDim, `${prefix}.residual_layer`)]);
}

function checkPositive(values: Record<string, number>): void {
  for (const [name, v] of Object.entries(values)) {
    if (!Number.isInteger(v) || v < 1) {
      throw new InferkitError('invalid_request', `${name} must be a positive integer, got ${v}`);
    }
  }
}
