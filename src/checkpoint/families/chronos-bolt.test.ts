import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalSession, float32Tensor } from '../../runtime/ort.js';
import { openCheckpoint, readHeader } from '../safetensors.js';
import { buildChronosBoltGraph } from './chronos-bolt.js';
import { relativePositionBucket } from './chronos-bolt/relative-position.js';
import { writeSafetensorsFile } from '../../../test/fixtures/safetensors-file.js';

const MODEL = join(process.cwd(), '../shared/conformance/chronos-bolt/model');
const present = existsSync(join(MODEL, 'model.safetensors'));
const root = mkdtempSync(join(tmpdir(), 'inferkit-bolt-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The conformance checkpoint with `edit` applied to its config.json, in a fresh folder. */
function withConfig(name: string, edit: (c: Record<string, unknown>) => void): string {
  const dir = join(root, name);
  const config = JSON.parse(readFileSync(join(MODEL, 'config.json'), 'utf8')) as Record<string, unknown>;
  edit(config);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  copyFileSync(join(MODEL, 'model.safetensors'), join(dir, 'model.safetensors'));
  return dir;
}

/** The build error for a config edited by `edit`. */
async function buildError(name: string, edit: (c: Record<string, unknown>) => void): Promise<unknown> {
  const ck = await openCheckpoint(withConfig(name, edit));
  try {
    buildChronosBoltGraph(ck);
    return undefined;
  } catch (err) {
    return err;
  } finally {
    ck.close();
  }
}

describe('relativePositionBucket', () => {
  it("puts relative positions in T5's buckets (bidirectional, 32 buckets, max distance 128), as PyTorch's float32 arithmetic does", () => {
    const at = (r: number): number => relativePositionBucket(r, { buckets: 32, maxDistance: 128, bidirectional: true });
    const want: Record<number, number> = { 0: 0, 1: 17, [-1]: 1, 7: 23, [-7]: 7, 8: 24, [-8]: 8, 11: 24, 12: 25, 16: 26, [-16]: 10, 22: 26, 23: 27, 32: 28, 64: 30, 127: 31, 128: 31, 200: 31, [-200]: 15 };
    expect(Object.fromEntries(Object.keys(want).map((r) => [r, at(Number(r))]))).toEqual(want);
  });

  it('gives one direction all buckets when unidirectional (the decoder), future positions bucket 0', () => {
    const at = (r: number): number => relativePositionBucket(r, { buckets: 32, maxDistance: 128, bidirectional: false });
    expect([at(0), at(3), at(-3), at(-15), at(-16), at(-500)]).toEqual([0, 0, 3, 15, 16, 31]);
  });
});

describe.skipIf(!present)('buildChronosBoltGraph: configs and checkpoints it refuses', () => {
  it('names a chronos_config field it does not know', async () => {
    const err = await buildError('arcsinh', (c) => ((c.chronos_config as Record<string, unknown>).use_arcsinh = true));
    expect(err).toMatchObject({ code: 'model_load_failed', param: 'chronos_config.use_arcsinh' });
    expect((err as Error).message).toMatch(/chronos_config\.use_arcsinh: a field the Chronos-Bolt builder does not know/);
  });

  it('refuses overlapping patches and activations it does not write, naming the field', async () => {
    expect(await buildError('stride', (c) => ((c.chronos_config as Record<string, unknown>).input_patch_stride = 8))).toMatchObject({ code: 'model_load_failed', param: 'chronos_config.input_patch_stride' });
    const act = await buildError('silu', (c) => {
      c.feed_forward_proj = 'silu';
      delete c.dense_act_fn;
    });
    expect(act).toMatchObject({ code: 'model_load_failed', param: 'feed_forward_proj' });
    expect((act as Error).message).toMatch(/"silu" is not an activation the builder writes/);
  });

  it('names the tensor and the file when a weight does not have the shape the config implies', async () => {
    const err = await buildError('dff', (c) => (c.d_ff = 128));
    expect(err).toMatchObject({ code: 'model_load_failed' });
    expect((err as Error).message).toMatch(/model\.safetensors: tensor input_patch_embedding\.hidden_layer\.weight has shape \[256, 32\], the config implies \[128, 32\]/);
  });

});

describe.skipIf(!present)('buildChronosBoltGraph: the graph on ONNX Runtime', () => {
  it('takes any length as the model does: the last context_length steps, NaN left padding to whole patches, and matches the torch export', async () => {
    const ck = await openCheckpoint(MODEL);
    const graphPath = join(root, 'built', 'model.onnx');
    mkdirSync(join(root, 'built'), { recursive: true });
    buildChronosBoltGraph(ck).writeExternal(graphPath);
    ck.close();
    const built = await createLocalSession(graphPath);
    const exported = await createLocalSession(join(MODEL, 'onnx', 'model.onnx'));
    const run = async (s: typeof built, x: Float32Array, time: number): Promise<Float32Array> =>
      (await s.run({ context: float32Tensor(x, [1, time]) })).quantile_preds.data as Float32Array;
    const series = Float32Array.from({ length: 600 }, (_, t) => 50 + Math.sin(t / 5) * 10 + t / 10);
    const short = series.subarray(0, 37);
    const padded = new Float32Array(48).fill(Number.NaN);
    padded.set(short, 11);
    const cases: [Float32Array, Float32Array][] = [
      [await run(built, short, 37), await run(exported, padded, 48)],
      [await run(built, series, 600), await run(exported, series.slice(600 - 512), 512)],
      [await run(built, series.slice(0, 64), 64), await run(exported, series.slice(0, 64), 64)],
    ];
    for (const [got, want] of cases) {
      expect(got).toHaveLength(9 * 16);
      got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(1e-4 * Math.max(1, Math.abs(want[i]))));
    }
    await built.release();
    await exported.release();
  });
});

/** The conformance checkpoint with every tensor rounded to bfloat16, stored as `dtype` (BF16, or F32 holding the rounded values). */
function bf16Copy(name: string, dtype: 'BF16' | 'F32'): string {
  const dir = withConfig(name, () => undefined);
  const file = join(MODEL, 'model.safetensors');
  const raw = readFileSync(file);
  const tensors = readHeader(file).map((t) => {
    const f = new Float32Array(raw.buffer.slice(raw.byteOffset + t.begin, raw.byteOffset + t.end));
    const u = new Uint32Array(f.buffer);
    const hi = Uint16Array.from(u, (bits) => (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16); // round to nearest even
    const bytes = dtype === 'BF16' ? new Uint8Array(hi.buffer) : new Uint8Array(Uint32Array.from(hi, (h) => h << 16).buffer);
    return { name: t.name, dtype, shape: t.shape, bytes };
  });
  writeSafetensorsFile(join(dir, 'model.safetensors'), tensors);
  return dir;
}

describe.skipIf(!present)('buildChronosBoltGraph from a BF16 checkpoint', () => {
  it('gives what the same (rounded) weights give in F32', async () => {
    const run = async (dir: string): Promise<Float32Array> => {
      const ck = await openCheckpoint(dir);
      const graphPath = join(dir, 'built.onnx');
      buildChronosBoltGraph(ck).writeExternal(graphPath);
      ck.close();
      const s = await createLocalSession(graphPath);
      const x = Float32Array.from({ length: 64 }, (_, t) => (t % 9 === 0 ? Number.NaN : 20 + Math.cos(t / 3) * 4));
      const out = (await s.run({ context: float32Tensor(x, [1, 64]) })).quantile_preds.data as Float32Array;
      await s.release();
      return out;
    };
    const [half, wide] = [await run(bf16Copy('bf16', 'BF16')), await run(bf16Copy('bf16-as-f32', 'F32'))];
    expect(half).toHaveLength(9 * 16);
    expect(half.every(Number.isFinite)).toBe(true);
    half.forEach((v, i) => expect(Math.abs(v - wide[i])).toBeLessThan(1e-5 * Math.max(1, Math.abs(wide[i]))));
  });
});
