import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dirs.js';

const run = promisify(execFile);
/** A fake hub token: set in the kernel's environment, it must appear in no output. */
const TOKEN = 'hf_readmeSnippetSecret_0badc0de';

interface Output {
  output_type: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}
const join1 = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join('') : v ?? '');

/** The README's TypeScript blocks written for a notebook in this repository (they import ./src/index). */
async function readmeCells(): Promise<string[]> {
  const readme = await readFile('README.md', 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]).filter((code) => code.includes("from './src/index'"));
}

describe('README snippets', () => {
  it('run verbatim as tslab cells, offline on an empty model cache, printing nothing secret and no byte dump', { timeout: 300_000 }, async () => {
    const cells = await readmeCells();
    expect(cells.length).toBeGreaterThanOrEqual(3);
    const dir = tempDir('inferkit-readme-');
    const notebook = {
      cells: cells.map((source, i) => ({ cell_type: 'code', id: `readme-${i}`, metadata: {}, execution_count: null, outputs: [], source })),
      metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(join(dir, 'readme.ipynb'), JSON.stringify(notebook));
    const out = join(dir, 'out');
    const env = {
      ...process.env,
      NOTEBOOK_OUT: out,
      HF_TOKEN: TOKEN,
      INFERKIT_CACHE: join(dir, 'cache'),
      HF_ENDPOINT: 'http://127.0.0.1:9', // nothing listens there: a hub request fails the cell
      HF_HUB_OFFLINE: '1',
    };
    await run('bash', ['scripts/run-notebooks.sh', join(dir, 'readme.ipynb')], { env, maxBuffer: 16 * 1024 * 1024 }).catch((e: { stdout?: string }) => {
      throw new TypeError(`README snippets failed:\n${e.stdout ?? ''}`);
    });
    const executed = JSON.parse(await readFile(join(out, 'readme.ipynb'), 'utf8')) as { cells: Array<{ outputs: Output[] }> };
    const outputs = executed.cells.map((c) => c.outputs);
    const all = outputs.flat();
    expect(all.filter((o) => o.output_type === 'error')).toEqual([]);
    expect(JSON.stringify(executed)).not.toContain(TOKEN);
    const text = (os: Output[]): string => os.map((o) => join1(o.text) + join1(o.data?.['text/plain']) + join1(o.data?.['text/html'])).join('\n');
    // 1: the Secret and the InferenceService, the token masked.
    expect(text(outputs[0])).toContain('kind: Secret');
    expect(text(outputs[0])).toContain('HF_TOKEN: <masked>');
    expect(text(outputs[0])).toContain('kind: InferenceService');
    // 2: the built-in fixture, in the kernel, without a hub.
    expect(text(outputs[1])).toContain("entity_group: 'PER'");
    expect(text(outputs[1])).toContain("word: 'Wolfgang'");
    // 3: an HTML table and one chart, and no byte dump of the PNG.
    expect(text(outputs[2])).toContain('<table');
    expect(text(outputs[2])).toContain('>q0.9</th>');
    // The chart: one HTML output holding the PNG and the script that makes it interactive.
    const charts = outputs[2].filter((o) => join1(o.data?.['text/html']).includes('class="inferkit-figure"'));
    expect(charts).toHaveLength(1);
    expect(join1(charts[0].data?.['text/html'])).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]{1000,}"/);
    expect(join1(charts[0].data?.['text/html'])).toContain('https://cdn.plot.ly/plotly-');
    for (const o of all) {
      expect(join1(o.text).length + join1(o.data?.['text/plain']).length, 'a text output this long is a dump').toBeLessThan(20_000);
    }
    expect(text(outputs[2])).not.toContain('Uint8Array');
  });
});
