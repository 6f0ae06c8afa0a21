import { attr, OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import type { GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { expectShape, rmsNorm, type T5Context } from './chronos-bolt/t5-layers.js';
import { chronos2Masks, encoderBlock, residualBlock, ropeTables } from './chronos-2/blocks.js';
import { parseChronos2Config, type Chronos2Config } from './chronos-2/config.js';

/**
 * Chronos-2 (`Chronos2Model`, amazon-science/chronos-forecasting) from its checkpoint, as one ONNX graph with the
 * model's forward contract:
 * - inputs `context` float32 [batch, time] (NaN = missing or left padding; the last `context_length` steps are
 *   read), `group_ids` int64 [batch] (rows with one id attend to each other), `future_covariates` float32
 *   [batch, future] with `future` a multiple of the patch size (NaN = unknown; known values of known-future
 *   covariates, NaN for targets) — `future / patch` output patches;
 * - output `quantile_preds` float32 [batch, quantiles, future], de-normalised.
 *
 * Graph: NaN-aware instance norm per row (loc = mean of the present values, 0 for none; scale = their std, 1
 * for none, 1e-5 when 0) then arcsinh (`use_arcsinh`); patches of [time encoding (t / time_encoding_scale,
 * t < 0 in the past, ≥ 0 ahead), values (0 where missing), presence mask] through the input ResidualBlock;
 * [REG] between context and future patches; encoder blocks (RMS norms; time self-attention with RoPE over
 * the positions, no 1/√d scaling; group self-attention across the rows of a group at each position; ReLU
 * feed-forward); the future positions through the output ResidualBlock → sinh → × scale + loc.
 */
export function buildChronos2Graph(ck: Checkpoint): OnnxGraphBuilder {
  const cfg = parseChronos2Config(ck.config, ck.dir);
  const g = new OnnxGraphBuilder({ name: 'chronos_2' });
  const t: T5Context = { g, ck, epsilon: cfg.epsilon };
  const { patchSize: P, dModel: d } = cfg;
  const Q = cfg.quantiles.length;

  const input = g.input('context', 'float32', ['batch', 'time']);
  const groupIds = g.input('group_ids', 'int64', ['batch']);
  const future = g.input('future_covariates', 'float32', ['batch', 'future']);
  const context = g.op('Slice', [input, g.int64Vector([-cfg.contextLength]), g.int64Vector([2 ** 53]), g.int64Vector([1])]);
  const norm = instanceNorm(g, context);
  const toPatches = g.int64Vector([0, -1, P]);
  const pad = leftPadding(g, context, P);
  const past = g.op('Reshape', [normed(g, g.op('Pad', [norm.x, pad, g.floatScalar(0)]), cfg), toPatches]);
  const pastKeep = g.op('Reshape', [g.op('Pad', [norm.keep, pad, g.floatScalar(0)]), toPatches]);
  const patches = g.op('Slice', [g.op('Shape', [past]), g.int64Vector([1]), g.int64Vector([2])]); // [n]
  const pastFeatures = g.op('Concat', [timeEncoding(g, past, patches, P, cfg, -1), past, pastKeep], { axis: attr.int(-1) });

  const futureMissing = g.op('IsNaN', [future]);
  const futureKeep = g.op('Reshape', [g.op('Cast', [g.op('Not', [futureMissing])], { to: attr.int(1) }), toPatches]);
  const futureX = g.op('Reshape', [normed(g, g.op('Where', [futureMissing, g.floatScalar(0), g.op('Div', [g.op('Sub', [future, norm.loc]), norm.scale])]), cfg), toPatches]);
  const outPatches = g.op('Slice', [g.op('Shape', [futureX]), g.int64Vector([1]), g.int64Vector([2])]);
  const futureFeatures = g.op('Concat', [timeEncoding(g, futureX, outPatches, P, cfg, 1), futureX, futureKeep], { axis: attr.int(-1) });

  // One embedding MatMul for past and future patches, then [past…, REG, future…].
  const embedded = residualBlock(t, g.op('Concat', [pastFeatures, futureFeatures], { axis: attr.int(1) }), 'input_patch_embedding', 3 * P, d, cfg);
  const axis1 = g.int64Vector([1]);
  const end = g.int64Vector([2 ** 53]);
  const embPast = g.op('Slice', [embedded, g.int64Vector([0]), patches, axis1]);
  const embFuture = g.op('Slice', [embedded, patches, end, axis1]);
  let keep = g.op('ReduceMax', [pastKeep], { axes: attr.ints([2]), keepdims: attr.int(0) }); // [batch, n]
  const parts = [embPast];
  let extra = outPatches;
  if (cfg.useRegToken) {
    const vocab = ck.info('shared.weight').shape[0];
    expectShape(ck, 'shared.weight', [vocab, d]);
    const batch = g.op('Slice', [g.op('Shape', [embedded]), g.int64Vector([0]), g.int64Vector([1])]);
    parts.push(g.op('Expand', [regToken(g, ck, d), g.op('Concat', [batch, g.int64Vector([1, 1])], { axis: attr.int(0) })]));
    extra = g.op('Add', [outPatches, g.int64Vector([1])]);
  }
  parts.push(embFuture);
  let x = g.op('Concat', parts, { axis: attr.int(1) });
  keep = g.op('Pad', [keep, g.op('Concat', [g.int64Vector([0, 0, 0]), extra], { axis: attr.int(0) }), g.floatScalar(1)]);

  const masks = chronos2Masks(g, keep, groupIds);
  const rope = ropeTables(g, x, cfg);
  for (let i = 0; i < cfg.layers; i++) {
    x = encoderBlock(t, x, i, masks, rope, cfg);
  }
  x = rmsNorm(t, x, 'encoder.final_layer_norm.weight', d);
  const ahead = g.op('Slice', [x, g.op('Neg', [outPatches]), end, axis1]);
  const flat = residualBlock(t, ahead, 'output_patch_embedding', d, Q * P, cfg); // [batch, n_out, Q·P]
  const byLevel = g.op('Transpose', [g.op('Reshape', [flat, g.int64Vector([0, 0, Q, P])])], { perm: attr.ints([0, 2, 1, 3]) });
  const preds = g.op('Reshape', [byLevel, g.int64Vector([0, Q, -1])]);
  const raw = cfg.useArcsinh ? g.op('Sinh', [preds]) : preds;
  const scale3 = g.op('Unsqueeze', [norm.scale, g.int64Vector([2])]);
  const loc3 = g.op('Unsqueeze', [norm.loc, g.int64Vector([2])]);
  g.op('Add', [g.op('Mul', [raw, scale3]), loc3], {}, 'quantile_preds');
  g.output('quantile_preds', 'float32', ['batch', Q, 'future']);
  return g;
}

/** Bump when the graph written for the same checkpoint changes (the graph cache's key has it). */
export const CHRONOS_2_BUILDER_VERSION = 1;

/** The Chronos-2 entry of GRAPH_BUILDERS. */
export const chronos2Builder: GraphBuilderEntry = {
  version: CHRONOS_2_BUILDER_VERSION,
  build: (ck) => buildChronos2Graph(ck),
};

/** The reference's InstanceNorm over the present values of each row: `x` = (value − loc) / scale, 0 where missing; `keep` = 1 where present. */
function instanceNorm(g: OnnxGraphBuilder, x: string): { x: string; keep: string; loc: string; scale: string } {
  const missing = g.op('IsNaN', [x]);
  const keep = g.op('Cast', [g.op('Not', [missing])], { to: attr.int(1) });
  const x0 = g.op('Where', [missing, g.floatScalar(0), x]);
  const axis = g.int64Vector([1]);
  const count = g.op('ReduceSum', [keep, axis], { keepdims: attr.int(1) });
  const denom = g.op('Max', [count, g.floatScalar(1)]);
  const loc = g.op('Div', [g.op('ReduceSum', [x0, axis], { keepdims: attr.int(1) }), denom]);
  const centered = g.op('Mul', [g.op('Sub', [x0, loc]), keep]);
  const std = g.op('Sqrt', [g.op('Div', [g.op('ReduceSum', [g.op('Mul', [centered, centered]), axis], { keepdims: attr.int(1) }), denom])]);
  const empty = g.op('Equal', [count, g.floatScalar(0)]);
  const scale = g.op('Where', [empty, g.floatScalar(1), g.op('Where', [g.op('Equal', [std, g.floatScalar(0)]), g.floatScalar(1e-5), std])]);
  return { x: g.op('Div', [centered, scale]), keep, loc, scale };
}

/** arcsinh of the normalised values when the config says so (0 stays 0). */
function normed(g: OnnxGraphBuilder, x: string, cfg: Chronos2Config): string {
  return cfg.useArcsinh ? g.op('Asinh', [x]) : x;
}

/** Pads for `Pad` that put `x` [batch, time] on a multiple of `P` from the left (the reference's Patch pads NaN there). */
function leftPadding(g: OnnxGraphBuilder, x: string, P: number): string {
  const time = g.op('Slice', [g.op('Shape', [x]), g.int64Vector([1]), g.int64Vector([2])]);
  const p = g.int64Vector([P]);
  const pad = g.op('Mod', [g.op('Sub', [p, g.op('Mod', [time, p])]), p]);
  return g.op('Concat', [g.int64Vector([0]), pad, g.int64Vector([0, 0])], { axis: attr.int(0) });
}

/**
 * The time encoding of `patches` [batch, n, P] (n = `count`): steps −n·P … −1 (`sign` −1, the context) or
 * 0 … n·P − 1 (`sign` 1, the future), divided by `time_encoding_scale`, as [batch, n, P].
 */
function timeEncoding(g: OnnxGraphBuilder, patches: string, count: string, P: number, cfg: Chronos2Config, sign: 1 | -1): string {
  const length = g.op('Cast', [g.op('Squeeze', [g.op('Mul', [count, g.int64Vector([P])]), g.int64Vector([0])])], { to: attr.int(1) });
  const steps = sign < 0 ? g.op('Range', [g.op('Neg', [length]), g.floatScalar(0), g.floatScalar(1)]) : g.op('Range', [g.floatScalar(0), length, g.floatScalar(1)]);
  const scaled = g.op('Reshape', [g.op('Div', [steps, g.floatScalar(cfg.timeEncodingScale)]), g.int64Vector([1, -1, P])]);
  return g.op('Expand', [scaled, g.op('Shape', [patches])]);
}

/** Row 1 of `shared.weight` ([REG]) as a constant [1, 1, d_model]. */
function regToken(g: OnnxGraphBuilder, ck: Checkpoint, d: number): string {
  return g.lazyFloat32('shared.weight.reg', [1, 1, d], () => ck.float32('shared.weight').slice(d, 2 * d));
}
