import { describe, expect, it } from 'vitest';
import { availableCpus } from './cpu-budget.js';
import { withMachineThreads } from './ort.js';

describe('withMachineThreads (the model loaders\' session default)', () => {
  it('gives one session without a thread count every CPU the process may use, spinning left off', () => {
    const cpus = availableCpus().cpus;
    expect(withMachineThreads()).toEqual({ intraOpThreads: cpus });
    expect(withMachineThreads({ worker: true })).toEqual({ worker: true, intraOpThreads: cpus });
    expect(withMachineThreads({}).spinning).toBeUndefined();
  });

  it('keeps an explicit thread count and leaves replicas at their own threads', () => {
    expect(withMachineThreads({ intraOpThreads: 1 })).toEqual({ intraOpThreads: 1 });
    expect(withMachineThreads({ worker: true, replicas: 2 })).toEqual({ worker: true, replicas: 2 });
    expect(withMachineThreads({ worker: true, replicaThreads: [1, 1] })).toEqual({ worker: true, replicaThreads: [1, 1] });
    expect(withMachineThreads({ replicaThreads: [3] })).toMatchObject({ intraOpThreads: 3 });
  });
});
