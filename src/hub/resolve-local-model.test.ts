import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRepoDir } from '../../test/fixtures/mock-hub.js';
import { TOKEN_CLASSIFICATION_FILES } from './file-spec.js';
import { resolveModel } from './resolve-model.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolve-local-'));
  writeRepoDir(join(root, 'ner'), { 'config.json': '{}', 'vocab.txt': 'a\n', 'model.onnx': 'x', 'onnx/model.onnx': 'y', 'notes.md': '' });
  writeRepoDir(join(root, 'half'), { 'tokenizer_config.json': '{}' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveModel (local folders)', () => {
  it('maps the wanted files of an absolute folder, preferring onnx/model.onnx', async () => {
    const dir = join(root, 'ner');
    const r = await resolveModel(dir, { files: TOKEN_CLASSIFICATION_FILES, cacheDir: '/nonexistent-cache' });
    expect(r).toMatchObject({ source: 'local', repo: dir, dir, revision: 'local', fromCache: true });
    expect(r.files).toEqual({
      'config.json': join(dir, 'config.json'),
      'vocab.txt': join(dir, 'vocab.txt'),
      'onnx/model.onnx': join(dir, 'onnx', 'model.onnx'),
    });
  });

  it("accepts ./relative paths and files: 'all'", async () => {
    const rel = `./${relative(process.cwd(), join(root, 'ner'))}`;
    const r = await resolveModel(rel, { cacheDir: root });
    expect(Object.keys(r.files)).toEqual(['config.json', 'model.onnx', 'notes.md', 'onnx/model.onnx', 'vocab.txt']);
  });

  it('lists every missing file, and says when the folder does not exist', async () => {
    const err = await resolveModel(join(root, 'half'), { files: TOKEN_CLASSIFICATION_FILES, cacheDir: root }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_not_found' });
    expect((err as Error).message).toContain('config.json, one of (tokenizer.json, vocab.txt, spm.model, sentencepiece.bpe.model, vocab.json), one of (onnx/model.onnx, model.onnx, model.safetensors, model.safetensors.index.json, pytorch_model.bin, pytorch_model.bin.index.json)');
    await expect(resolveModel(join(root, 'nope'), { cacheDir: root })).rejects.toMatchObject({
      code: 'model_not_found',
      message: expect.stringContaining('does not exist'),
    });
  });
});
