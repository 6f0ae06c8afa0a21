import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, resolveLimits } from './guard-limits.js';

describe('resolveLimits', () => {
  it('fills in the defaults and keeps the given values', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ maxConnections: 8, maxQueuePerModel: undefined })).toEqual({ ...DEFAULT_LIMITS, maxConnections: 8 });
  });

  it('caps the header timeout at the request timeout (Node enforces neither otherwise)', () => {
    expect(resolveLimits({ requestTimeoutMs: 1500 })).toMatchObject({ requestTimeoutMs: 1500, headersTimeoutMs: 1500 });
    expect(resolveLimits({ requestTimeoutMs: 60_000 }).headersTimeoutMs).toBe(DEFAULT_LIMITS.headersTimeoutMs);
  });

  it('refuses non-positive values, naming the option', () => {
    expect(() => resolveLimits({ shutdownTimeoutMs: 0 })).toThrow(/shutdownTimeoutMs must be a positive number, got 0/);
    expect(() => resolveLimits({ maxBodyBytesInFlight: Number.NaN })).toThrow(/maxBodyBytesInFlight/);
  });
});
