import { describe, expect, it } from 'vitest';
import { autoEts, autoEtsContextLength } from './auto-ets.js';

/** A noisy seasonal series (period 12) with a slow level change, values > 0. */
function series(n: number): Float32Array {
  let s = 7;
  const noise = (): number => ((s = (s * 16807) % 2147483647) / 2147483647 - 0.5) * 6;
  return Float32Array.from({ length: n }, (_, t) => 200 + 20 * Math.sin(t / 300) + 15 * Math.sin((2 * Math.PI * t) / 12) + noise());
}

async function predict(model: ReturnType<typeof autoEts>, y: Float32Array): Promise<number[]> {
  const f = await model.predict([y], 6, { frequencies: ['month'] });
  return Array.from(f.values[0] ?? []);
}

describe('autoEts context cap', () => {
  it('defaults to the last max(10 seasons, 1000) values', () => {
    expect(autoEtsContextLength(12)).toBe(1000);
    expect(autoEtsContextLength(336)).toBe(3360);
    expect(autoEtsContextLength(48, 200)).toBe(200);
  });

  it('fits a long series on its last values only: same forecast as the tail alone', async () => {
    const y = series(2500);
    const model = autoEts({ simulations: 200 });
    expect(await predict(model, y)).toEqual(await predict(model, y.subarray(y.length - 1000)));
  });

  it('maxContext changes the cap; Infinity fits everything', async () => {
    const y = series(400);
    const capped = autoEts({ maxContext: 100, simulations: 200 });
    expect(await predict(capped, y)).toEqual(await predict(capped, y.subarray(300)));
    const all = autoEts({ maxContext: Number.POSITIVE_INFINITY, simulations: 200 });
    expect(await predict(all, y)).toEqual(await predict(autoEts({ simulations: 200 }), y));
  });

  it('a maxContext that is not an integer ≥ 5 (or Infinity) is a config error naming it', () => {
    expect(() => autoEts({ maxContext: 2 })).toThrow(/maxContext/);
    expect(() => autoEts({ maxContext: 10.5 })).toThrow(/maxContext/);
  });
});
