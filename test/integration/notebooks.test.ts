import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fromYaml } from '../../src/manifest/manifest-yaml.js';
import { decodePng } from './png-pixels.js';
import { runGroup } from './run-group.js';
import { tempDir } from '../fixtures/temp-dirs.js';

const run = promisify(execFile);
/** A fake hub token: it must reach the Secret file and appear in no notebook output. */
const TOKEN = 'hf_notebookTestSecret_7d1c0ffee';

interface Output {
  output_type: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
}
interface Notebook {
  cells: Array<{ cell_type: string; outputs?: Output[] }>;
}

const join1 = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join('') : v ?? '');
const texts = (nb: Notebook): string =>
  nb.cells.flatMap((c) => c.outputs ?? []).map((o) => join1(o.text) + join1(o.data?.['text/plain']) + join1(o.data?.['text/html'])).join('\n');
/** The charts' PNGs: `image/png` outputs, and the fallback image inside displayFigure's interactive HTML output. */
const pngs = (nb: Notebook): Uint8Array[] =>
  nb.cells.flatMap((c) => c.outputs ?? []).flatMap((o) => {
    const inHtml = /^<div id="inferkit-fig-[^>]*><img src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(join1(o.data?.['text/html']))?.[1];
    const b64 = o.data?.['image/png'] ? join1(o.data['image/png']) : inHtml;
    return b64 === undefined ? [] : [new Uint8Array(Buffer.from(b64, 'base64'))];
  });

describe('notebooks (headless, tslab kernel)', () => {
  it('run without a cell error and produce the expected outputs', { timeout: 900_000 }, async () => {
    const out = tempDir('inferkit-nb-');
    // In its own process group, killed whole before the test's timeout (the kernels follow: scripts/tslab-kernel.sh);
    // a failing cell is printed with its stderr (scripts/execute-notebook.py).
    const { stdout, stderr, code, timedOut } = await runGroup('bash', ['scripts/run-notebooks.sh'], {
      env: { ...process.env, NOTEBOOK_OUT: out, HF_TOKEN: TOKEN, KUBECONFIG: '' },
      timeoutMs: 840_000,
    });
    if (code !== 0) {
      throw new TypeError(`notebooks ${timedOut ? 'timed out (killed after 840 s)' : 'failed'}:\n${stdout}\n${stderr}`);
    }
    // The stored notebooks are those the generator writes, and carry the outputs of this fresh run
    // (normalised: ports, temp paths, durations and PNG bytes masked). Regenerate: scripts/execute-notebooks.sh.
    const py = process.env.INFERKIT_PYTHON ?? '/usr/bin/python3';
    await run(py, ['scripts/build-notebooks.py', '--check']).catch((e: { stderr?: string }) => {
      throw new TypeError(`stored notebooks differ from scripts/build-notebooks.py:\n${e.stderr ?? ''}`);
    });
    await run(py, ['scripts/notebook-outputs.py', 'check', out], { maxBuffer: 16 * 1024 * 1024 }).catch((e: { stderr?: string }) => {
      throw new TypeError(e.stderr ?? 'stored notebook outputs are stale');
    });
    const names = (await readdir('notebooks')).filter((f) => f.endsWith('.ipynb')).sort();
    expect(names).toHaveLength(7);
    expect(stdout.match(/^ok /gm)).toHaveLength(7);
    const nbs = new Map<string, Notebook>();
    for (const name of names) {
      nbs.set(name, JSON.parse(await readFile(join(out, name), 'utf8')) as Notebook);
    }
    for (const [name, nb] of nbs) {
      expect(nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === 'error'), name).toEqual([]);
      expect(JSON.stringify(nb), `${name} leaks the hub token`).not.toContain(TOKEN);
      expect(JSON.stringify(nb), `${name} inlines plotly`).not.toContain('plotly.js v');
    }
    // 1: the exported manifests validate; the Secret file got the token, the outputs did not.
    expect(texts(nbs.get('01-manifests.ipynb') as Notebook)).toContain('InferenceService huggingface-bert-v2: valid');
    const docs = fromYaml(await readFile('out/notebooks/manifests.yaml', 'utf8'));
    expect(docs.map((d) => d.metadata.name)).toEqual(['huggingface-bert', 'huggingface-bert-v2', 'chronos-forecast']);
    expect(await readFile('out/notebooks/gated-model.yaml', 'utf8')).toContain(TOKEN);
    expect(texts(nbs.get('01-manifests.ipynb') as Notebook)).toContain('HF_TOKEN: <masked>');
    // 2: V1/V2 through the Host header, entities highlighted.
    const t2 = texts(nbs.get('02-token-classification.ipynb') as Notebook);
    expect(t2).toContain('Host: huggingface-bert.default.example.com');
    expect(t2).toContain('output-0 INT64 shape=[2,1,');
    expect(t2).toContain('PER:Angela Merkel');
    expect(t2).toContain('<mark');
    // A checkpoint without ONNX: the graph built from model.safetensors, in the kernel and behind a manifest.
    expect(t2).toContain('xlmr: graph from checkpoint (roberta network, built from model.safetensors), 9 labels, 512 tokens per text');
    expect(t2).toContain('deberta: ready');
    expect(t2).toContain('INT64 shape=[1,1,');
    // 3: quantiles, usage, partial and error statuses.
    const t3 = texts(nbs.get('03-forecast-request.ipynb') as Notebook);
    expect(t3).toContain('quantile keys 0.1, 0.5, 0.9');
    expect(t3).toMatch(/"total_tokens":\d+/);
    expect(t3).toMatch(/^partial \| completed \| error/m);
    expect(t3).toContain('options.horizon');
    // 4: a real PNG chart with drawn pixels, and the forecast CSV.
    const [chart] = pngs(nbs.get('04-batch-forecast.ipynb') as Notebook);
    const img = decodePng(chart);
    let drawn = 0;
    for (let y = 60; y < img.height - 60; y += 2) {
      for (let x = 70; x < img.width - 30; x += 2) {
        if (img.pixel(x, y)[0] < 200) {
          drawn++;
        }
      }
    }
    expect(drawn).toBeGreaterThan(1000);
    expect(texts(nbs.get('04-batch-forecast.ipynb') as Notebook)).toContain('completed: 12 forecasts, 0 failures');
    expect(texts(nbs.get('04-batch-forecast.ipynb') as Notebook)).toContain('>q0.9</th>');
    expect(texts(nbs.get('04-batch-forecast.ipynb') as Notebook)).toContain('288 rows × 8 columns');
    expect((await readFile('out/notebooks/forecasts.csv', 'utf8')).split('\n')[0]).toBe('id,timestamp,mean,q0.1,q0.25,q0.5,q0.75,q0.9');
    // 5: scores for the baselines, AutoETS, MSTL and the model; three charts.
    const t5 = texts(nbs.get('05-backtest.ipynb') as Notebook);
    expect(t5).toMatch(/seasonal-naive\s+MASE \d/);
    expect(t5).toMatch(/theta\s+MASE \d/);
    expect(t5).toMatch(/auto-ets\s+MASE \d/);
    expect(t5).toMatch(/mstl\s+MASE \d/);
    expect(pngs(nbs.get('05-backtest.ipynb') as Notebook)).toHaveLength(3);
    // The cross-validation frame and its chart (interactive output, PNG inside).
    expect(t5).toContain('>cutoff</th>');
    expect(t5).toContain('Forecasts from three cutoffs');
    // 6: apply → wait → call → delete against the stand-in API server (no KUBECONFIG in the test env).
    const t6 = texts(nbs.get('06-deploy.ipynb') as Notebook);
    expect(t6).toContain('STAND-IN API server (not Kubernetes)');
    expect(t6).toContain('inferenceservice.serving.kserve.io/huggingface-bert created');
    expect(t6).toContain('huggingface-bert-predictor-00001');
    expect(t6).toContain('{"predictions":[[[0,0,0,0,3,0,0,0,0,7,0]]]}');
    expect(t6).toContain('inferenceservice.serving.kserve.io/huggingface-bert unchanged');
    expect(t6).toContain('inferenceservice.serving.kserve.io/huggingface-bert deleted');
    // 7: Chronos-2 and Chronos-Bolt built from the conformance checkpoints, a covariate on the wire (AutoETS warns),
    // cross-validation of the three with a known-future covariate, scored and charted.
    const t7 = texts(nbs.get('07-foundation-models.ipynb') as Notebook);
    expect(t7).toContain('chronos-2: 21 quantile levels, 64 steps per call, context 512');
    expect(t7).toContain('chronos-2 warnings: []');
    expect(t7).toMatch(/auto-ets warnings: \[\{"code":"covariates_ignored"/);
    expect(t7).toContain('>chronos-2</th>');
    expect(t7).toContain('>chronos-bolt</th>');
    expect(t7).toContain('Cross-validation MASE');
    expect(pngs(nbs.get('07-foundation-models.ipynb') as Notebook)).toHaveLength(2);
  });
});
