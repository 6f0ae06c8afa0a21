import { getPriority, setPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { threadNice } from '../../../test/fixtures/processes.js';
import { TINY_BERT, tinyBertFeeds } from '../../../test/fixtures/tiny-bert-feeds.js';
import { createSession } from '../../runtime/ort.js';
import type { WorkerSession } from '../../runtime/worker/worker-session.js';
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

  // Last in this file: it leaves this process's main thread at the lowered priority where it may not go back.
  it.runIf(process.platform === 'linux')('a session worker that restarts after the event loop was lowered (a crash\'s replacement) runs at the old priority, as the first one did, where the thread may go back to it', async () => {
    const base = getPriority(0);
    const session = (await createSession(TINY_BERT, { worker: true, intraOpThreads: 2 })) as WorkerSession;
    const first = new Set(threadNice('self').keys());
    const lowered = lowerThreadPriority(5);
    try {
      expect(lowered?.nice).toBe(Math.min(19, base + 5));
      await session.kill('simulated crash');
      await session.run(tinyBertFeeds(2, 8));
      const started = [...threadNice('self')].filter(([tid]) => !first.has(tid));
      // The replacement worker thread, and the ONNX Runtime threads it started.
      expect(started.length).toBeGreaterThanOrEqual(1);
      const expected = lowered?.workersAtOldPriority === true ? base : base + 5;
      expect(started.map(([, nice]) => nice)).toEqual(started.map(() => expected));
      expect(getPriority(0)).toBe(base + 5);
      // As root (CI), the old priority is what they get.
      if (process.getuid?.() === 0) {
        expect(lowered?.workersAtOldPriority).toBe(true);
      }
    } finally {
      await session.release();
      if (lowered?.workersAtOldPriority === true) {
        setPriority(0, base);
      }
    }
  });
});

