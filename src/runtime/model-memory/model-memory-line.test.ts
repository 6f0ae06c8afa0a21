import { describe, expect, it } from 'vitest';
import { formatGrowth, modelMemoryLine } from './model-memory-line.js';
import type { ModelMemory } from './model-memory.js';

const GiB = 2 ** 30;
const phase = { order: 1, startedAt: '2026-11-26T22:00:00.000Z', endedAt: '2026-11-26T22:00:01.000Z' };

describe('modelMemoryLine: the per-model line under "models loaded:"', () => {
  it('gives RSS and PSS growth and their ratio to the weights', () => {
    const m: ModelMemory = { rssGrowthBytes: 0.42 * GiB, pssGrowthBytes: 0.41 * GiB, weightsBytes: 0.41 * GiB, alongside: 0, phase };
    expect(modelMemoryLine('bert', m)).toMatchInlineSnapshot(`"    bert memory at load: RSS +0.42 GiB, PSS +0.41 GiB (weights 0.41 GiB: RSS 1.02×, PSS 1.00×)"`);
  });

  it('says how a model of several sessions holds its weights (packed copies are paged in by the first runs, not at load)', () => {
    const m: ModelMemory = { rssGrowthBytes: 0.9 * GiB, pssGrowthBytes: 0.1 * GiB, weightsBytes: 0.41 * GiB, sessionWeights: 'packed', alongside: 0, phase };
    expect(modelMemoryLine('bert', m)).toBe(
      '    bert memory at load: RSS +0.90 GiB, PSS +0.10 GiB (weights 0.41 GiB: RSS 2.20×, PSS 0.24×); its sessions map one packed copy of the weights, paged in by the first runs',
    );
    expect(modelMemoryLine('bert', { ...m, sessionWeights: 'mapped', alongside: 1 })).toMatch(/; its sessions map one unpacked copy of the weights \(slower runs\); 1 other load was/);
    expect(modelMemoryLine('bert', { ...m, sessionWeights: 'own' })).toMatch(/; each session holds its own copy of the weights$/);
  });

  it('says "no weights" for a baseline, MiB for small sizes, and when other loads ran meanwhile', () => {
    expect(modelMemoryLine('naive', { rssGrowthBytes: 3 * 2 ** 20, pssGrowthBytes: -(2 ** 20), alongside: 2, phase })).toMatchInlineSnapshot(
      `"    naive memory at load: RSS +3 MiB, PSS -1 MiB (no weights); 2 other loads were downloading or building meanwhile"`,
    );
    expect(modelMemoryLine('tiny', { rssGrowthBytes: 24 * 2 ** 20, weightsBytes: 4 * 2 ** 20, alongside: 1, phase })).toMatchInlineSnapshot(
      `"    tiny memory at load: RSS +24 MiB (weights 4.0 MiB: RSS 6.00×); 1 other load was downloading or building meanwhile"`,
    );
    expect(modelMemoryLine('fixture', { rssGrowthBytes: 70 * 2 ** 20, weightsBytes: 21_000, alongside: 0, phase })).toBe(
      '    fixture memory at load: RSS +70 MiB (weights 21 KiB: RSS 3495×)',
    );
    expect(modelMemoryLine('custom', undefined)).toMatch(/custom memory at load: not measured/);
    expect(formatGrowth(-1.5 * GiB)).toBe('-1.50 GiB');
  });
});
