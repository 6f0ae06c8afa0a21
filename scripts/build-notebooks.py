#!/usr/bin/env python3
"""Writes notebooks/*.ipynb from the cell sources below. Edit here, then regenerate everything with
   bash scripts/execute-notebooks.sh        # sources + executed outputs (the one command)
or only the sources with
   python3 scripts/build-notebooks.py       # keeps the stored outputs of cells whose source is unchanged
   python3 scripts/build-notebooks.py --check   # exit 1 when notebooks/ differs from these sources (CI)
Cells are TypeScript for the tslab kernel, started from the repository root. They import the public
API from the barrel ./src/index: what `import ... from 'inferkit'` gives a user of the installed package.
Every cell has a stable id: `cNN` by position, or the third element of its tuple."""
import json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METADATA = {"kernelspec": {"display_name": "TypeScript", "language": "typescript", "name": "tslab"},
            "language_info": {"name": "typescript", "file_extension": ".ts", "mimetype": "text/typescript"}}

def nb(cells, old=None):
    """The notebook for `cells`; code cells keep the outputs of `old` (a stored notebook) where the id
    and source are unchanged."""
    previous = {c.get("id"): c for c in (old or {}).get("cells", [])}
    out = []
    for i, spec in enumerate(cells):
        kind, src = spec[0], spec[1]
        cid = spec[2] if len(spec) > 2 else f"c{i:02d}"
        cell = {"cell_type": kind, "id": cid, "metadata": {}, "source": src.strip("\n").splitlines(keepends=True)}
        if kind == "code":
            before = previous.get(cid)
            keep = before is not None and before.get("cell_type") == "code" and before.get("source") == cell["source"]
            cell.update({"execution_count": before.get("execution_count") if keep else None,
                         "outputs": before.get("outputs", []) if keep else []})
        out.append(cell)
    ids = [c["id"] for c in out]
    assert len(set(ids)) == len(ids), f"duplicate cell ids: {ids}"
    return {"cells": out, "metadata": METADATA, "nbformat": 4, "nbformat_minor": 5}

M, C = "markdown", "code"

NOTEBOOKS = {
"01-manifests.ipynb": [
(M, """
# 1. Declare and export InferenceService manifests

An `InferenceService` tells KServe which model to serve and how. inferkit builds them as typed,
validated objects and writes YAML a cluster accepts. Every builder throws a `ValidationError`
naming the field when something is wrong.

**You will learn** to build the `model` form (V1 and V2 protocols, CPU/memory/GPU), the `containers`
form for a custom runtime, how a gated model's hub token goes into a Secret without being shown, and
how to export the YAML and read it back validated.
"""),
(C, """
import { inferenceService, containerService, toYaml, fromYaml, envHubToken } from './src/index';
import { existsSync, mkdirSync, writeFileSync } from 'fs';
if (!existsSync('out/notebooks')) mkdirSync('out/notebooks', { recursive: true });
"""),
(M, "## The `model` form (V1 protocol), with CPU and memory"),
(C, """
const bert = inferenceService({
  name: 'huggingface-bert',
  modelId: 'dslim/bert-base-NER',
  modelName: 'bert',
  disableLowerCase: true,
  resources: { cpu: '1', memory: '2Gi' },
});
console.log(toYaml(bert));
"""),
(M, "## The same model with the V2 (Open Inference) protocol and a GPU"),
(C, """
const bertV2 = inferenceService({
  name: 'huggingface-bert-v2',
  modelId: 'dslim/bert-base-NER',
  modelName: 'bert',
  protocol: 'v2',
  resources: { cpu: '2', memory: '4Gi', gpu: 1 },
});
console.log(toYaml(bertV2));
"""),
(M, "## The `containers` form: a custom runtime image listening on `--http_port`"),
(C, """
const forecaster = containerService({
  name: 'chronos-forecast',
  namespace: 'forecasting',
  image: 'kserve/huggingfaceserver:latest',
  modelId: 'amazon/chronos-bolt-small',
  modelName: 'chronos-bolt',
  task: 'time_series_forecast',
  resources: { cpu: '2', memory: '4Gi', gpu: 1 },
});
console.log(toYaml(forecaster));
"""),
(M, """
## A gated model: the hub token goes into a Secret

The token is read from the environment (`HF_TOKEN`) and written **only** into the Secret document;
the InferenceService references it by `secretKeyRef`. The token is never printed: the YAML file to
apply is written to disk, and the notebook shows it with `toYaml(…, { secrets: 'mask' })`.
"""),
(C, """
const token = envHubToken() ?? 'hf_placeholder_token_for_the_tutorial';
const gated = inferenceService({ name: 'llama-guard', modelId: 'meta-llama/Llama-Guard-3-1B', hubToken: token });
writeFileSync('out/notebooks/gated-model.yaml', toYaml(gated));   // the file to apply, token included
console.log(toYaml(gated, { secrets: 'mask' }));                    // what we show: the value masked
"""),
(M, "## Export all of them and validate the YAML by reading it back"),
(C, """
const all = toYaml([bert.service, bertV2.service, forecaster.service]);
writeFileSync('out/notebooks/manifests.yaml', all);
const docs = fromYaml(all);
docs.map((d) => `${d.kind} ${d.metadata.name}: valid`).join('\\n');
"""),
(C, """
import { isInferkitError } from './src/index';
try {
  inferenceService({ name: 'Bad_Name', modelId: 'x/y' });
} catch (e) {
  console.log(isInferkitError(e) ? `${e.code}: ${e.message}` : e);
}
"""),
(M, """
## Try next

- Change `resources` or `protocol` above and re-run: the YAML is re-validated on every build.
- `npx inferkit manifest --help` builds the same manifests from the command line.
- Serve manifests locally in notebook 2, or deploy one to a cluster in notebook 6.
"""),
],

"02-token-classification.ipynb": [
(M, """
# 2. Token classification: V1 and V2 through the local server, and in the kernel

`serve()` runs the manifests on one local port and routes by the `Host` header, like a KServe
ingress. The model here is inferkit's offline NER fixture (`inferkit/ner-fixture`): real loading,
tokenisation and ONNX inference, with a tiny known-words model instead of downloaded weights.

**You will learn** to serve manifests locally, call them with the V1 (`{instances}`) and V2 (tensor)
protocols through the Host header a KServe ingress uses, run the same model in the kernel to get
entities with character offsets, highlighted in the notebook, and load a checkpoint as the hub publishes it
(`config.json` + `model.safetensors`, no ONNX file), in the kernel and behind a manifest.
"""),
(C, """
import { readFileSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import * as tslab from 'tslab';
import { fromYaml, serve, defaultLoaders, hubOptionsFromEnv, remote, type InferenceService } from './src/index';

const manifests = ['examples/token-classification.yaml', 'examples/token-classification-v2.yaml']
  .flatMap((f) => fromYaml(readFileSync(f, 'utf8')))
  .filter((d): d is InferenceService => d.kind === 'InferenceService');
const server = await serve(manifests, { port: 0, loaders: defaultLoaders(hubOptionsFromEnv()) });
(await server.loaded()).map((m) => `${m.service}: ${m.ready ? 'ready' : m.reason}`).join('\\n');
"""),
(M, "## V1: `{instances}` → per-token class ids, sent with the service's Host header"),
(C, """
const target = { ingressHost: server.host, ingressPort: server.port };
const v1 = remote(target, { isvc: manifests[0] });
const texts = ['My name is Wolfgang and I live in Berlin', 'Angela Merkel visited the United Nations in New York'];
console.log('Host:', v1.host);
JSON.stringify(await v1.predictV1({ instances: texts }));
"""),
(M, "## V2: a BYTES tensor in, an INT64 tensor `[N, 1, T]` out"),
(C, """
const v2 = remote(target, { isvc: manifests[1] });
const answer = await v2.inferV2({ inputs: [{ name: 'input-0', shape: [texts.length], datatype: 'BYTES', data: texts }] });
const out = answer.outputs[0];
console.log('Host:', v2.host);
`${out.name} ${out.datatype} shape=${JSON.stringify(out.shape)}`;
"""),
(C, "await server.close();"),
(M, "## In the kernel: the same model, entities with character offsets, highlighted"),
(C, """
import { writeNerFixtureRepo, loadTokenClassifier, entitiesHtml } from './src/index';

const dir = mkdtempSync(join(tmpdir(), 'ner-'));
await writeNerFixtureRepo(dir, { lowercase: false });
const ner = await loadTokenClassifier({ dir }, { modelName: 'bert', disableLowerCase: true });
const results = await ner.classify(texts, { aggregation: 'simple' });
tslab.display.html(entitiesHtml(texts.map((text, i) => ({ text, entities: results[i].entities })), { scores: true }));
results.map((r) => r.entities.map((e) => ('entity_group' in e ? e.entity_group : e.entity) + ':' + e.word).join(', ')).join('\\n');
"""),
(C, "await ner.dispose();"),
(M, """
## A checkpoint as the hub publishes it: `config.json` + `model.safetensors`, no ONNX file

KServe serves any token-classification checkpoint from its safetensors, and so does inferkit: the first load
builds the ONNX graph in TypeScript (BERT, DistilBERT, RoBERTa, XLM-RoBERTa, CamemBERT, ELECTRA, DeBERTa-v2/v3)
and caches it; the tokenizer comes from `tokenizer.json`, `vocab.txt` or the SentencePiece file. The folders
here are the tiny random XLM-R and DeBERTa-v3 checkpoints the conformance sets ship (random weights: their labels
mean nothing); with network access, a hub id loads the same way. A repo that publishes only `pytorch_model.bin`
(older fine-tunes) loads too: inferkit reads torch.save's file without running its pickle.
""", "ckpt-md"),
(C, """
const SETS = '../shared/conformance';   // with network: e.g. 'Davlan/xlm-roberta-base-ner-hrl'
const cacheDir = mkdtempSync(join(tmpdir(), 'inferkit-graphs-'));
const xlmr = await loadTokenClassifier(join(SETS, 'kserve-hf-xlmr/model'), { modelName: 'xlmr', cacheDir: cacheDir });
const { graph, maxLength, labels } = xlmr.info;
console.log(`xlmr: graph from ${graph.from} (${graph.family} network, built from ${graph.file}), ${labels.length} labels, ${maxLength} tokens per text`);
const [ids] = (await xlmr.predictV1({ instances: ['Angela Merkel besuchte Paris'] })).predictions as number[][][];
`class id per token: ${JSON.stringify(ids)}`;
""", "ckpt-kernel"),
(M, "The same folder behind a KServe manifest (`--model_id=<folder>`), served and called over V2:", "ckpt-serve-md"),
(C, """
const deberta: InferenceService = {
  apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', metadata: { name: 'deberta' },
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, protocolVersion: 'v2',
    args: ['--model_name=deberta', `--model_id=${join(SETS, 'kserve-hf-deberta-v3/model')}`, '--task=token_classification'] } } },
};
const ckptServer = await serve([deberta], { port: 0, loaders: defaultLoaders({ cacheDir: cacheDir }) });   // tslab needs the name spelled out
const [state] = await ckptServer.loaded();
console.log(`deberta: ${state.ready ? 'ready' : state.reason}`);
const reply = await remote({ ingressHost: ckptServer.host, ingressPort: ckptServer.port }, { isvc: deberta })
  .inferV2({ inputs: [{ name: 'input-0', shape: [1], datatype: 'BYTES', data: ['Angela Merkel besuchte Paris'] }] });
`${reply.outputs[0].datatype} shape=${JSON.stringify(reply.outputs[0].shape)}`;
""", "ckpt-serve"),
(C, "await ckptServer.close();\nawait xlmr.dispose();", "ckpt-close"),
(M, """
## Try next

- Put your own sentences in `texts`; try `aggregation: 'none'` to see one label per sub-word token.
- Swap the fixture for a hub model (`loadTokenClassifier('dslim/bert-base-NER')`, with network access).
- `npx inferkit serve examples/token-classification.yaml` serves the same manifests outside the notebook.
"""),
],

"03-forecast-request.ipynb": [
(M, """
# 3. A forecast request composed by hand

`POST /v1/timeseries/forecast` takes series, a horizon and optional quantiles, and answers with a
status per output, quantile paths keyed by level, and usage. We serve `examples/forecast.yaml`
(an offline seasonal-naive baseline under the name `chronos-bolt`) and call it through the client.

**You will learn** the shape of a forecast request and response (horizon, quantiles, frequency, start
timestamp, usage), and how failures are reported: one bad series fails alone (`partial`), a bad
request fails as a whole with an error naming the field.
"""),
(C, """
import { readFileSync } from 'fs';
import { fromYaml, serve, defaultLoaders, hubOptionsFromEnv, remote, readCsv, frameToInputs, type InferenceService,
  type ForecastRequestInput } from './src/index';

const [isvc] = fromYaml(readFileSync('examples/forecast.yaml', 'utf8')).filter((d): d is InferenceService => d.kind === 'InferenceService');
const server = await serve([isvc], { port: 0, loaders: defaultLoaders(hubOptionsFromEnv()) });
await server.loaded();
const model = remote({ ingressHost: server.host, ingressPort: server.port }, { isvc });
model.host;
"""),
(M, "## Compose the request: the last three years of AirPassengers, monthly, 12 steps, three quantiles"),
(C, """
const air = frameToInputs(await readCsv('datasets/classic_series.csv')).find((s) => s.name === 'AirPassengers');
const request: ForecastRequestInput = {
  model: model.name,
  inputs: [{ type: 'univariate_time_series', name: 'air', series: (air?.series ?? []).slice(-36), frequency: 'M', start_timestamp: '1958-01-01T00:00:00Z' }],
  options: { horizon: 12, quantiles: [0.1, 0.5, 0.9] },
  metadata: { request_id: 'tutorial-1' },
};
const response = await model.forecast(request);
const fc = response.outputs[0].content[0];
console.log('status', response.status, '| output', response.outputs[0].status, '| error', response.error ?? null);
console.log('forecast starts', fc.start_timestamp, '| quantile keys', Object.keys(fc.quantiles ?? {}).join(', '));
console.log('mean', JSON.stringify(fc.mean_forecast));
JSON.stringify(response.usage);
"""),
(M, "## Statuses and errors: a bad series fails alone (`partial`); a bad request fails as a whole"),
(C, """
const partial = await model.forecast({
  ...request,
  inputs: [...request.inputs, { type: 'univariate_time_series', name: 'empty', series: [null, null, null], frequency: 'M' }],
});
partial.status + ' | ' + partial.outputs.map((o) => `${o.status}${o.error ? ': ' + o.error.code + ' — ' + o.error.message : ''}`).join(' | ');
"""),
(C, """
import { isInferkitError } from './src/index';
let outcome = '';
try {
  const bad = await model.forecast({ ...request, options: { horizon: 0 } });
  outcome = `${bad.status}: ${bad.error?.code} (${bad.error?.param}) ${bad.error?.message}`;
} catch (e) {
  outcome = isInferkitError(e) ? `${e.code}: ${e.message}` : String(e);
}
outcome;
"""),
(C, "await server.close();"),
(M, """
## Try next

- Ask for other `quantiles` or a longer `horizon`; send several series in one request.
- Point `remote(...)` at a real KServe forecast service: the request is the same.
- Notebook 4 forecasts a whole DataFrame of series in batches.
"""),
],

"04-batch-forecast.ipynb": [
(M, """
# 4. Batch forecast from a DataFrame of real series

Twelve classic series (airline passengers, CO2, UK gas, the Nile, …) in long format
`id,timestamp,value`. `frameToInputs` infers each series' frequency (months, quarters, years),
`batchForecast` sends them in chunks with bounded concurrency and a live progress bar, and the
result comes back as a DataFrame and a chart with 50% and 80% bands.

**You will learn** to go from a CSV of many series to forecasts for all of them in one call, with
progress, and to get the result back as a table, a CSV file and a chart: interactive (zoom, hover)
where the notebook runs scripts, a PNG where it does not (on GitHub, or before you trust the notebook).
"""),
(C, """
import * as tslab from 'tslab';
import { mkdirSync } from 'fs';
import { readCsv, writeCsv, frameToInputs, batchForecast, forecastToFrame, notebookProgress,
  forecastFigure, displayFigure, displayFrame, localForecaster, theta } from './src/index';
mkdirSync('out/notebooks', { recursive: true });

const df = await readCsv('datasets/classic_series.csv');
const inputs = frameToInputs(df);
inputs.map((s) => `${s.name}: ${s.series.length} × ${s.frequency} from ${s.start_timestamp}`).join('\\n');
"""),
(M, "The same call works with `remote(...)` instead of the in-kernel model; only the forecaster changes."),
(C, """
const forecaster = localForecaster(theta());
const result = await batchForecast(inputs, forecaster, {
  horizon: 24,
  quantiles: [0.1, 0.25, 0.5, 0.75, 0.9],
  chunkSize: 4,
  concurrency: 2,
  onProgress: notebookProgress(tslab.newDisplay(), { label: 'theta' }),
});
`${result.status}: ${result.forecasts.length} forecasts, ${result.failures.length} failures, ${result.requests} requests`;
"""),
(C, """
const frame = forecastToFrame(result.forecasts);
await writeCsv(frame, 'out/notebooks/forecasts.csv');
await displayFrame(frame, { maxRows: 8 });   // an HTML table; the whole frame is in forecasts.csv
"""),
(C, """
const fig = forecastFigure(inputs, result.forecasts, {
  series: ['AirPassengers', 'co2', 'UKgas', 'Nile'],
  bands: [[0.1, 0.9], [0.25, 0.75]],
  historyTail: 96,
  title: 'Theta forecasts with 50% and 80% bands',
});
const shown = await displayFigure(fig, { width: 1000, file: 'out/notebooks/forecast.html' });
`PNG ${shown.png.length} bytes; interactive chart in ${shown.file}`;
"""),
(M, """
## Try next

- Load your own long-format CSV (`id,timestamp,value`) with `readCsv` and pass it to `frameToInputs`.
- Swap `theta()` for `seasonalNaive()`, a Chronos-Bolt ONNX model (`loadChronosBolt`), or `remote(...)`.
- `displayFigure` loads plotly.js from its CDN for the interactive chart; offline, pass `plotly: 'inline'`
  (4.8 MB per chart in the notebook) or keep the PNG alone with `interactive: false`.
- Open `out/notebooks/forecast.html`, the same chart as a standalone page (`plotly: 'cdn'` makes it a few kB).
"""),
],

"05-backtest.ipynb": [
(M, """
# 5. Backtest: the available models against the baselines

A rolling-origin backtest on the classic series: each model forecasts the last 12 steps from
three origins; MASE (scaled by the seasonal naive error in-sample) and the weighted quantile loss
are averaged over series. The statistical models are the seasonal naive and theta baselines,
AutoETS (the exponential smoothing model with the lowest AICc per series) and MSTL (seasonal
decomposition, the adjusted series forecast by ETS). No pretrained Chronos-Bolt weights are reachable offline, so the
"model" here is a Chronos-Bolt-shaped ONNX fixture: it shows the plumbing, not the accuracy of
the real model.

**You will learn** to score any forecaster against the baselines with `evaluate`, to chart the
scores, to compare forecasts with the held-out actuals, and to run statsforecast-style
cross-validation (`crossValidation`) and chart every cutoff (`crossValidationFigure`).
"""),
(C, """
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { loadDataset, evaluate, type Evaluation, seasonalNaive, theta, autoEts, mstl, writeChronosFixtureRepo,
  loadChronosBolt } from './src/index';

const series = (await loadDataset('classic_series')).map((s) => ({ name: s.name, values: s.values, frequency: s.frequency }));
const dir = mkdtempSync(join(tmpdir(), 'chronos-'));
await writeChronosFixtureRepo(dir, { kind: 'bolt-like', contextLength: 128, predictionLength: 12 });
const models = [seasonalNaive(), theta(), autoEts(), mstl(), await loadChronosBolt(dir, { name: 'chronos-bolt-fixture' })];
const scores: Evaluation[] = [];
for (const m of models) scores.push(await evaluate(m, series, { horizon: 12, folds: 3 }));
scores.map((s) => `${s.model.padEnd(22)} MASE ${s.mase.toFixed(3)}  WQL ${s.wql.toFixed(3)}`).join('\\n');
"""),
(C, """
import { scoreFigure, backtestFigure, displayFigure } from './src/index';
const scoreChart = await displayFigure(scoreFigure(scores.map((s) => ({ model: s.model, mase: s.mase, wql: s.wql }))), { width: 700, height: 360 });
"""),
(M, "## Actual against forecast on the held-out year"),
(C, """
import { readCsv, frameToInputs, batchForecast, localForecaster } from './src/index';

const pick = frameToInputs(await readCsv('datasets/classic_series.csv')).filter((s) => ['AirPassengers', 'UKDriverDeaths'].includes(s.name));
const train = pick.map((s) => ({ ...s, series: s.series.slice(0, -12) }));
const forecasts: Record<string, import('./src/index').TimeSeriesForecast[]> = {};
for (const m of models.slice(0, 3)) forecasts[m.name] = (await batchForecast(train, localForecaster(m), { horizon: 12 })).forecasts;
const backtestChart = await displayFigure(backtestFigure(pick, forecasts, { historyTail: 48, title: 'Last 12 months held out' }), { width: 1000 });
"""),
(M, """
## Cross-validation, statsforecast style

`crossValidation` takes the long frame (`id, timestamp, value` or `unique_id, ds, y`) and several
models at once, and returns one row per series, cutoff and step: `unique_id, ds, cutoff, y` and a
column per model. Here three yearly cutoffs, each followed by 12 forecast months.
"""),
(C, """
import { crossValidation, crossValidationFigure, displayFrame } from './src/index';
const df = await readCsv('datasets/classic_series.csv');
const cv = await crossValidation(df, [seasonalNaive(), autoEts(), mstl()], { horizon: 12, windows: 3, step: 12 });
await displayFrame(cv, { maxRows: 6, tail: 2 });
""", 'cv-frame'),
(C, """
const cvChart = await displayFigure(crossValidationFigure(cv, { series: ['AirPassengers', 'UKDriverDeaths'],
  title: 'Forecasts from three cutoffs (dotted lines)' }), { width: 1000, height: 520 });
""", 'cv-figure'),
(C, "for (const m of models) await m.dispose();"),
(M, """
## Try next

- Change `horizon` and `folds` in `evaluate`, or add your own series to `series`.
- Fix the model with `autoEts({ model: 'MAM' })`, give `mstl({ periods: [12] })` its periods, or add
  `level: [80]` to `crossValidation` for interval columns.
- With network access, load a real Chronos-Bolt ONNX export (`amazon/chronos-bolt-small`, see
  "Models, offline" in the README) with `loadChronosBolt` in place of the fixture: the same cells then
  measure the real model against the baselines.
"""),
],

"06-deploy.ipynb": [
(M, """
# 6. Deploy to a KServe cluster: manifest → apply → wait → call → delete

`cluster()` reads your kubeconfig the way `kubectl` does (`KUBECONFIG` or `~/.kube/config`, the
current context and its namespace) and server-side applies manifests, watches them until Ready and
gives back a `remote()` client for the live `status.url`.

**Without `KUBECONFIG` this notebook talks to a STAND-IN, not Kubernetes:** `test/kube-stand-in/` is
a small local HTTP server that speaks the part of the Kubernetes API inferkit uses, validates against
KServe's CRD schema and plays the KServe controller (it fills `status.url` and the Ready conditions).
The "ingress" is then a local `inferkit serve` of the same manifest. With `KUBECONFIG` set, the same
cells run against your cluster and its ingress (`INGRESS_HOST`/`INGRESS_PORT`); use the hub model
`dslim/bert-base-NER` there instead of the offline fixture.

**You will learn** the whole deployment loop from a notebook: apply a manifest, follow its conditions
until Ready, call it through the ingress, re-apply idempotently, and delete it.
""", 'deploy-intro'),
(C, """
import { readFileSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { cluster, envHasKubeconfig, fromYaml, toYaml, serve, defaultLoaders, hubOptionsFromEnv, statusRow, formatStatusTable } from './src/index';
import type { InferenceService } from './src/index';
import { startKubeStandIn } from './test/kube-stand-in/server';
import { writeStandInKubeconfig } from './test/kube-stand-in/kubeconfig';

const useStandIn = !envHasKubeconfig();
const work = mkdtempSync(join(tmpdir(), 'inferkit-deploy-'));
const standIn = useStandIn ? await startKubeStandIn({ readyDelayMs: 500 }) : undefined;
const kubeconfig = standIn ? await writeStandInKubeconfig(work, standIn.url) : undefined;
const k = cluster(kubeconfig ? { kubeconfig } : {});
console.log(useStandIn ? `STAND-IN API server (not Kubernetes) at ${await k.server}` : `cluster ${await k.server}`, `namespace ${await k.namespace}`);
""", 'deploy-setup'),
(M, """
## The manifest: the token-classification example
""", 'deploy-manifest'),
(C, """
const docs = fromYaml(readFileSync('examples/token-classification.yaml', 'utf8'));
const name = docs[0].metadata.name;
toYaml(docs);
""", 'deploy-read'),
(M, """
## Apply (server-side apply, field manager `inferkit`)
""", 'deploy-apply'),
(C, """
(await k.apply(docs)).map((r) => `${r.resource}/${r.name} ${r.action}`).join('\\n');
""", 'deploy-apply-run'),
(M, """
## Wait for Ready, showing the conditions as they change (one line, updated in place)
""", 'deploy-wait'),
(C, """
import * as tslab from 'tslab';
const conditions = tslab.newDisplay();   // one line, updated in place as the conditions change
const ready = await k.waitReady(name, { timeoutMs: 10 * 60_000, onProgress: (e) => conditions.text(e.changed.join(', ')) });
formatStatusTable([statusRow(ready)]);
""", 'deploy-wait-run'),
(M, """
## Call the deployed model through the ingress, with the live `status.url` as Host
""", 'deploy-call'),
(C, """
// The stand-in has no pods: a local `inferkit serve` of the same manifest plays the ingress.
const ingress = useStandIn ? await serve(docs as InferenceService[], { port: 0, loaders: defaultLoaders(hubOptionsFromEnv()), log: () => undefined }) : undefined;
const model = await k.remoteFor(name, ingress ? { ingressHost: ingress.host, ingressPort: ingress.port } : {});  // {} = INGRESS_HOST / INGRESS_PORT
console.log('Host:', model.host);
JSON.stringify(await model.predictV1({ instances: ['My name is Wolfgang and I live in Berlin'] }));
""", 'deploy-call-run'),
(M, """
## Applying the same file again changes nothing
""", 'deploy-again'),
(C, """
(await k.apply(docs)).map((r) => `${r.resource}/${r.name} ${r.action}`).join('\\n');
""", 'deploy-again-run'),
(M, """
## Delete, and stop the local stand-ins
""", 'deploy-delete'),
(C, """
const deleted = await k.delete(docs);
await ingress?.close();
await standIn?.close();
deleted.map((d) => `${d} deleted`).join('\\n');
""", 'deploy-delete-run'),
(M, """
## Try next

- Set `KUBECONFIG` (and `INGRESS_HOST`/`INGRESS_PORT`) and re-run against your own cluster.
- `npx inferkit apply`, `npx inferkit wait` and `npx inferkit delete` do the same from a shell.
""", 'deploy-next'),
],

"07-foundation-models.ipynb": [
(M, """
# 7. Foundation models: Chronos-2 with a covariate, Chronos-Bolt and AutoETS

Transformer forecasters load **as their authors publish them** — `config.json` + `model.safetensors` from the
hub (`amazon/chronos-2`, `amazon/chronos-bolt-small`) or a folder: inferkit builds the ONNX graph in
TypeScript on the first load and keeps it in the model cache; no Python, no export step. Chronos-2 also reads
**covariates**: past-only ones and ones known ahead (a planned promotion), sent per series as
`past_covariates` and `future_covariates`.

This notebook runs offline on the **tiny random-weight checkpoints** of the conformance sets
(`../shared/conformance/chronos-2/model`, `../shared/conformance/chronos-bolt/model`): their answers match
the official pipelines, but their weights are random, so the scores below show the plumbing, not the
accuracy of the real models. With network access, pass `'amazon/chronos-2'` and `'amazon/chronos-bolt-small'`
instead of the folders.

**You will learn** to load Chronos-2 and Chronos-Bolt from their checkpoints, to send a covariate on the wire
(and to see that a model which cannot use it says so), and to cross-validate the foundation models against
AutoETS on a frame with a known-future covariate column, scored and charted.
""", 'fm-intro'),
(C, """
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Frame, displayFrame } from './src/index';

// Three stores, 140 days: a weekly pattern, a slow trend and a lift on promotion days (planned ahead).
const day = (d: number) => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
const rows = ['store-1', 'store-2', 'store-3'].flatMap((id, s) => Array.from({ length: 140 }, (_, t) => {
  const promo = (t * (s + 2)) % 11 < 2 ? 1 : 0;
  const y = 100 + 20 * s + 0.2 * t + 15 * Math.sin((2 * Math.PI * t) / 7) + 40 * promo + 5 * Math.sin(1.7 * t + s);
  return { unique_id: id, ds: day(t), y: Math.round(10 * y) / 10, promo };
}));
const df = Frame.fromRows(rows);
await displayFrame(df, { maxRows: 6, tail: 2 });
""", 'fm-data'),
(M, """
## Load the models from their checkpoints

The first load of each builds its graph from the safetensors into `cacheDir` (by default inferkit's model
cache); a second load reuses it.
""", 'fm-load-md'),
(C, """
import { loadChronos2, loadChronosBolt, autoEts } from './src/index';

const SETS = '../shared/conformance';   // with network: 'amazon/chronos-2', 'amazon/chronos-bolt-small'
const cacheDir = mkdtempSync(join(tmpdir(), 'inferkit-graphs-'));
const chronos2 = await loadChronos2(join(SETS, 'chronos-2/model'), { name: 'chronos-2', cacheDir });
const bolt = await loadChronosBolt(join(SETS, 'chronos-bolt/model'), { name: 'chronos-bolt', cacheDir, preferCheckpoint: true });
const ets = autoEts();
[`${chronos2.name}: ${chronos2.quantiles.length} quantile levels, ${chronos2.nativeHorizon} steps per call, context ${chronos2.contextLength}`,
 `${bolt.name}: ${bolt.quantiles.length} quantile levels, ${bolt.nativeHorizon} steps per call`].join('\\n');
""", 'fm-load'),
(M, """
## A covariate on the wire

`past_covariates` carries each covariate's history (one value per step of `series`); `future_covariates` the
known-future ones over the horizon (exactly `horizon` values). A model that cannot read covariates still
answers, from the series alone, and says so in the output's `warnings` (`covariates_ignored`).
""", 'fm-wire-md'),
(C, """
import { localForecaster } from './src/index';

const store1 = rows.filter((r) => r.unique_id === 'store-1');
const request = {
  model: 'chronos-2',
  inputs: [{ type: 'univariate_time_series' as const, name: 'store-1', series: store1.map((r) => r.y), frequency: 'D',
    start_timestamp: '2024-01-01T00:00:00Z',
    past_covariates: { promo: store1.map((r) => r.promo) }, future_covariates: { promo: [0, 1, 1, 0, 0, 0, 0] } }],
  options: { horizon: 7, quantiles: [0.1, 0.9] },
};
const answer = await localForecaster(chronos2).forecast(request);
const etsAnswer = await localForecaster(ets).forecast({ ...request, model: ets.name });
[`chronos-2 warnings: ${JSON.stringify(answer.outputs[0].warnings ?? [])}`,
 `${ets.name} warnings: ${JSON.stringify(etsAnswer.outputs[0].warnings)}`].join('\\n');
""", 'fm-wire'),
(M, """
## Cross-validation with a known-future covariate

`covariates: { future: ['promo'] }` sends every window the promotion history up to its cutoff and the actual
promotion days of the 14 days it forecasts. Chronos-2 reads them; Chronos-Bolt and AutoETS forecast from the
sales alone.
""", 'fm-cv-md'),
(C, """
import { crossValidation } from './src/index';
const cv = await crossValidation(df, [chronos2, bolt, ets], { horizon: 14, windows: 3, step: 14, covariates: { future: ['promo'] } });
await displayFrame(cv, { maxRows: 6, tail: 2, digits: 4 });
""", 'fm-cv'),
(M, """
## Scores: MASE per window (scaled by the seasonal naive error of the history), averaged
""", 'fm-score-md'),
(C, """
import { mase, scoreFigure, displayFigure } from './src/index';

const cvRows = cv.toRows();
const windows = new Map<string, typeof cvRows>();
for (const r of cvRows) windows.set(`${r.unique_id} ${r.cutoff}`, [...(windows.get(`${r.unique_id} ${r.cutoff}`) ?? []), r]);
const scores = [chronos2.name, bolt.name, ets.name].map((model) => {
  const per = [...windows.values()].map((w) => {
    const train = rows.filter((r) => r.unique_id === w[0].unique_id && r.ds <= String(w[0].cutoff)).map((r) => r.y);
    return mase(train, w.map((r) => r.y as number), w.map((r) => r[model] as number), 7);
  });
  return { model, mase: per.reduce((a, b) => a + b, 0) / per.length };
});
const scoreChart = await displayFigure(scoreFigure(scores, ['mase'], { title: 'Cross-validation MASE (random-weight checkpoints: plumbing, not accuracy)' }), { width: 700, height: 360 });
""", 'fm-score'),
(C, """
import { crossValidationFigure } from './src/index';
const cvChart = await displayFigure(crossValidationFigure(cv, { title: 'Forecasts from three cutoffs (dotted lines)' }), { width: 1000, height: 620 });
""", 'fm-cv-figure'),
(C, "for (const m of [chronos2, bolt, ets]) await m.dispose();", 'fm-dispose'),
(M, """
## Try next

- With network access, load `'amazon/chronos-2'` and `'amazon/chronos-bolt-small'` (the same calls), and
  compare the scores again: then they measure the real models.
- Add a past-only covariate column (`covariates: { past: ['temperature'], future: ['promo'] }`), or forecast
  with `batchForecast(df, chronos2, { horizon: 14, covariates, futureFrame })`, where `futureFrame` holds the
  future rows of the known-ahead columns (statsforecast's `X_df`).
- A `multivariate_time_series` input is forecast jointly by Chronos-2: its variables attend to each other.
""", 'fm-next'),
],
}


def sources(notebook):
    return [(c.get("id"), c["cell_type"], "".join(c["source"])) for c in notebook["cells"]], notebook["metadata"]

def main(argv):
    check = "--check" in argv
    stale = []
    for name, cells in NOTEBOOKS.items():
        path = os.path.join(ROOT, "notebooks", name)
        old = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else None
        new = nb(cells, old)
        if check:
            if old is None or sources(old) != sources(new):
                stale.append(name)
            continue
        with open(path, "w", encoding="utf-8") as f:
            json.dump(new, f, indent=1, ensure_ascii=False)
            f.write("\n")
    extra = sorted(set(f for f in os.listdir(os.path.join(ROOT, "notebooks")) if f.endswith(".ipynb")) - set(NOTEBOOKS))
    if check:
        if stale or extra:
            print("notebooks differ from scripts/build-notebooks.py: " + ", ".join(stale + [f"{e} (not generated)" for e in extra])
                  + "\nrun: bash scripts/execute-notebooks.sh", file=sys.stderr)
            return 1
        print(f"{len(NOTEBOOKS)} notebooks match their sources")
        return 0
    print("wrote", len(NOTEBOOKS), "notebooks")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
