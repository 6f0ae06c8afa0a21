import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { GRAPH_BUILDERS } from '../builders.js';
import { openCheckpoint } from '../safetensors.js';
import { referenceLogits } from '../../../test/fixtures/deberta-v2-reference.js';
import { relativeBucket, relativeIndexTables } from './deberta-v2/relative-positions.js';
import { writeSafetensorsFile } from '../../../test/fixtures/safetensors-file.js';

// The DeBERTa-v2 builder beyond the conformance set (whose replay is test/conformance/kserve-hf-families.test.ts):
// relative-position buckets, the config switches DeBERTa-v3 leaves at one value, int8, and the refused configs.
const SET = join(process.cwd(), '../shared/conformance/kserve-hf-deberta-v3');
const root = mkdtempSync(join(tmpdir(), 'inferkit-deberta-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Recorded {
  singles: Array<{ name: string; input_ids: number[]; logits: number[][] }>;
}
const recorded = JSON.parse(readFileSync(join(SET, 'logits.json'), 'utf8')) as Recorded;
const baseConfig = JSON.parse(readFileSync(join(SET, 'model/config.json'), 'utf8')) as Record<string, unknown>;

type Tensors = Map<string, { shape: number[]; data: Float32Array }>;

async function setTensors(): Promise<Tensors> {
  const ck = await openCheckpoint(join(SET, 'model'));
  return new Map(ck.names().map((n) => [n, { shape: [...ck.info(n).shape], data: ck.float32(n) }]));
}

/** The set's weights with sharp, loud attention (query, key, value and output weights × 8): the set's own attention is too flat to tell. */
async function sharpTensors(): Promise<Tensors> {
  const sharp = await setTensors();
  for (const [n, t] of sharp) {
    if (/attention\.(self\.(query|key|value)_proj|output\.dense)\.weight$/.test(n)) {
      sharp.set(n, { shape: t.shape, data: t.data.map((v) => v * 8) });
    }
  }
  return sharp;
}

/** A checkpoint folder holding `tensors` (F32) and `config`. */
function writeCheckpoint(name: string, config: Record<string, unknown>, tensors: Tensors): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeSafetensorsFile(join(dir, 'model.safetensors'), [...tensors].map(([n, t]) => ({ name: n, dtype: 'F32', shape: t.shape, bytes: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength) })));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

/** The largest |logit − transformers'| over the recorded texts, and the share of positions with the same top class. */
async function againstRecorded(dir: string, variant = 'fp32'): Promise<{ worst: number; sameTop: number }> {
  const graph = await GRAPH_BUILDERS['deberta-v2']?.build(await openCheckpoint(dir), { variant });
  const path = join(dir, `graph-${variant}.onnx`);
  graph?.writeExternal(path);
  const session = await ort.InferenceSession.create(path);
  let worst = 0;
  let same = 0;
  let positions = 0;
  const top = (row: ArrayLike<number>): number => Array.from(row).reduce((best, v, k, all) => (v > all[best] ? k : best), 0);
  for (const s of recorded.singles) {
    const t = (v: number[]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(v, BigInt), [1, v.length]);
    const out = (await session.run({ input_ids: t(s.input_ids), attention_mask: t(s.input_ids.map(() => 1)) })).logits.data as Float32Array;
    s.logits.forEach((row, i) => {
      const ours = out.subarray(i * row.length, (i + 1) * row.length);
      row.forEach((v, k) => (worst = Math.max(worst, Math.abs(ours[k] - v))));
      same += top(ours) === top(row) ? 1 : 0;
      positions++;
    });
  }
  await session.release();
  return { worst, sameTop: same / positions };
}

/** Logits of every recorded text, one array per text. */
async function logitsOf(dir: string): Promise<Float32Array[]> {
  const graph = await GRAPH_BUILDERS['deberta-v2']?.build(await openCheckpoint(dir), { variant: 'fp32' });
  const path = join(dir, 'graph.onnx');
  graph?.writeExternal(path);
  const session = await ort.InferenceSession.create(path);
  const out: Float32Array[] = [];
  for (const s of recorded.singles) {
    const t = (v: number[]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(v, BigInt), [1, v.length]);
    out.push((await session.run({ input_ids: t(s.input_ids), attention_mask: t(s.input_ids.map(() => 1)) })).logits.data as Float32Array);
  }
  await session.release();
  return out;
}

function largestDifference(a: Float32Array[], b: Float32Array[]): number {
  return Math.max(...a.map((x, i) => Math.max(...x.map((v, k) => Math.abs(v - b[i][k])))));
}

describe('DeBERTa-v2 relative positions', () => {
  it('keeps distances up to half the buckets and log-buckets the rest up to the last bucket', () => {
    expect([0, 1, -5, 127, 128, -128].map((d) => relativeBucket(d, 256, 512))).toEqual([0, 1, -5, 127, 128, -128]);
    expect([129, -129, 200, 300, 511, -511].map((d) => relativeBucket(d, 256, 512))).toEqual([129, -129, 169, 207, 255, -255]);
    expect(relativeBucket(700, -1, 512)).toBe(700); // no buckets: the distance itself
  });

  it('indexes the relative embedding rows clamped to the span, c2p by row − column and p2c by its negation', () => {
    const { c2p, p2c } = relativeIndexTables(512, 256, 256, 512);
    const at = (table: BigInt64Array, delta: number): number => Number(table[delta + 511]);
    expect([at(c2p, 0), at(c2p, 3), at(c2p, -3), at(c2p, 511), at(c2p, -511)]).toEqual([256, 259, 253, 511, 1]);
    expect([at(p2c, 0), at(p2c, 3), at(p2c, -3), at(p2c, 511), at(p2c, -511)]).toEqual([256, 253, 259, 1, 511]);
  });
});

describe('DeBERTa-v2 builder switches', () => {
  it('builds separate position projections (share_att_key false), absolute positions and a "p2c|c2p" string: same logits for the same weights', async () => {
    const tensors = await sharpTensors();
    const shared = await logitsOf(writeCheckpoint('shared', baseConfig, tensors));
    for (let i = 0; i < 2; i++) {
      const l = `deberta.encoder.layer.${i}.attention.self.`;
      for (const [from, to] of [['query_proj', 'pos_query_proj'], ['key_proj', 'pos_key_proj']]) {
        for (const part of ['weight', 'bias']) {
          const t = tensors.get(`${l}${from}.${part}`);
          tensors.set(`${l}${to}.${part}`, { shape: t?.shape ?? [], data: Float32Array.from(t?.data ?? []) });
        }
      }
    }
    tensors.set('deberta.embeddings.position_embeddings.weight', { shape: [512, 32], data: new Float32Array(512 * 32) });
    const dir = writeCheckpoint('unshared', { ...baseConfig, share_att_key: false, position_biased_input: true, pos_att_type: 'p2c|c2p' }, tensors);
    expect(largestDifference(shared, await logitsOf(dir))).toBeLessThan(1e-5);
  });

  it('answers a plain-loop float64 DeBERTa (scores one at a time from transformers\' formulas) on sharp attention, 512-token text included', async () => {
    const tensors = await sharpTensors();
    const ours = await logitsOf(writeCheckpoint('reference', baseConfig, tensors));
    const model = { tensor: (n: string) => tensors.get(n)?.data ?? new Float32Array(), hidden: 32, heads: 2, layers: 2, labels: 9, intermediate: 128, eps: 1e-7, buckets: 256, maxRelative: 512 };
    let worst = 0;
    for (const [i, s] of recorded.singles.entries()) {
      referenceLogits(model, s.input_ids).forEach((row, t) => row.forEach((v, k) => (worst = Math.max(worst, Math.abs(ours[i][t * 9 + k] - v) / Math.max(1, Math.abs(v))))));
    }
    expect(recorded.singles.some((s) => s.input_ids.length === 512)).toBe(true);
    expect(worst).toBeLessThan(1e-4);
    // The reference itself answers transformers' recorded logits on the set's own weights.
    const plain = await setTensors();
    const first = recorded.singles[0];
    const anchor = referenceLogits({ ...model, tensor: (n: string) => plain.get(n)?.data ?? new Float32Array() }, first.input_ids);
    expect(Math.max(...anchor.flatMap((row, t) => row.map((v, k) => Math.abs(v - first.logits[t][k]))))).toBeLessThan(1e-5);
  });

  it('drops a position term pos_att_type does not name', async () => {
    const sharp = await sharpTensors();
    const both = await logitsOf(writeCheckpoint('sharp', baseConfig, sharp));
    const c2pOnly = await logitsOf(writeCheckpoint('sharp-c2p', { ...baseConfig, pos_att_type: ['c2p'] }, sharp));
    expect(largestDifference(both, c2pOnly)).toBeGreaterThan(0.05);
  });

  it('builds int8 MatMul weights: logits within 0.2 of transformers\' fp32, the same top class at ≥ 98% of positions', async () => {
    const dir = writeCheckpoint('int8', baseConfig, await setTensors());
    const { worst, sameTop } = await againstRecorded(dir, 'int8');
    expect(worst).toBeLessThan(0.2);
    expect(sameTop).toBeGreaterThanOrEqual(0.98);
  });

  it('names the configs it does not build: ConvLayer, embed_proj, an unknown position term or rel-embedding norm', async () => {
    const tensors = await setTensors();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ conv_kernel_size: 3 }, /conv_kernel_size 3 .*not built/],
      [{ embedding_size: 16 }, /embedding_size 16 ≠ hidden_size 32/],
      [{ pos_att_type: ['p2p'] }, /pos_att_type "p2p" is not built/],
      [{ norm_rel_ebd: 'batch_norm' }, /norm_rel_ebd "batch_norm" is not built/],
    ];
    for (const [i, [patch, error]] of cases.entries()) {
      const ck = await openCheckpoint(writeCheckpoint(`bad-${i}`, { ...baseConfig, ...patch }, tensors));
      expect(() => GRAPH_BUILDERS['deberta-v2']?.build(ck, { variant: 'fp32' })).toThrow(error);
    }
  });
});
