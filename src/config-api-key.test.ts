import { describe, expect, it } from 'vitest';
import { envApiKey } from './config.js';

describe('envApiKey', () => {
  it('reads INFERKIT_API_KEY; empty or missing is unset', () => {
    expect(envApiKey({ INFERKIT_API_KEY: 'k1' })).toBe('k1');
    expect(envApiKey({ INFERKIT_API_KEY: '' })).toBeUndefined();
    expect(envApiKey({})).toBeUndefined();
  });
});
