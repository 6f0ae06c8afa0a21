import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pytorchBinCopy } from '../../../test/fixtures/torch-save.js';
import { openCheckpoint, type Checkpoint } from '../safetensors.js';
import { readTorchFile } from './torch-file.js';

// pytorch_model.bin as torch.save writes it, in its zip format and in the legacy one before PyTorch 1.6 (written here by
// Python's own pickle and zipfile: test/fixtures/torch-save.py), must give every tensor of the safetensors checkpoint it was made from, bit for bit; files inferkit must not read fail
// naming the file and why, and a pickle that asks for code never runs it.
const SETS = join(process.cwd(), '../shared/conformance');
const root = mkdtempSync(join(tmpdir(), 'inferkit-torch-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A copy of the set's model folder whose weights are only pytorch_model.bin, written by torch-save.py with `args`. */
function binFolder(set: string, args: readonly string[] = []): string {
  return pytorchBinCopy(join(SETS, set, 'model'), join(root, `${set}-${n++}`), args);
}

async function expectSameTensors(set: string, ck: Checkpoint): Promise<void> {
  const ref = await openCheckpoint(join(SETS, set, 'model'));
  try {
    expect([...ck.names()].sort()).toEqual([...ref.names()].sort());
    for (const name of ref.names()) {
      const want = ref.float32(name);
      const got = ck.float32(name, ref.info(name).shape);
      expect(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(Buffer.from(want.buffer, want.byteOffset, want.byteLength)), name).toBe(true);
    }
  } finally {
    ref.close();
  }
}

describe('pytorch_model.bin (torch.save\'s zip format)', () => {
  const families = ['kserve-hf', 'kserve-hf-distilbert', 'kserve-hf-roberta', 'kserve-hf-xlmr', 'kserve-hf-deberta-v3', 'chronos-bolt', 'chronos-2', 'timesfm-2.0', 'timesfm-2.5'];
  const cases = families.flatMap((set) => [[set, 'zip'], [set, 'legacy']] as const);
  it.each(cases)('%s (%s format): every tensor of model.safetensors, bit for bit, from a folder holding only pytorch_model.bin', async (set, format) => {
    const ck = await openCheckpoint(binFolder(set, format === 'legacy' ? ['--legacy'] : []));
    try {
      expect(ck.info(ck.names()[0]).file).toMatch(/pytorch_model\.bin$/);
      await expectSameTensors(set, ck);
    } finally {
      ck.close();
    }
  });

  it.each([
    ['pickle protocol 4 with zip64 headers, a deflated pickle and the archive named "archive"', ['--protocol', '4', '--zip64', '--deflate-pickle', '--archive', 'archive']],
    ['protocol 5, tensors as nn.Parameter', ['--protocol', '5', '--parameters']],
    ['every float tensor a view at its own offset into one shared storage (as tied and sliced weights are saved)', ['--one-storage']],
    ['three shards and pytorch_model.bin.index.json', ['--shards', '3']],
    ['torch.save\'s format from before PyTorch 1.6 (pickles, then the storages in sorted-key order)', ['--legacy']],
    ['a weight saved as a transposed view (strides [1, rows], as TF-converted checkpoints may hold), in the zip format', ['--transpose', 'distilbert.transformer.layer.0.ffn.lin1.weight']],
    ['a transposed view in the legacy format', ['--legacy', '--transpose', 'classifier.weight']],
    ['the legacy format with every tensor in its own storage view, as nn.Parameter, in two shards', ['--legacy', '--legacy-views', '--parameters', '--shards', '2']],
  ])('reads %s', async (_what, args) => {
    const ck = await openCheckpoint(binFolder('kserve-hf-distilbert', args));
    try {
      await expectSameTensors('kserve-hf-distilbert', ck);
      const transposed = args.indexOf('--transpose');
      if (transposed >= 0) {
        const t = ck.info(args[transposed + 1]);
        expect(t.strides).toEqual([1, t.shape[0]]); // read through its strides, not as if row-major
      }
    } finally {
      ck.close();
    }
  });

  it('finds the directory through the zip64 end record when the plain one is saturated (a file past 4 GiB)', async () => {
    const dir = binFolder('kserve-hf-distilbert', ['--zip64']);
    const file = join(dir, 'pytorch_model.bin');
    const bytes = readFileSync(file);
    const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    bytes.writeUInt16LE(0xffff, eocd + 8);
    bytes.writeUInt16LE(0xffff, eocd + 10);
    bytes.writeUInt32LE(0xffffffff, eocd + 12);
    bytes.writeUInt32LE(0xffffffff, eocd + 16);
    writeFileSync(file, bytes);
    // Python's zipfile reads it too (the zip64 end record holds the real count, size and offset).
    expect(execFileSync('python3', ['-c', 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).infolist()))', file], { encoding: 'utf8' }).trim()).toBe('41');
    const ck = await openCheckpoint(dir);
    try {
      await expectSameTensors('kserve-hf-distilbert', ck);
    } finally {
      ck.close();
    }
  });

  it('keeps an int64 buffer (old BERT checkpoints\' position_ids) as I64 without disturbing the weights', async () => {
    const dir = binFolder('kserve-hf', ['--int64', 'bert.embeddings.position_ids=512']);
    const t = readTorchFile(join(dir, 'pytorch_model.bin')).find((x) => x.name === 'bert.embeddings.position_ids');
    expect(t).toMatchObject({ dtype: 'I64', shape: [1, 512] });
    expect(readFileSync(join(dir, 'pytorch_model.bin')).readBigInt64LE((t?.begin ?? 0) + 8 * 511)).toBe(511n);
    const ck = await openCheckpoint(dir);
    expect(() => ck.float32('bert.embeddings.position_ids')).toThrow(/is I64; inferkit reads F32, F16, BF16/);
    ck.close();
  });

  it('prefers model.safetensors when a repo has both, as transformers does', async () => {
    const dir = binFolder('kserve-hf-distilbert');
    writeFileSync(join(dir, 'model.safetensors'), readFileSync(join(SETS, 'kserve-hf-distilbert', 'model', 'model.safetensors')));
    const ck = await openCheckpoint(dir);
    expect(ck.info(ck.names()[0]).file).toMatch(/model\.safetensors$/);
    ck.close();
  });

  it('never runs code a pickle asks for: a global outside a state dict\'s is named and refused', async () => {
    const marker = join(root, 'ran');
    const dir = binFolder('kserve-hf-distilbert', ['--run-code', marker]);
    await expect(openCheckpoint(dir)).rejects.toThrow(/pytorch_model\.bin: its pickle is not a state dict inferkit reads: it names the global posix\.system, which inferkit does not load/);
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    ['a storage record missing', ['--drop-record', '3'], /its storage record data\/3 is missing/],
    ['a big-endian checkpoint', ['--big-endian'], /saved big-endian/],
    ['a TorchScript archive', ['--torchscript'], /a TorchScript archive \(torch\.jit\.save\)/],
  ])('names the file and the fault: %s', async (_what, args, message) => {
    await expect(openCheckpoint(binFolder('kserve-hf-distilbert', args))).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringMatching(message) });
  });

  it('names a truncated file in either format, a pickle that is no checkpoint and a file that is neither', async () => {
    const cut = binFolder('kserve-hf-distilbert');
    const file = join(cut, 'pytorch_model.bin');
    truncateSync(file, Math.floor(statSync(file).size / 2));
    await expect(openCheckpoint(cut)).rejects.toThrow(/pytorch_model\.bin: not a zip archive \(no end-of-directory record; truncated\?\)/);
    const legacy = binFolder('kserve-hf-distilbert', ['--legacy']);
    const legacyFile = join(legacy, 'pytorch_model.bin');
    truncateSync(legacyFile, statSync(legacyFile).size - 1);
    await expect(openCheckpoint(legacy)).rejects.toThrow(/pytorch_model\.bin: storage \d+ ends at byte \d+ but the file has \d+ \(truncated\)/);
    // A pickle of something else (the number 7, protocol 2).
    writeFileSync(file, Buffer.from([0x80, 0x02, 0x4b, 0x07, 0x2e]));
    await expect(openCheckpoint(cut)).rejects.toThrow(/not a PyTorch checkpoint \(a pickle without torch\.save's magic number\)/);
    writeFileSync(file, 'version https://git-lfs.github.com/spec/v1\n');
    await expect(openCheckpoint(cut)).rejects.toThrow(/pytorch_model\.bin: not a PyTorch checkpoint \(neither torch\.save's zip nor its legacy pickle format\)/);
  });
});
