import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, float32Tensor, int64Tensor, type OrtSession } from '../../runtime/ort.js';
import { cachedGraph } from '../graph-cache.js';
import { openCheckpoint } from '../safetensors.js';
import { chronos2Builder } from './chronos-2.js';
import { tempDir } from '../../../test/fixtures/temp-dirs.js';

/** The recorded Chronos-2 set (README there); `INFERKIT_CHRONOS2_CONFORMANCE` points at another copy. */
const SET_DIR = process.env.INFERKIT_CHRONOS2_CONFORMANCE ?? join(process.cwd(), '../shared/conformance/chronos-2');
const present = existsSync(join(SET_DIR, 'model-calls.json')) && existsSync(join(SET_DIR, 'model', 'model.safetensors'));

interface Call {
  case: string;
  num_calls: number;
  first_call: { context: (number | null)[][]; group_ids: number[]; future_covariates: (number | null)[][]; num_output_patches: number; quantile_preds: number[][][] };
}

const calls = present ? (JSON.parse(readFileSync(join(SET_DIR, 'model-calls.json'), 'utf8')) as { calls: Call[] }).calls : [];
const flat = (rows: (number | null)[][]): Float32Array => Float32Array.from(rows.flat(), (v) => v ?? Number.NaN);

let session: OrtSession;
beforeAll(async () => {
  if (!present) {
    return;
  }
  const ck = await openCheckpoint(join(SET_DIR, 'model'));
  const built = await cachedGraph(ck, { family: 'chronos-2', builderVersion: chronos2Builder.version, cacheDir: tempDir('inferkit-c2-') }, (c) => chronos2Builder.build(c, { variant: 'fp32' }));
  ck.close();
  session = await createSession(built.graphPath);
}, 60_000);
afterAll(async () => {
  await session?.release();
});

describe.skipIf(!present)('Chronos-2 graph built from model.safetensors', () => {
  it.each(calls.map((c) => [c.case, c] as const))('%s: the first Chronos2Model.forward call of the pipeline, within 1e-4 × scale', async (_, call) => {
    const f = call.first_call;
    const rows = f.context.length;
    const out = await session.run({
      context: float32Tensor(flat(f.context), [rows, f.context[0].length]),
      group_ids: int64Tensor(BigInt64Array.from(f.group_ids, (v) => BigInt(v)), [rows]),
      future_covariates: float32Tensor(flat(f.future_covariates), [rows, f.future_covariates[0].length]),
    });
    const expected = f.quantile_preds.flat(2);
    const got = out.quantile_preds.data as Float32Array;
    expect(out.quantile_preds.dims).toEqual([rows, 21, f.num_output_patches * 16]);
    const scale = Math.max(1, ...expected.map(Math.abs));
    let worst = 0;
    expected.forEach((v, i) => {
      worst = Math.max(worst, Math.abs(got[i] - v));
    });
    expect(worst / scale).toBeLessThan(1e-4);
  });
});

/** A copy of the set's checkpoint folder with `config.json` changed by `edit`. */
function editedCheckpoint(edit: (config: Record<string, unknown>) => void): string {
  const dir = tempDir('inferkit-c2-bad-');
  const config = JSON.parse(readFileSync(join(SET_DIR, 'model', 'config.json'), 'utf8')) as Record<string, unknown>;
  edit(config);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  copyFileSync(join(SET_DIR, 'model', 'model.safetensors'), join(dir, 'model.safetensors'));
  return dir;
}

describe.skipIf(!present)('Chronos-2 builder errors', () => {
  it('a chronos_config field the builder does not know is named', async () => {
    const ck = await openCheckpoint(editedCheckpoint((c) => Object.assign(c.chronos_config as object, { patch_jitter: 2 })));
    expect(() => chronos2Builder.build(ck, { variant: 'fp32' })).toThrow(/config\.json chronos_config\.patch_jitter: a field the Chronos-2 builder does not know/);
    ck.close();
  });

  it('a config that does not match the tensors names the tensor and both shapes', async () => {
    const ck = await openCheckpoint(editedCheckpoint((c) => Object.assign(c, { d_ff: 128 })));
    expect(() => chronos2Builder.build(ck, { variant: 'fp32' })).toThrow(/tensor input_patch_embedding\.hidden_layer\.bias has shape \[256\], the config implies \[128\]/);
    ck.close();
  });
});
