import { describe, expect, it } from 'vitest';
import {
  assertRepoPath,
  candidatePaths,
  FORECAST_FILES,
  selectFiles,
  TOKEN_CLASSIFICATION_FILES,
  tokenClassificationFiles,
} from './file-spec.js';

const has = (...paths: string[]) => (p: string) => paths.includes(p);

describe('selectFiles', () => {
  it('prefers onnx/model.onnx over model.onnx and tokenizer.json over vocab.txt', () => {
    const s = selectFiles(TOKEN_CLASSIFICATION_FILES, has('config.json', 'model.onnx', 'onnx/model.onnx', 'vocab.txt', 'tokenizer.json'));
    expect(s).toEqual({ chosen: ['config.json', 'tokenizer.json', 'onnx/model.onnx'], missing: [] });
  });

  it('falls back to the later members of a one-of group and takes optional files when present', () => {
    const s = selectFiles(TOKEN_CLASSIFICATION_FILES, has('config.json', 'model.onnx', 'vocab.txt', 'special_tokens_map.json'));
    expect(s.chosen).toEqual(['config.json', 'vocab.txt', 'model.onnx', 'special_tokens_map.json']);
    // DeBERTa-v3 as microsoft publishes it: spm.model only; beside a tokenizer.json it is not fetched.
    expect(selectFiles(TOKEN_CLASSIFICATION_FILES, has('config.json', 'model.safetensors', 'spm.model')).chosen).toEqual(['config.json', 'spm.model', 'model.safetensors']);
    expect(selectFiles(TOKEN_CLASSIFICATION_FILES, has('config.json', 'model.safetensors', 'spm.model', 'tokenizer.json')).chosen).toEqual(['config.json', 'tokenizer.json', 'model.safetensors']);
    // An older XLM-R fine-tune: sentencepiece.bpe.model only; beside a tokenizer.json it is not fetched either.
    expect(selectFiles(TOKEN_CLASSIFICATION_FILES, has('config.json', 'model.safetensors', 'sentencepiece.bpe.model')).chosen).toEqual(['config.json', 'sentencepiece.bpe.model', 'model.safetensors']);
    expect(selectFiles(TOKEN_CLASSIFICATION_FILES, has('config.json', 'model.safetensors', 'sentencepiece.bpe.model', 'tokenizer.json')).chosen).toEqual(['config.json', 'tokenizer.json', 'model.safetensors']);
  });

  it('lists every unmet requirement', () => {
    expect(selectFiles(TOKEN_CLASSIFICATION_FILES, has('tokenizer_config.json')).missing).toEqual([
      'config.json',
      'one of (tokenizer.json, vocab.txt, spm.model, sentencepiece.bpe.model, vocab.json)',
      'one of (onnx/model.onnx, model.onnx, model.safetensors, model.safetensors.index.json, pytorch_model.bin, pytorch_model.bin.index.json)',
    ]);
  });

  it('takes the quantized model instead of the full one only when asked', () => {
    expect(candidatePaths(TOKEN_CLASSIFICATION_FILES)).not.toContain('onnx/model_quantized.onnx');
    const q = tokenClassificationFiles({ quantized: true });
    const chosen = selectFiles(q, has('config.json', 'vocab.txt', 'onnx/model.onnx', 'onnx/model_quantized.onnx')).chosen;
    expect(chosen).toContain('onnx/model_quantized.onnx');
    expect(chosen).not.toContain('onnx/model.onnx');
    expect(selectFiles(q, has('config.json', 'vocab.txt', 'model.onnx')).missing).toEqual(['one of (onnx/model_quantized.onnx, model.safetensors, model.safetensors.index.json, pytorch_model.bin, pytorch_model.bin.index.json)']);
    expect(selectFiles(q, has('config.json', 'vocab.txt', 'onnx/model.onnx', 'model.safetensors')).chosen).toEqual(['config.json', 'vocab.txt', 'model.safetensors']);
  });

  it('forecast preset needs config.json and one ONNX graph or checkpoint, the graph first, safetensors before pytorch_model.bin', () => {
    expect(selectFiles(FORECAST_FILES, has('config.json', 'pytorch_model.bin', 'model.safetensors')).chosen).toEqual(['config.json', 'model.safetensors']);
    expect(selectFiles(FORECAST_FILES, has('config.json', 'pytorch_model.bin.index.json')).chosen).toEqual(['config.json', 'pytorch_model.bin.index.json']);
    expect(candidatePaths(FORECAST_FILES)).toEqual(['config.json', 'onnx/model.onnx', 'model.onnx', 'model.safetensors', 'model.safetensors.index.json', 'pytorch_model.bin', 'pytorch_model.bin.index.json']);
    expect(selectFiles(FORECAST_FILES, has('config.json')).missing).toEqual(['one of (onnx/model.onnx, model.onnx, model.safetensors, model.safetensors.index.json, pytorch_model.bin, pytorch_model.bin.index.json)']);
    expect(selectFiles(FORECAST_FILES, has('config.json', 'model.safetensors')).chosen).toEqual(['config.json', 'model.safetensors']);
    expect(selectFiles(FORECAST_FILES, has('config.json', 'model.safetensors', 'onnx/model.onnx')).chosen).toEqual(['config.json', 'onnx/model.onnx']);
  });
});

describe('assertRepoPath', () => {
  it('takes a chosen file\'s companions (vocab.json → merges.txt) and names one that is missing; never fetches them otherwise', () => {
    const spec = TOKEN_CLASSIFICATION_FILES;
    expect(selectFiles(spec, has('config.json', 'vocab.json', 'merges.txt', 'model.safetensors')).chosen).toEqual(['config.json', 'vocab.json', 'model.safetensors', 'merges.txt']);
    expect(selectFiles(spec, has('config.json', 'tokenizer.json', 'vocab.json', 'merges.txt', 'model.safetensors')).chosen).toEqual(['config.json', 'tokenizer.json', 'model.safetensors']);
    expect(selectFiles(spec, has('config.json', 'vocab.json', 'model.safetensors')).missing).toEqual(['merges.txt (beside vocab.json)']);
    expect(candidatePaths(spec)).toContain('merges.txt');
  });

  it('rejects paths that could escape the cache folder', () => {
    for (const bad of ['../x', 'a/../../b', '/etc/passwd', 'a\\b', '', 'a//b', './a']) {
      expect(() => assertRepoPath(bad), bad).toThrow(/Unsafe file path/);
    }
    expect(() => assertRepoPath('onnx/model.onnx')).not.toThrow();
  });
});
