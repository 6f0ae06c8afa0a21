import { describe, expect, it } from 'vitest';
import { redactPaths } from './redact-paths.js';

describe('redactPaths', () => {
  it('cuts absolute paths to their last part', () => {
    expect(redactPaths("ENOENT: no such file or directory, open '/home/me/.cache/inferkit/m/onnx/model.onnx'")).toBe("ENOENT: no such file or directory, open '…/model.onnx'");
    expect(redactPaths('cannot read /tmp/x/config.json: bad')).toBe('cannot read …/config.json: bad');
    expect(redactPaths('open C:\\Users\\me\\cache\\model.onnx failed')).toBe('open …\\model.onnx failed');
  });

  it('keeps URLs, relative paths, routes and model ids', () => {
    for (const s of ['GET https://huggingface.co/org/model/resolve/main/config.json: 404', 'onnx/model.onnx is missing', 'use POST /v1/timeseries/forecast', 'model org/bert-ner', 'POST /v2/models/bert/infer']) {
      expect(redactPaths(s)).toBe(s);
    }
  });
});
