import { describe, expect, it } from 'vitest';
import { availableCpus, parseCgroupV1Quota, parseCgroupV2CpuMax, parseCpuQuantity, planThreads } from './cpu-budget.js';

const files = (map: Record<string, string>) => (path: string) => map[path];

describe('availableCpus', () => {
  it('is the affinity count when no cgroup quota is set (v2 "max", v1 -1, or no files)', () => {
    expect(availableCpus({ affinity: 8, readCgroupFile: files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }) })).toEqual({ cpus: 8, source: 'affinity', affinity: 8 });
    const v1 = { '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' };
    expect(availableCpus({ affinity: 4, readCgroupFile: files(v1) }).cpus).toBe(4);
    expect(availableCpus({ affinity: 3, readCgroupFile: files({}) })).toMatchObject({ cpus: 3, source: 'affinity' });
  });

  it('caps by a cgroup v2 cpu.max quota, rounded up (150000/100000 on 16 cores → 2)', () => {
    expect(availableCpus({ affinity: 16, readCgroupFile: files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' }) })).toEqual({
      cpus: 2,
      source: 'cgroup-v2',
      affinity: 16,
      quota: 1.5,
    });
    expect(availableCpus({ affinity: 16, readCgroupFile: files({ '/sys/fs/cgroup/cpu.max': '50000 100000' }) }).cpus).toBe(1);
  });

  it('caps by a cgroup v1 CFS quota; the affinity mask wins when it is smaller', () => {
    const v1 = { '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '400000', '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000' };
    expect(availableCpus({ affinity: 32, readCgroupFile: files(v1) })).toMatchObject({ cpus: 4, source: 'cgroup-v1', quota: 4 });
    expect(availableCpus({ affinity: 2, readCgroupFile: files(v1) })).toMatchObject({ cpus: 2, source: 'affinity', quota: 4 });
  });

  it('reads this machine without throwing and answers at least 1', () => {
    expect(availableCpus().cpus).toBeGreaterThanOrEqual(1);
  });
});

describe('cgroup parsers', () => {
  it('parse quotas and reject unlimited or garbage', () => {
    expect(parseCgroupV2CpuMax('200000 100000')).toBe(2);
    expect(parseCgroupV2CpuMax('max 100000')).toBeUndefined();
    expect(parseCgroupV2CpuMax('garbage')).toBeUndefined();
    expect(parseCgroupV1Quota('25000', '100000')).toBe(0.25);
    expect(parseCgroupV1Quota('-1', '100000')).toBeUndefined();
  });
});

describe('parseCpuQuantity', () => {
  it('reads Kubernetes CPU quantities', () => {
    expect(parseCpuQuantity('500m')).toBe(0.5);
    expect(parseCpuQuantity('2')).toBe(2);
    expect(parseCpuQuantity('1.5')).toBe(1.5);
    expect(parseCpuQuantity(3)).toBe(3);
  });

  it('names the field for anything else', () => {
    for (const bad of ['two', '-1', '0', '2Gi', '']) {
      expect(() => parseCpuQuantity(bad, 'spec.predictor.model.resources.limits.cpu')).toThrow(/spec\.predictor\.model\.resources\.limits\.cpu: expected a CPU quantity/);
    }
  });
});

describe('planThreads', () => {
  it('one model takes every thread; two share them evenly; the sum never exceeds the budget', () => {
    expect(planThreads(8, [{}])).toEqual([8]);
    expect(planThreads(8, [{}, {}])).toEqual([4, 4]);
    expect(planThreads(7, [{}, {}])).toEqual([4, 3]);
  });

  it('a capped model keeps to its cap and leaves the rest to the others', () => {
    expect(planThreads(8, [{ cap: 0.5 }, {}])).toEqual([1, 7]);
    expect(planThreads(8, [{ cap: 2 }, {}, { cap: 1.5 }])).toEqual([2, 4, 2]);
    expect(planThreads(4, [{ cap: 16 }])).toEqual([4]);
  });

  it('models without ONNX sessions get 0 and take no share; more models than threads get 1 each', () => {
    expect(planThreads(2, [{ usesCores: false }, {}])).toEqual([0, 2]);
    expect(planThreads(2, [{}, {}, {}])).toEqual([1, 1, 1]);
  });
});
