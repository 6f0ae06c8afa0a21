import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSafetensorsFile as writeSafetensors } from '../../test/fixtures/safetensors-file.js';
import { openCheckpoint } from './safetensors.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';

function folder(config: object = { architectures: ['BertForTokenClassification'] }): string {
  const dir = tempDir('inferkit-st-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

const f32 = (v: number[]): Uint8Array => new Uint8Array(Float32Array.from(v).buffer);
const u16 = (v: number[]): Uint8Array => new Uint8Array(Uint16Array.from(v).buffer);

describe('openCheckpoint', () => {
  it('reads F32, F16 and BF16 tensors as float32 exactly', async () => {
    const dir = folder();
    // F16 0x3c00 = 1, 0xc000 = -2, 0x0001 = 2^-24 (subnormal); BF16 0x3fc0 = 1.5, 0xc080 = -4
    writeSafetensors(join(dir, 'model.safetensors'), [
      { name: 'a', dtype: 'F32', shape: [2, 2], bytes: f32([1, 2.5, -3, 1e-8]) },
      { name: 'h', dtype: 'F16', shape: [3], bytes: u16([0x3c00, 0xc000, 0x0001]) },
      { name: 'b', dtype: 'BF16', shape: [2], bytes: u16([0x3fc0, 0xc080]) },
    ]);
    const ck = await openCheckpoint(dir);
    expect(ck.names()).toEqual(['a', 'h', 'b']);
    expect(Array.from(ck.float32('a', [2, 2]))).toEqual([1, 2.5, -3, Math.fround(1e-8)]);
    expect(Array.from(ck.float32('h'))).toEqual([1, -2, 2 ** -24]);
    expect(Array.from(ck.float32('b'))).toEqual([1.5, -4]);
    expect(ck.config.architectures).toEqual(['BertForTokenClassification']);
    ck.close();
  });

  it('follows a sharded index', async () => {
    const dir = folder();
    writeSafetensors(join(dir, 'model-00001-of-00002.safetensors'), [{ name: 'x', dtype: 'F32', shape: [1], bytes: f32([7]) }]);
    writeSafetensors(join(dir, 'model-00002-of-00002.safetensors'), [{ name: 'y', dtype: 'F32', shape: [1], bytes: f32([8]) }]);
    writeFileSync(join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: { x: 'model-00001-of-00002.safetensors', y: 'model-00002-of-00002.safetensors' } }));
    const ck = await openCheckpoint(dir);
    expect([ck.float32('x')[0], ck.float32('y')[0]]).toEqual([7, 8]);
    ck.close();
  });

  it('names the file and tensor of a truncated checkpoint, a shape mismatch and an unknown tensor', async () => {
    const dir = folder();
    const path = join(dir, 'model.safetensors');
    writeSafetensors(path, [
      { name: 'w', dtype: 'F32', shape: [2, 3], bytes: f32([1, 2, 3, 4, 5, 6]) },
      { name: 'last', dtype: 'F32', shape: [4], bytes: f32([1, 2, 3, 4]) },
    ]);
    const ck = await openCheckpoint(dir);
    expect(() => ck.float32('w', [3, 2])).toThrow(/model\.safetensors: tensor w has shape \[2, 3\], the config implies \[3, 2\]/);
    expect(() => ck.float32('nope')).toThrow(/no tensor nope/);
    ck.close();
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 5));
    await expect(openCheckpoint(dir)).rejects.toThrow(/model\.safetensors: tensor last ends at byte \d+ but the file has \d+ \(truncated\)/);
  });

  it('rejects integer tensors where floats are read, naming the dtype', async () => {
    const dir = folder();
    writeSafetensors(join(dir, 'model.safetensors'), [{ name: 'ids', dtype: 'I64', shape: [1], bytes: new Uint8Array(8) }]);
    const ck = await openCheckpoint(dir);
    expect(() => ck.float32('ids')).toThrow(/tensor ids is I64; inferkit reads F32, F16, BF16/);
    ck.close();
  });
});
