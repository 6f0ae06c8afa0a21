import { describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '../manifest/runtime-config.js';
import { graphSourceOf } from './graph-source-arg.js';

const config = (values: Record<string, string>): RuntimeConfig => ({ args: { values, flags: new Set<string>() } }) as unknown as RuntimeConfig;

describe('--graph_source', () => {
  it('defaults to auto and takes checkpoint in any case', () => {
    expect(graphSourceOf(config({}))).toBe('auto');
    expect(graphSourceOf(config({ graph_source: ' Checkpoint ' }))).toBe('checkpoint');
  });

  it('fails naming the arg and the accepted values on anything else', () => {
    expect(() => graphSourceOf(config({ graph_source: 'safetensors' }))).toThrow(/--graph_source: expected "auto".*"checkpoint".*got "safetensors"/);
  });
});
