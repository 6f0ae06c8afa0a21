import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A graph built from the checkpoint takes packed runs, each of its own shape: the sessions of its replica pools keep no
// memory pattern per shape (ORT's arena then holds one run's tensors, not a block per shape seen;
// src/runtime/shared-weights/README.md). What ORT was given is read from its own log of each session's options, in a
// child process: a first session in its main thread sets ORT's process-wide log level, which the pool's workers share.
const MODEL = join(process.cwd(), '../shared/conformance/kserve-hf/model');
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ik-mempattern-'));
  cpSync(MODEL, join(root, 'built'), { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('onnx') });
  cpSync(MODEL, join(root, 'published'), { recursive: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The `enable_mem_pattern` ORT logged for each session `loadTokenClassifier(dir, { session })` opened, and its answer. */
function sessionMemoryPattern(dir: string, session: Record<string, unknown>): { pattern: string[]; predictions: unknown } {
  const script = join(root, `load-${Math.random().toString(16).slice(2)}.mts`);
  writeFileSync(
    script,
    [
      `import * as ort from ${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('onnxruntime-node')).href)};`,
      `import { loadTokenClassifier } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'src/runtime/token-classification/load-token-classifier.ts')).href)};`,
      `ort.env.logLevel = 'verbose';`,
      `await (await ort.InferenceSession.create(${JSON.stringify(join(root, 'published/onnx/model.onnx'))})).release();`,
      `process.stderr.write('--- loading\\n');`,
      `const c = await loadTokenClassifier(${JSON.stringify(dir)}, { cacheDir: ${JSON.stringify(join(root, 'cache'))}, session: ${JSON.stringify(session)} });`,
      `const answer = await c.predictV1({ instances: ['My name is Wolfgang and I live in Berlin', 'Zürich'] });`,
      `await c.dispose();`,
      `process.stdout.write(JSON.stringify(answer.predictions));`,
    ].join('\n'),
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
  const loading = run.stderr.slice(run.stderr.indexOf('--- loading'));
  return { pattern: [...loading.matchAll(/enable_mem_pattern:(\d)/g)].map((m) => m[1]), predictions: JSON.parse(run.stdout) };
}

describe('memory pattern of a token classifier session', () => {
  it('is off for the replicas of a graph built from the checkpoint, on for one session, for a published graph, and when asked', () => {
    const pool = { worker: true, replicas: 2 };
    const builtPool = sessionMemoryPattern(join(root, 'built'), pool);
    expect(builtPool.pattern).toEqual(['0', '0']);
    expect(sessionMemoryPattern(join(root, 'built'), {}).pattern).toEqual(['1']);
    expect(sessionMemoryPattern(join(root, 'published'), pool).pattern).toEqual(['1', '1']);
    const asked = sessionMemoryPattern(join(root, 'built'), { ...pool, memoryPattern: true });
    expect(asked.pattern).toEqual(['1', '1']);
    // The same answers either way.
    expect(asked.predictions).toEqual(builtPool.predictions);
  }, 300_000);
});
