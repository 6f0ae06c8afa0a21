import { describe, expect, it } from 'vitest';
import { isIsoTimestamp } from './timestamp.js';

describe('timestamp offsets', () => {
  it.each(['2024-01-01T00:00:00+25:00', '2024-01-01T00:00:00-24:00', '2024-01-01T00:00:00+02:60', '2024-01-01T00:00+9999'])('rejects %s', (t) => {
    expect(isIsoTimestamp(t)).toBe(false);
  });
  it.each(['2024-01-01T00:00:00+14:00', '2024-01-01T00:00:00-23:59', '2024-01-01T00:00:00+0530', '2024-01-01T00:00:00Z', '2024-01-01'])('accepts %s', (t) => {
    expect(isIsoTimestamp(t)).toBe(true);
  });
});
