/**
 * In-kernel GPU inference check (docs/gpu.md): the same graphs on onnxruntime-node's CPU provider and on
 * each GPU provider this build offers (WebGPU is bundled; CUDA needs provider libraries fetched at
 * install). Per model and batch: median ms per run (after warm-up), throughput, the GPU/CPU speed-up and
 * the largest |difference| of the outputs against the CPU's. Writes `gpu-results.json` and `gpu-results.md`
 * to the folder given as the first argument (default `out/gpu`).
 *
 * Bundled to one file by `bench/gpu/prepare.sh` so it runs on a machine that has only `node`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { resolveModelGraph } from '../../src/checkpoint/resolve-model-graph.js';
import { buildBertTokenClassifier } from '../../src/onnx/bert-token-classifier.js';
import { buildChronosBoltLike } from '../../src/onnx/chronos-bolt.js';
import { BOLT_BASE, writeBoltCheckpoint } from '../lib/bolt-checkpoint.js';

interface Model {
  name: string;
  /** Graph bytes, or the path of a graph with external data. */
  bytes: Uint8Array | string;
  feeds: (batch: number) => Record<string, ort.Tensor>;
  batches: number[];
}

interface Row {
  model: string;
  provider: string;
  batch: number;
  ms: number | null;
  perSecond: number | null;
  speedup: number | null;
  maxAbsDiff: number | null;
  error?: string;
}

const outDir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'out/gpu';
const SEQ = 128;
const VOCAB = 30522;

function bertFeeds(batch: number): Record<string, ort.Tensor> {
  const n = batch * SEQ;
  const ids = BigInt64Array.from({ length: n }, (_, i) => BigInt(1000 + ((i * 7919) % (VOCAB - 1000))));
  return {
    input_ids: new ort.Tensor('int64', ids, [batch, SEQ]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [batch, SEQ]),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(n), [batch, SEQ]),
  };
}

function boltFeeds(batch: number): Record<string, ort.Tensor> {
  const T = 512;
  const ctx = Float32Array.from({ length: batch * T }, (_, i) => 100 + 10 * Math.sin((i % T) / 6) + (i % 7));
  return { context: new ort.Tensor('float32', ctx, [batch, T]) };
}

/** Chronos-Bolt-base (205 M parameters, random weights) written as safetensors and built by inferkit's checkpoint builder. */
async function builtBoltBase(): Promise<Model> {
  const root = mkdtempSync(join(tmpdir(), 'inferkit-gpu-built-'));
  const t0 = performance.now();
  writeBoltCheckpoint(join(root, 'model'), BOLT_BASE);
  const built = await resolveModelGraph(join(root, 'model'), { task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, cacheDir: join(root, 'cache') });
  console.log(`Chronos-Bolt-base checkpoint written and its graph built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${built.family})`);
  return { name: 'Chronos-Bolt-base built from model.safetensors (context 512, horizon 64)', bytes: built.graphPath, feeds: boltFeeds, batches: [1, 16, 64, 256] };
}

function models(): Model[] {
  const t0 = performance.now();
  const bert = buildBertTokenClassifier({ layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocabSize: VOCAB, numLabels: 9, seed: 1 });
  const bolt = buildChronosBoltLike({ contextLength: 512, predictionLength: 64, quantiles: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], dModel: 512, layers: 6, heads: 8, dFF: 2048, seed: 1 });
  console.log(`graphs built in ${((performance.now() - t0) / 1000).toFixed(1)} s (BERT-base ${(bert.byteLength / 2 ** 20).toFixed(0)} MiB, Chronos-Bolt-small-shaped ${(bolt.byteLength / 2 ** 20).toFixed(0)} MiB)`);
  return [
    { name: `BERT-base token classification (seq ${SEQ})`, bytes: bert, feeds: bertFeeds, batches: [1, 8, 32, 128] },
    { name: 'Chronos-Bolt-small-shaped forecaster (context 512, horizon 64)', bytes: bolt, feeds: boltFeeds, batches: [1, 16, 64, 256] },
  ];
}

async function timeRuns(session: ort.InferenceSession, feeds: Record<string, ort.Tensor>): Promise<{ ms: number; out: Float32Array<ArrayBufferLike> }> {
  let out: Float32Array = new Float32Array();
  for (let i = 0; i < 3; i++) {
    const r = await session.run(feeds);
    out = r[session.outputNames[0]].data as Float32Array;
  }
  const times: number[] = [];
  const deadline = performance.now() + 6000;
  while (times.length < 5 || (times.length < 30 && performance.now() < deadline)) {
    const t = performance.now();
    await session.run(feeds);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], out };
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    m = Math.max(m, Math.abs(a[i] - b[i]));
  }
  return m;
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const backends = (ort as unknown as { listSupportedBackends?: () => { name: string; bundled: boolean }[] }).listSupportedBackends?.() ?? [];
  console.log('backends', JSON.stringify(backends));
  const providers = ['cpu', 'webgpu', 'cuda'];
  const rows: Row[] = [];
  // --built adds a graph built from a checkpoint; --built-only runs that alone.
  const all = process.argv.includes('--built-only') ? [] : models();
  if (process.argv.includes('--built') || process.argv.includes('--built-only')) {
    all.push(await builtBoltBase());
  }
  for (const model of all) {
    const cpuRef = new Map<number, { ms: number; out: Float32Array }>();
    for (const provider of providers) {
      let session: ort.InferenceSession;
      try {
        const t = performance.now();
        // An `intraOpNumThreads: undefined` key is rejected ('must be a number'): leave it out for GPU providers.
        const opts: ort.InferenceSession.SessionOptions = { executionProviders: [provider], graphOptimizationLevel: 'all', ...(provider === 'cpu' ? { intraOpNumThreads: cpus().length } : {}) };
        session = typeof model.bytes === 'string' ? await ort.InferenceSession.create(model.bytes, opts) : await ort.InferenceSession.create(model.bytes, opts);
        console.log(`${model.name} on ${provider}: session in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      } catch (err) {
        const error = (err as Error).message.split('\n')[0].slice(0, 300);
        console.log(`${model.name} on ${provider}: ${error}`);
        rows.push({ model: model.name, provider, batch: 0, ms: null, perSecond: null, speedup: null, maxAbsDiff: null, error });
        continue;
      }
      for (const batch of model.batches) {
        try {
          const r = await timeRuns(session, model.feeds(batch));
          if (provider === 'cpu') {
            cpuRef.set(batch, r);
          }
          const ref = cpuRef.get(batch);
          rows.push({ model: model.name, provider, batch, ms: r.ms, perSecond: (batch * 1000) / r.ms, speedup: ref ? ref.ms / r.ms : null, maxAbsDiff: ref ? maxAbsDiff(ref.out, r.out) : null });
          console.log(`  batch ${batch}: ${r.ms.toFixed(2)} ms`);
        } catch (err) {
          rows.push({ model: model.name, provider, batch, ms: null, perSecond: null, speedup: null, maxAbsDiff: null, error: (err as Error).message.split('\n')[0].slice(0, 300) });
        }
      }
      await session.release();
    }
  }
  const head = `${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}, onnxruntime-node ${ort.env.versions.common}`;
  const lines = [head, '', '| model | provider | batch | ms / run | items/s | speed-up vs CPU | max abs diff vs CPU | error |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |'];
  for (const r of rows) {
    lines.push(`| ${r.model} | ${r.provider} | ${r.batch || ''} | ${r.ms?.toFixed(2) ?? ''} | ${r.perSecond?.toFixed(1) ?? ''} | ${r.speedup ? `${r.speedup.toFixed(2)}×` : ''} | ${r.maxAbsDiff?.toExponential(1) ?? ''} | ${r.error ?? ''} |`);
  }
  writeFileSync(join(outDir, 'gpu-results.md'), lines.join('\n') + '\n');
  writeFileSync(join(outDir, 'gpu-results.json'), JSON.stringify({ machine: head, rows }, null, 2));
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
