import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModelRef } from './parse-model-ref.js';

describe('parseModelRef', () => {
  it('reads hub ids with and without hf:// and @revision', () => {
    expect(parseModelRef('dslim/bert-base-NER')).toEqual({ kind: 'hub', repo: 'dslim/bert-base-NER', revision: undefined });
    expect(parseModelRef('hf://amazon/chronos-bolt-tiny')).toEqual({ kind: 'hub', repo: 'amazon/chronos-bolt-tiny', revision: undefined });
    expect(parseModelRef('hf://org/m@v1.2')).toEqual({ kind: 'hub', repo: 'org/m', revision: 'v1.2' });
    expect(parseModelRef('org/m@refs/pr/3')).toEqual({ kind: 'hub', repo: 'org/m', revision: 'refs/pr/3' });
    expect(parseModelRef('gpt2')).toEqual({ kind: 'hub', repo: 'gpt2', revision: undefined });
  });

  it('treats absolute and dot-relative paths as local folders', () => {
    expect(parseModelRef('./models/ner')).toEqual({ kind: 'local', path: resolve('models/ner') });
    expect(parseModelRef('/opt/m')).toEqual({ kind: 'local', path: '/opt/m' });
  });

  it('rejects malformed refs with invalid_request', () => {
    for (const bad of ['', 'a/b/c', 'org/m@', 'hf://', 'org/--m', 'org/m@a/../b', 'has space/x']) {
      expect(() => parseModelRef(bad), bad).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
    expect(() => parseModelRef('hf://datasets/org/d')).toThrow(expect.objectContaining({ code: 'unsupported' }));
  });
});
