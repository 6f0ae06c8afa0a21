import { describe, expect, it } from 'vitest';
import { parseDuration } from './cluster-options.js';

describe('parseDuration', () => {
  it('reads kubectl-style durations in milliseconds', () => {
    expect([parseDuration('10m'), parseDuration('90s'), parseDuration('1h'), parseDuration('500ms'), parseDuration('30')]).toEqual([600_000, 90_000, 3_600_000, 500, 30_000]);
  });

  it('names the flag on a bad value', () => {
    expect(() => parseDuration('ten minutes')).toThrow('--timeout: expected a duration like 30s, 10m or 1h, got "ten minutes"');
  });
});
