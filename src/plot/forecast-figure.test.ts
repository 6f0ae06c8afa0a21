import { describe, expect, it } from 'vitest';
import type { TimeSeriesForecast, TimeSeriesInput } from '../contract/forecast.js';
import { InferkitError } from '../errors.js';
import { defaultBands, forecastFigure } from './forecast-figure.js';

const history: TimeSeriesInput[] = ['a', 'b'].map((name) => ({ type: 'univariate_time_series', name, frequency: 'month', start_timestamp: '2024-01-01T00:00:00Z', series: [1, 2, null, 4] }));
const forecasts: TimeSeriesForecast[] = ['a', 'b'].map((name) => ({
  type: 'univariate_time_series',
  name,
  frequency: 'month',
  start_timestamp: '2024-05-01T00:00:00Z',
  mean_forecast: [5, 6],
  quantiles: { '0.1': [4, 4], '0.25': [4.5, 5], '0.75': [5.5, 7], '0.9': [6, 8] },
}));

const summary = (t: Record<string, unknown>) => `${t.meta}|${t.name}|${t.xaxis}/${t.yaxis}|${t.fill ?? '-'}|${(t.x as unknown[]).length}`;

describe('forecastFigure', () => {
  it('draws history, both band pairs (outer first) and the mean per facet, with the forecast start marked', () => {
    const fig = forecastFigure(history, forecasts, { title: 'A & <B>' });
    expect(fig.data.map(summary)).toMatchInlineSnapshot(`
      [
        "a|history|x/y|-|4",
        "a|q0.1|x/y|-|3",
        "a|band 0.1–0.9|x/y|tonexty|3",
        "a|q0.25|x/y|-|3",
        "a|band 0.25–0.75|x/y|tonexty|3",
        "a|mean|x/y|-|3",
        "b|history|x2/y2|-|4",
        "b|q0.1|x2/y2|-|3",
        "b|band 0.1–0.9|x2/y2|tonexty|3",
        "b|q0.25|x2/y2|-|3",
        "b|band 0.25–0.75|x2/y2|tonexty|3",
        "b|mean|x2/y2|-|3",
      ]
    `);
    // Bands and the mean start at the last observation (4), so history and forecast join.
    expect(fig.data[2].y).toEqual([4, 6, 8]);
    expect(fig.data[5].x).toEqual(['2024-04-01T00:00:00Z', '2024-05-01T00:00:00Z', '2024-06-01T00:00:00Z']);
    expect(fig.data[0].y).toEqual([1, 2, null, 4]);
    expect(fig.data.filter((t) => t.showlegend).map((t) => t.name)).toEqual(['history', 'band 0.1–0.9', 'band 0.25–0.75', 'mean']);
    const { layout } = fig;
    expect([layout.xaxis, layout.yaxis, layout.xaxis2, layout.yaxis2]).toMatchInlineSnapshot(`
      [
        {
          "anchor": "y",
          "automargin": true,
          "domain": [
            0,
            1,
          ],
          "gridcolor": "#eee",
          "showgrid": true,
        },
        {
          "anchor": "x",
          "automargin": true,
          "domain": [
            0.575,
            1,
          ],
          "gridcolor": "#eee",
          "range": [
            0.65,
            8.35,
          ],
          "showgrid": true,
          "title": {
            "font": {
              "size": 11,
            },
            "text": "value",
          },
        },
        {
          "anchor": "y2",
          "automargin": true,
          "domain": [
            0,
            1,
          ],
          "gridcolor": "#eee",
          "showgrid": true,
          "title": {
            "font": {
              "size": 11,
            },
            "text": "time (month)",
          },
        },
        {
          "anchor": "x2",
          "automargin": true,
          "domain": [
            0,
            0.425,
          ],
          "gridcolor": "#eee",
          "range": [
            0.65,
            8.35,
          ],
          "showgrid": true,
          "title": {
            "font": {
              "size": 11,
            },
            "text": "value",
          },
        },
      ]
    `);
    expect(layout.shapes).toEqual([
      { type: 'line', xref: 'x', yref: 'y domain', x0: '2024-05-01T00:00:00Z', x1: '2024-05-01T00:00:00Z', y0: 0, y1: 1, line: { color: '#888', width: 1, dash: 'dot' } },
      { type: 'line', xref: 'x2', yref: 'y2 domain', x0: '2024-05-01T00:00:00Z', x1: '2024-05-01T00:00:00Z', y0: 0, y1: 1, line: { color: '#888', width: 1, dash: 'dot' } },
    ]);
    expect(layout.title).toEqual({ text: 'A &amp; &lt;B&gt;' });
  });

  it('picks the requested band pairs and rejects levels the forecast lacks', () => {
    const fig = forecastFigure(null, forecasts, { bands: [[0.25, 0.75]], series: ['b'] });
    expect(fig.data.map(summary)).toEqual(['b|q0.25|x/y|-|2', 'b|band 0.25–0.75|x/y|tonexty|2', 'b|mean|x/y|-|2']);
    expect(() => forecastFigure(null, forecasts, { bands: [[0.05, 0.95]] })).toThrow(InferkitError);
    expect(() => forecastFigure(null, forecasts, { series: ['zzz'] })).toThrow(/no forecast for series zzz/);
    expect(defaultBands([0.1, 0.2, 0.5, 0.8, 0.9])).toEqual([[0.1, 0.9], [0.2, 0.8]]);
  });

  it('offers a dropdown selector that shows one series at a time', () => {
    const fig = forecastFigure(history, forecasts, { mode: 'dropdown', bands: [[0.1, 0.9]], historyTail: 2 });
    expect(fig.data.map((t) => `${t.meta}:${t.visible}`)).toEqual(['a:true', 'a:true', 'a:true', 'a:true', 'b:false', 'b:false', 'b:false', 'b:false']);
    expect(fig.data[0].x).toEqual(['2024-03-01T00:00:00Z', '2024-04-01T00:00:00Z']);
    const [menu] = fig.layout.updatemenus as Array<{ buttons: Array<{ label: string; args: [{ visible: boolean[] }, unknown] }> }>;
    expect(menu.buttons.map((b) => [b.label, b.args[0].visible.filter(Boolean).length])).toEqual([['a', 4], ['b', 4]]);
    expect(menu.buttons[1].args[0].visible.slice(4)).toEqual([true, true, true, true]);
  });
});
