import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../errors.js';
import { buildRuleForecaster } from '../onnx/chronos-bolt.js';
import { createSession, float32Tensor } from './ort.js';

describe('createSession executionProvider', () => {
  const bytes = buildRuleForecaster({ predictionLength: 3, quantiles: [0.1, 0.5, 0.9] });
  const feeds = { context: float32Tensor(Float32Array.of(1, 2, 3, NaN, 5), [1, 5]) };

  it('runs on webgpu with the CPU answer where a GPU adapter exists, else says what is missing', async () => {
    const cpu = await createSession(bytes);
    const want = Array.from((await cpu.run(feeds)).quantile_preds.data as Float32Array);
    await cpu.release();
    let gpu;
    try {
      gpu = await createSession(bytes, { executionProvider: 'webgpu' });
    } catch (err) {
      // No adapter (this CI machine): a config error that says why and where to read on, not ORT's stack.
      expect(isInferkitError(err) && err.code).toBe('config');
      expect((err as Error).message).toMatch(/executionProvider "webgpu" found no GPU adapter here .*Vulkan.*libvulkan\.so\.1.*docs\/gpu\.md/);
      return;
    }
    const got = Array.from((await gpu.run(feeds)).quantile_preds.data as Float32Array);
    await gpu.release();
    got.forEach((v, i) => expect(v).toBeCloseTo(want[i], 4));
  });
});
