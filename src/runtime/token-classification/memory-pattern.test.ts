import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A graph built from the checkpoint takes packed runs, each of its own shape: its sessions keep no memory pattern
// per shape (ORT's arena then holds one run's tensors, not a block per shape seen; src/runtime/shared-weights/README.md).
// What ORT was given is read from its own log of the session options, in a child process (ORT logs to stderr
// once, at its first session, at the level set before it).
const MODEL = join(process.cwd(), '../shared/conformance/kserve-hf/model');
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ik-mempattern-'));
  cpSync(MODEL, join(root, 'built'), { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('onnx') });
  cpSync(MODEL, join(root, 'published'), { recursive: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The `enable_mem_pattern` ORT logged for the session `loadTokenClassifier(dir, options)` opened, and its answer. */
function sessionMemoryPattern(dir: string, session: Record<string, unknown> = {}): { pattern: string[]; predictions: unknown } {
  const script = join(root, `load-${Math.random().toString(16).slice(2)}.mts`);
  writeFileSync(
    script,
    [
      `import * as ort from ${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('onnxruntime-node')).href)};`,
      `import { loadTokenClassifier } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'src/runtime/token-classification/load-token-classifier.ts')).href)};`,
      `ort.env.logLevel = 'verbose';`,
      `const c = await loadTokenClassifier(${JSON.stringify(dir)}, { cacheDir: ${JSON.stringify(join(root, 'cache'))}, session: ${JSON.stringify(session)} });`,
      `const answer = await c.predictV1({ instances: ['My name is Wolfgang and I live in Berlin', 'Zürich'] });`,
      `await c.dispose();`,
      `process.stdout.write(JSON.stringify(answer.predictions));`,
    ].join('\n'),
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
  return { pattern: [...run.stderr.matchAll(/enable_mem_pattern:(\d)/g)].map((m) => m[1]), predictions: JSON.parse(run.stdout) };
}

describe('memory pattern of a token classifier session', () => {
  it('is off for a graph built from the checkpoint, on for a published ONNX graph, and an explicit choice wins', () => {
    const built = sessionMemoryPattern(join(root, 'built'));
    expect(built.pattern).toEqual(['0']);
    const published = sessionMemoryPattern(join(root, 'published'));
    expect(published.pattern).toEqual(['1']);
    const asked = sessionMemoryPattern(join(root, 'built'), { memoryPattern: true });
    expect(asked.pattern).toEqual(['1']);
    // The same answers either way.
    expect(asked.predictions).toEqual(built.predictions);
  }, 300_000);
});
