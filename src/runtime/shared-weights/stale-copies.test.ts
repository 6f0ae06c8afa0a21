import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { pidSpace } from '../../hub/with-file-lock.js';
import { externalizedGraph } from './external-graph.js';
import { hostTag, unfinishedFolder, unfinishedOf } from './stale-copies.js';

const WIDTH = 1024;

/** A graph with 12 MiB of inline weights (over the 8 MiB below which a graph is not copied). */
function inlineGraph(scale: number): Uint8Array {
  const g = new OnnxGraphBuilder();
  let h = g.input('x', 'float32', ['batch', WIDTH]);
  for (let l = 0; l < 3; l++) {
    const w = g.initializer(`w${l}`, { type: 'float32', dims: [WIDTH, WIDTH], data: Float32Array.from({ length: WIDTH * WIDTH }, (_, i) => Math.sin(i * (l + 1)) / scale) });
    h = g.op('MatMul', [h, w]);
  }
  g.output(g.op('Identity', [h], {}, 'y'), 'float32', ['batch', WIDTH]);
  return g.toBytes();
}

describe('externalizedGraph: a new copy for a changed graph file removes the stale copies of that file, and copies whose file is gone', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'inferkit-stale-copies-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the copy while the file is unchanged, replaces it when it changes, leaves other files\' copies and copies in progress, and removes copies whose file is gone', async () => {
    const cache = join(dir, 'cache');
    const source = join(dir, 'model.onnx');
    const other = join(dir, 'other.onnx');
    writeFileSync(source, inlineGraph(32));
    writeFileSync(other, inlineGraph(16));
    const first = dirname((await externalizedGraph(source, cache)) as string);
    const otherCopy = dirname((await externalizedGraph(other, cache)) as string);
    expect(JSON.parse(readFileSync(join(first, 'complete.json'), 'utf8'))).toMatchObject({ source: resolve(source) });
    // Unchanged: found again, nothing removed.
    expect(dirname((await externalizedGraph(source, cache)) as string)).toBe(first);
    expect(existsSync(first)).toBe(true);
    // A copy another process is still writing (not yet renamed into place) for the same file.
    const writing = `${first.replace(/[0-9a-f]{4}$/, 'abcd')}.incomplete-1-2`;
    mkdirSync(writing);
    writeFileSync(join(writing, 'complete.json'), JSON.stringify({ source: resolve(source) }));

    writeFileSync(source, inlineGraph(8)); // new weights, same path
    utimesSync(source, new Date(), new Date(Date.now() + 10_000));
    const second = dirname((await externalizedGraph(source, cache)) as string);
    expect(second).not.toBe(first);
    expect(existsSync(join(second, 'model.onnx.data'))).toBe(true);
    expect(existsSync(first)).toBe(false); // the stale copy of the old bytes
    expect(existsSync(otherCopy)).toBe(true); // another file's copy
    expect(existsSync(writing)).toBe(true); // never a folder being written

    // A model loaded from a folder since removed (a temporary one, a deleted repo): nothing can find its copy again.
    // The next copy made removes it.
    rmSync(other);
    // A packed copy made from a graph since gone, as its record says (the kinds are removed alike).
    const packedOrphan = join(cache, 'graphs', 'packed-0123456789abcdef');
    mkdirSync(packedOrphan);
    writeFileSync(join(packedOrphan, 'complete.json'), JSON.stringify({ source: join(dir, 'gone', 'model.onnx'), level: 'all' }));
    // One made on another machine sharing the cache: its source may be a path this machine does not have.
    const elsewhere = join(cache, 'graphs', 'external-fedcba9876543210');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'complete.json'), JSON.stringify({ source: join(dir, 'gone', 'model.onnx'), host: 'another-machine' }));
    const third = join(dir, 'third.onnx');
    writeFileSync(third, inlineGraph(4));
    const thirdCopy = dirname((await externalizedGraph(third, cache)) as string);
    expect(existsSync(otherCopy)).toBe(false);
    expect(existsSync(packedOrphan)).toBe(false);
    expect(existsSync(elsewhere)).toBe(true);
    expect(JSON.parse(readFileSync(join(thirdCopy, 'complete.json'), 'utf8'))).toMatchObject({ host: hostname() });
    expect(existsSync(second)).toBe(true); // its source is still there
    expect(existsSync(thirdCopy)).toBe(true);
  });
});

describe('the name of a folder being written', () => {
  it('names the folder it becomes, its writer, the machine and its pid space, and is read back; older names without the pid space or the machine too', () => {
    const name = basename(unfinishedFolder('/cache/graphs/bert-fp32-0123456789abcdef'));
    expect(name).toMatch(/^bert-fp32-0123456789abcdef\.incomplete-[A-Za-z0-9._-]+\+[0-9a-f]{8}-\d+-\d+$/);
    expect(unfinishedOf(name)).toEqual({ of: 'bert-fp32-0123456789abcdef', pid: process.pid, host: hostTag(), space: pidSpace() });
    // A host name with dashes and dots, and one of digits alone; with a pid space and without (names before it).
    expect(unfinishedOf('packed-0123456789abcdef.incomplete-gpu-node-7.cluster+0a1b2c3d-4242-1700000000000')).toEqual({ of: 'packed-0123456789abcdef', pid: 4242, host: 'gpu-node-7.cluster', space: '0a1b2c3d' });
    expect(unfinishedOf('packed-0123456789abcdef.incomplete-gpu-node-7.cluster-4242-1700000000000')).toEqual({ of: 'packed-0123456789abcdef', pid: 4242, host: 'gpu-node-7.cluster' });
    expect(unfinishedOf('x.incomplete-123+ffffffff-77-999')).toEqual({ of: 'x', pid: 77, host: '123', space: 'ffffffff' });
    expect(unfinishedOf('x.incomplete-123-77-999')).toEqual({ of: 'x', pid: 77, host: '123' });
    expect(unfinishedOf('x.incomplete-77-999')).toEqual({ of: 'x', pid: 77 });
    expect(unfinishedOf('bert-fp32-0123456789abcdef')).toBeUndefined();
  });
});
