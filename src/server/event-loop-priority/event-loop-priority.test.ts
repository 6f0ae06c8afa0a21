import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { serve } from '../serve.js';
import { lowerThreadPriority } from './event-loop-priority.js';

describe('lowerThreadPriority', () => {
  it('changes nothing for 0, or where a nice value is the whole process\'s (not Linux)', () => {
    const before = getPriority(0);
    expect(lowerThreadPriority(0)).toBeUndefined();
    expect(lowerThreadPriority(10, 'darwin')).toBeUndefined();
    expect(lowerThreadPriority(10, 'win32')).toBeUndefined();
    expect(getPriority(0)).toBe(before);
  });

  it('serve() refuses an eventLoopNice that is not a whole number from 0 to 19, naming the field, before it listens', async () => {
    for (const bad of [-1, 20, 2.5, Number.NaN]) {
      await expect(serve([], { port: 0, inference: { eventLoopNice: bad } })).rejects.toThrow(`inference.eventLoopNice must be a whole number from 0 to 19, got ${String(bad)}`);
    }
  });
});
