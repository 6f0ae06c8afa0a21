import { describe, expect, it } from 'vitest';
import { loadDataset } from '../eval/datasets.js';
import { evaluate } from '../eval/evaluate.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { theta } from '../runtime/forecast/theta.js';
import { scoreFigure } from './backtest-figure.js';

describe('scoreFigure', () => {
  it('puts MASE and WQL of real backtests on separate panels, each with its own zero-based y axis', async () => {
    const series = (await loadDataset('classic_series')).slice(0, 4).map((s) => ({ name: s.name, values: s.values, frequency: s.frequency }));
    const scores = await Promise.all([seasonalNaive(), theta()].map((m) => evaluate(m, series, { horizon: 6, folds: 2 })));
    const fig = scoreFigure(scores.map((s) => ({ model: s.model, mase: s.mase, wql: s.wql })));
    expect(fig.data.map((t) => [t.name, t.xaxis, t.yaxis, t.showlegend])).toEqual([
      ['seasonal-naive', 'x', 'y', true], ['theta', 'x', 'y', true],
      ['seasonal-naive', 'x2', 'y2', false], ['theta', 'x2', 'y2', false],
    ]);
    expect(fig.data[0].y).toEqual([scores[0].mase]);
    expect(fig.data[3].y).toEqual([scores[1].wql]);
    const [y1, y2] = [fig.layout.yaxis, fig.layout.yaxis2] as Array<{ rangemode: string; title: { text: string } }>;
    expect([y1.rangemode, y2.rangemode]).toEqual(['tozero', 'tozero']);
    expect([y1.title.text, y2.title.text]).toEqual(['MASE (scaled by in-sample seasonal naive)', 'WQL (weighted quantile loss)']);
    const [x1, x2] = [fig.layout.xaxis, fig.layout.xaxis2] as Array<{ domain: [number, number] }>;
    expect(x1.domain[1]).toBeLessThan(x2.domain[0]);
    expect(() => scoreFigure([], [])).toThrow(/no metrics/);
  });
});
