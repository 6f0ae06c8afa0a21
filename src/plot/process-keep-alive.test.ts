import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { spawnedBy } from './process-keep-alive.js';

const NODE = process.execPath;

describe('spawnedBy', () => {
  it('returns the child process of the given executable that the call spawned, and ignores others', async () => {
    const { result, child } = await spawnedBy(NODE, async () => {
      const other = spawn('/bin/sh', ['-c', 'exit 0']);
      const mine = spawn(NODE, ['-e', '']);
      await Promise.all([other, mine].map((c) => new Promise((r) => c.on('exit', r))));
      return mine.pid;
    });
    expect(child?.pid).toBe(result);
    expect(child?.spawnfile).toBe(NODE);
    // After the call nothing is captured any more.
    const later = await spawnedBy('/nonexistent', async () => 1);
    expect(later.child).toBeUndefined();
  });
});

describe('an idle shared Chromium', () => {
  it('does not keep a script alive: it exits after its render although the browser would idle for 120 s, and Chromium dies with it', { timeout: 90_000 }, async () => {
    const script = [
      "import { renderPng, rendererStats } from './src/plot/render-png.ts';",
      "const png = await renderPng({ data: [{ y: [1, 3, 2] }], layout: {} }, { width: 200, height: 150, idleMs: 120_000 });",
      "console.log(JSON.stringify({ bytes: png.length, pids: rendererStats().pids }));",
    ].join('\n');
    const started = Date.now();
    const { stdout } = await promisify(execFile)('node_modules/.bin/tsx', ['--input-type=module', '-e', script], { timeout: 80_000 });
    const elapsed = Date.now() - started;
    const { bytes, pids } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { bytes: number; pids: number[] };
    expect(bytes).toBeGreaterThan(100);
    expect(pids).toHaveLength(1);
    expect(elapsed, 'the script waited for the idle browser').toBeLessThan(80_000);
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(pids[0], 0);
        await new Promise((r) => setTimeout(r, 100));
      } catch {
        alive = false;
      }
    }
    expect(alive, 'Chromium outlived the script').toBe(false);
  });
});
