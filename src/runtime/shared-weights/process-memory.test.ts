import { describe, expect, it } from 'vitest';
import { formatGiB, memoryLine, processMemory } from './process-memory.js';

describe('processMemory / memoryLine: what `inferkit serve` prints once its models are loaded', () => {
  it('reads a positive RSS, and on Linux a PSS that grows when the process touches new memory', () => {
    const before = processMemory();
    expect(before.rssBytes).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      expect(before.pssBytes).toBeGreaterThan(0);
      const held = Buffer.alloc(64 * 2 ** 20, 1); // 64 MiB, written: private pages
      const after = processMemory();
      expect((after.pssBytes ?? 0) - (before.pssBytes ?? 0)).toBeGreaterThan(32 * 2 ** 20);
      expect(held[held.length - 1]).toBe(1);
    }
  });

  it('names RSS and PSS in GiB and the models counted', () => {
    expect(formatGiB(0.41 * 2 ** 30)).toBe('0.41 GiB');
    expect(memoryLine(1, { rssBytes: 1.3 * 2 ** 30, pssBytes: 0.51 * 2 ** 30 })).toMatch(/^memory: RSS 1\.30 GiB, PSS 0\.51 GiB for 1 model \(/);
    expect(memoryLine(2, { rssBytes: 2 ** 30 })).toMatch(/^memory: RSS 1\.00 GiB for 2 models /);
  });
});
