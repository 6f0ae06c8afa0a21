import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './fixtures/temp-dirs.js';

const run = promisify(execFile);
const PY = '/usr/bin/python3';

interface Cell {
  cell_type: string;
  id: string;
  outputs?: Array<{ output_type: string; text?: string | string[]; data?: Record<string, unknown> }>;
}

/** Runs `notebook-outputs.py check` against `dir` as if it held a fresh run; exit code and stderr. */
async function check(dir: string): Promise<{ code: number; stderr: string }> {
  return run(PY, ['scripts/notebook-outputs.py', 'check', dir]).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code?: number; stderr?: string }) => ({ code: e.code ?? -1, stderr: e.stderr ?? '' }),
  );
}

describe('stored notebooks (scripts/build-notebooks.py, scripts/notebook-outputs.py)', () => {
  it('match their generator and carry outputs in every notebook', async () => {
    const { stdout } = await run(PY, ['scripts/build-notebooks.py', '--check']);
    expect(stdout).toContain('notebooks match their sources');
    const nb = JSON.parse(await readFile('notebooks/04-batch-forecast.ipynb', 'utf8')) as { cells: Cell[] };
    const kinds = nb.cells.flatMap((c) => c.outputs ?? []).flatMap((o) => Object.keys(o.data ?? {}));
    expect(kinds).toContain('text/html');
    // The chart: the PNG inside the interactive HTML output, plotly.js referenced, not inlined.
    const html = nb.cells.flatMap((c) => c.outputs ?? []).map((o) => String(([] as unknown[]).concat(o.data?.['text/html'] ?? []).join('')));
    const chart = html.find((h) => h.includes('class="inferkit-figure"')) ?? '';
    expect(chart).toMatch(/<img src="data:image\/png;base64,/);
    expect(chart).toContain('https://cdn.plot.ly/plotly-');
  });

  it('compare outputs with volatile parts masked (here a port), and fail on any other change', async () => {
    const fresh = tempDir('inferkit-nbcheck-');
    await cp('notebooks', fresh, { recursive: true });
    expect((await check(fresh)).code).toBe(0);

    const file = join(fresh, '03-forecast-request.ipynb');
    const nb = JSON.parse(await readFile(file, 'utf8')) as { cells: Cell[] };
    const textOf = (c: Cell): string => (c.outputs ?? []).map((o) => (Array.isArray(o.text) ? o.text.join('') : (o.text ?? ''))).join('');
    const errorCell = nb.cells.find((c) => textOf(c).includes('http://127.0.0.1:'));
    const answerCell = nb.cells.find((c) => textOf(c).includes('quantile keys'));
    if (errorCell?.outputs === undefined || answerCell?.outputs === undefined) {
      throw new TypeError('03-forecast-request.ipynb lacks the expected outputs');
    }
    // Another port: the same outputs.
    errorCell.outputs = errorCell.outputs.map((o) => ({ ...o, text: textOf({ ...errorCell, outputs: [o] }).replace(/127\.0\.0\.1:\d+/, '127.0.0.1:1') }));
    await writeFile(file, JSON.stringify(nb));
    expect((await check(fresh)).code).toBe(0);

    // A changed answer is stale.
    answerCell.outputs = answerCell.outputs.map((o) => ({ ...o, text: textOf({ ...answerCell, outputs: [o] }).replace('0.1, 0.5, 0.9', '0.1, 0.5, 0.95') }));
    await writeFile(file, JSON.stringify(nb));
    const stale = await check(fresh);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(`03-forecast-request.ipynb cell ${answerCell.id}`);

    // An interactive chart: another PNG and model output differing in the last digits match; another trace name does not.
    const figDir = tempDir('inferkit-nbcheck-');
    await cp('notebooks', figDir, { recursive: true });
    const figFile = join(figDir, '04-batch-forecast.ipynb');
    const nb4 = JSON.parse(await readFile(figFile, 'utf8')) as { cells: Cell[] };
    const htmlOf = (c: Cell): string => String(([] as unknown[]).concat(c.outputs?.[0]?.data?.['text/html'] ?? []).join(''));
    const chartCell = nb4.cells.find((c) => htmlOf(c).includes('class="inferkit-figure"'));
    const chart = chartCell ? htmlOf(chartCell) : '';
    const setChart = async (html: string): Promise<number> => {
      (chartCell?.outputs ?? [])[0] = { output_type: 'display_data', data: { 'text/html': html } };
      await writeFile(figFile, JSON.stringify(nb4));
      return (await check(figDir)).code;
    };
    const jitter = chart.replace(/base64,[A-Za-z0-9+/=]{8}/, 'base64,AAAAAAAA').replace(/(\d+\.\d{6})\d+/g, '$19');
    expect(jitter).not.toBe(chart);
    expect(await setChart(jitter)).toBe(0);
    expect(chart).toContain('"name":"history"');
    expect(await setChart(chart.replace('"name":"history"', '"name":"past"'))).toBe(1);

    // A cell that prints something in a fresh run but carries no output in notebooks/ is stale too.
    const empty = tempDir('inferkit-nbcheck-');
    await cp('notebooks', empty, { recursive: true });
    const nb1 = JSON.parse(await readFile(join(empty, '01-manifests.ipynb'), 'utf8')) as { cells: Cell[] };
    nb1.cells.find((c) => (c.outputs ?? []).length > 0)?.outputs?.push({ output_type: 'stream', text: 'new line\n' });
    await writeFile(join(empty, '01-manifests.ipynb'), JSON.stringify(nb1));
    expect((await check(empty)).code).toBe(1);
  });
});
