import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';
import { writeSafetensorsFile } from '../../test/fixtures/safetensors-file.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';
import { cachedGraph } from '../checkpoint/graph-cache.js';
import { openCheckpoint } from '../checkpoint/safetensors.js';
import { OnnxGraphBuilder } from '../onnx/graph-builder.js';
import { externalizedGraph } from '../runtime/shared-weights/external-graph.js';
import { unfinishedFolder } from '../runtime/shared-weights/stale-copies.js';

/** A checkpoint folder of one tensor, and the graph cachedGraph builds of it into `cache`. */
async function builtGraph(cache: string, value: number): Promise<{ checkpoint: string; folder: string }> {
  const checkpoint = tempDir('inferkit-cache-ck-');
  writeFileSync(join(checkpoint, 'config.json'), JSON.stringify({ architectures: ['Test'] }));
  writeSafetensorsFile(join(checkpoint, 'model.safetensors'), [{ name: 'w', dtype: 'F32', shape: [4], bytes: new Uint8Array(new Float32Array(4).fill(value).buffer) }]);
  const ck = await openCheckpoint(checkpoint);
  const built = await cachedGraph(ck, { family: 'test', builderVersion: 1, cacheDir: cache }, () => {
    const g = new OnnxGraphBuilder();
    g.op('Mul', [g.input('x', 'float32', [4]), g.lazyFloat32('w', [4], () => ck.float32('w'))], {}, 'y');
    g.output('y', 'float32', [4]);
    return g;
  });
  ck.close();
  return { checkpoint, folder: dirname(built.graphPath) };
}

/** A graph file with 12 MiB of inline weights (a session opens its external-data copy). */
function inlineGraph(path: string): void {
  const g = new OnnxGraphBuilder();
  let h = g.input('x', 'float32', ['batch', 1024]);
  for (let l = 0; l < 3; l++) {
    h = g.op('MatMul', [h, g.initializer(`w${l}`, { type: 'float32', dims: [1024, 1024], data: new Float32Array(1024 * 1024).fill(0.01 * (l + 1)) })]);
  }
  g.output(g.op('Identity', [h], {}, 'y'), 'float32', ['batch', 1024]);
  writeFileSync(path, g.toBytes());
}

interface Listed {
  kind: string;
  name: string;
  path: string;
  bytes: number;
  removable?: string;
}

describe('inferkit cache: what the model cache holds, and pruning what nothing can use', () => {
  let cache = '';
  const at: Record<string, string> = {};
  beforeAll(async () => {
    cache = tempDir('inferkit-cache-cli-');
    // A hub download (one revision) and a built-in fixture, as the hub cache and the CLI lay them out.
    mkdirSync(join(cache, 'models', 'org--tiny-ner', 'main'), { recursive: true });
    writeFileSync(join(cache, 'models', 'org--tiny-ner', 'main', 'config.json'), '{}');
    mkdirSync(join(cache, 'models', 'org--tiny-ner', '.meta'), { recursive: true });
    writeFileSync(join(cache, 'models', 'org--tiny-ner', '.meta', 'main.json'), '{}');
    mkdirSync(join(cache, 'builtin', 'ner-fixture-cased'), { recursive: true });
    writeFileSync(join(cache, 'builtin', 'ner-fixture-cased', 'vocab.txt'), 'a\n');
    // Two built graphs, one of a checkpoint since removed; an external-data copy of a graph that is still there.
    const kept = await builtGraph(cache, 1);
    const gone = await builtGraph(cache, 2);
    rmSync(gone.checkpoint, { recursive: true, force: true });
    at.kept = kept.folder;
    at.gone = gone.folder;
    const source = join(tempDir('inferkit-cache-src-'), 'model.onnx');
    inlineGraph(source);
    at.copy = dirname((await externalizedGraph(source, cache)) as string);
    // Unfinished writes of a process that has exited: one two hours old, one just now.
    const exited = spawnSync(process.execPath, ['-e', '']).pid;
    at.abandoned = join(cache, 'graphs', `bert-fp32-0123456789abcdef.incomplete-${exited}-1`);
    at.recent = join(cache, 'graphs', `bert-fp32-fedcba9876543210.incomplete-${exited}-2`);
    // Two hours old too, by a writer on another machine sharing the cache whose pid runs here (this test's own): that
    // pid says nothing about it. And one this machine's live writer is still at.
    at.elsewhere = join(cache, 'graphs', `bert-fp32-00112233445566aa.incomplete-other-host.example-${process.pid}-3`);
    at.writing = unfinishedFolder(join(cache, 'graphs', 'bert-fp32-00112233445566bb'));
    for (const dir of [at.abandoned, at.recent, at.elsewhere, at.writing]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'model.onnx.data'), new Uint8Array(4096));
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const dir of [at.abandoned, at.elsewhere, at.writing]) {
      utimesSync(join(dir, 'model.onnx.data'), twoHoursAgo, twoHoursAgo);
      utimesSync(dir, twoHoursAgo, twoHoursAgo);
    }
  });

  it('lists every folder with its kind, size and source, and which ones prune would remove and why', async () => {
    const json = await runCli(['cache', '--cache', cache, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { dir: string; bytes: number; entries: Listed[] };
    const byPath = new Map(report.entries.map((e) => [e.path, e]));
    expect(report.entries.map((e) => e.kind).sort()).toEqual(['builtin', 'copy', 'download', 'graph', 'graph', 'unfinished', 'unfinished', 'unfinished', 'unfinished']);
    expect(report.entries.find((e) => e.kind === 'download')).toMatchObject({ name: 'org/tiny-ner@main', bytes: 2 });
    expect(byPath.get(at.kept)).toMatchObject({ kind: 'graph', name: 'test fp32' });
    expect(byPath.get(at.kept)?.removable).toBeUndefined();
    expect(byPath.get(at.gone)).toMatchObject({ kind: 'graph', removable: 'source gone' });
    expect(byPath.get(at.copy)).toMatchObject({ kind: 'copy', name: 'external-data copy' });
    expect(byPath.get(at.copy)?.bytes).toBeGreaterThan(12 * 2 ** 20);
    expect(byPath.get(at.abandoned)).toMatchObject({ kind: 'unfinished', name: 'bert-fp32-0123456789abcdef', removable: 'abandoned' });
    expect(byPath.get(at.recent)?.removable).toBeUndefined(); // its writer may still be at it
    expect(byPath.get(at.elsewhere)).toMatchObject({ kind: 'unfinished', name: 'bert-fp32-00112233445566aa', removable: 'abandoned' });
    expect(byPath.get(at.writing)?.removable).toBeUndefined(); // this machine's writer runs
    expect(report.bytes).toBe(report.entries.reduce((sum, e) => sum + e.bytes, 0));

    const text = await runCli(['cache', '--cache', cache]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^KIND\s+SIZE\s+AGE\s+NAME\s+SOURCE$/);
    expect(text.stdout).toMatch(/\(gone\)/);
    expect(text.stdout).toMatch(/\(abandoned\)/);
    expect(text.stdout).toMatch(new RegExp(`9 folders, .* in ${cache}; 3 removable \\(.*\\): inferkit cache prune`));
  });

  it('prune --dry-run says what it would remove and removes nothing; prune removes only that', async () => {
    const dry = await runCli(['cache', 'prune', '--cache', cache, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would remove ${at.gone} (graph test fp32, `);
    expect(dry.stdout).toContain(`would remove ${at.abandoned} (unfinished bert-fp32-0123456789abcdef, 4 KiB, abandoned)`);
    expect(dry.stdout).toContain(`would remove ${at.elsewhere} (unfinished bert-fp32-00112233445566aa, 4 KiB, abandoned)`);
    expect(dry.stdout).toMatch(/would remove 3 folders, /);
    expect(existsSync(at.gone) && existsSync(at.abandoned) && existsSync(at.elsewhere)).toBe(true);

    const prune = await runCli(['cache', 'prune', '--cache', cache]);
    expect(prune.code).toBe(0);
    expect(prune.stdout).toMatch(new RegExp(`removed 3 folders, .* from ${cache}`));
    expect(existsSync(at.gone)).toBe(false);
    expect(existsSync(at.abandoned)).toBe(false);
    expect(existsSync(at.elsewhere)).toBe(false);
    for (const left of [at.kept, at.copy, at.recent, at.writing, join(cache, 'models', 'org--tiny-ner', 'main'), join(cache, 'builtin', 'ner-fixture-cased')]) {
      expect(existsSync(left)).toBe(true);
    }
    const after = JSON.parse((await runCli(['cache', '--cache', cache, '--json'])).stdout) as { entries: Listed[] };
    expect(after.entries.filter((e) => e.removable !== undefined)).toEqual([]);
  });

  it('an empty or missing cache is empty; a --cache that is a file is an error naming it', async () => {
    const missing = join(cache, 'no-such-cache');
    expect(await runCli(['cache', '--cache', missing])).toMatchObject({ code: 0, stdout: `${missing}: nothing cached\n` });
    expect(await runCli(['cache', 'prune', '--cache', missing])).toMatchObject({ code: 0, stdout: `removed 0 folders, 0 KiB from ${missing}\n` });
    const file = join(cache, 'builtin', 'ner-fixture-cased', 'vocab.txt');
    const bad = await runCli(['cache', '--cache', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`inferkit: the model cache ${file} is not a folder`);
  });
});
