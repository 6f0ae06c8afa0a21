import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles per attempt with equal jitter (between half and all of the step)', () => {
    expect([0, 1, 2].map((a) => backoffDelay(a, { retryDelayMs: 100 }, undefined, () => 0))).toEqual([50, 100, 200]);
    expect([0, 1, 2].map((a) => backoffDelay(a, { retryDelayMs: 100 }, undefined, () => 1))).toEqual([100, 200, 400]);
  });

  it('is capped by maxRetryDelayMs, Retry-After included', () => {
    expect(backoffDelay(20, { retryDelayMs: 100, maxRetryDelayMs: 1000 }, undefined, () => 1)).toBe(1000);
    expect(backoffDelay(0, { maxRetryDelayMs: 1000 }, '2')).toBe(1000);
    expect(backoffDelay(0, {}, '0.5')).toBe(500);
    expect(backoffDelay(0, { retryDelayMs: 100 }, 'Wed, 21 Oct 2015 07:28:00 GMT', () => 0)).toBe(50); // dates fall back
  });
});

describe('sleep', () => {
  it('rejects with the signal reason when aborted', async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new RangeError('stop'));
    await expect(p).rejects.toThrow('stop');
  });
});
