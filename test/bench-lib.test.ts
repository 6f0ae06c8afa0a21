import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openCheckpoint } from '../src/checkpoint/safetensors.js';
import { topSelfTime, type CpuProfile } from '../bench/lib/cpu-profile.js';
import { LeanConnection, requestBytes, runLoad } from '../bench/lib/load-client.js';
import { measure } from '../bench/lib/measure.js';
import { normalizeResult } from '../bench/lib/normalize-result.js';
import { writeRandomCheckpoint } from '../bench/lib/random-checkpoint.js';
import { RESULTS_HEADER, sectionNames, sectionSays, upsertSection, writeSection, type SectionRun } from '../bench/lib/results-doc.js';
import { formatMiB, formatNumber, formatRatio, formatSummary, median, minMax, percentile, rateOf, summarize } from '../bench/lib/stats.js';
import { markdownTable, renderTable } from '../bench/lib/table.js';

describe('median', () => {
  it('takes the middle of an odd sample and the mean of the two middles of an even one, unsorted input', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });
  it('does not reorder the caller\'s array', () => {
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe('minMax / summarize / percentile', () => {
  it('finds the extremes, including negatives', () => {
    expect(minMax([2, -1, 9, 4])).toEqual({ min: -1, max: 9 });
    expect(summarize([10, 30, 20])).toEqual({ median: 20, min: 10, max: 30, n: 3 });
  });
  it('returns NaN extremes for an empty sample', () => {
    const r = minMax([]);
    expect(r.min).toBeNaN();
    expect(r.max).toBeNaN();
  });
  it('uses nearest rank for percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([42], 99)).toBe(42);
  });
});

describe('rateOf', () => {
  it('turns ms per call into units per second, swapping min and max', () => {
    const r = rateOf({ median: 100, min: 50, max: 200, n: 3 }, 10);
    expect(r).toEqual({ median: 100, min: 50, max: 200, n: 3 });
    const s = rateOf({ median: 250, min: 200, max: 500, n: 3 }, 1);
    expect(s.median).toBe(4);
    expect(s.min).toBe(2);
    expect(s.max).toBe(5);
  });
});

describe('formatting', () => {
  it('formats ratios as two-decimal multipliers and refuses meaningless ones', () => {
    expect(formatRatio(93, 100)).toBe('0.93×');
    expect(formatRatio(3, 2)).toBe('1.50×');
    expect(formatRatio(1, 0)).toBe('n/a');
    expect(formatRatio(undefined, 2)).toBe('n/a');
    expect(formatRatio(Number.NaN, 2)).toBe('n/a');
  });
  it('keeps about three significant digits with separators', () => {
    expect(formatNumber(12345.6)).toBe('12,346');
    expect(formatNumber(123.4)).toBe('123');
    expect(formatNumber(12.34)).toBe('12.3');
    expect(formatNumber(1.234)).toBe('1.23');
    expect(formatNumber(0.12345)).toBe('0.123');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('n/a');
  });
  it('writes median (min–max) and collapses a single sample', () => {
    expect(formatSummary({ median: 12.3, min: 11.9, max: 13, n: 5 })).toBe('12.3 (11.9–13.0)');
    expect(formatSummary({ median: 5, min: 5, max: 5, n: 1 })).toBe('5.00');
    expect(formatMiB(3 * 2 ** 20)).toBe('3 MiB');
  });
});

describe('markdownTable', () => {
  it('right-aligns numeric columns, pads short rows and escapes pipes', () => {
    const md = markdownTable(['name', 'ms'], [['a|b', '1'], ['c']]);
    expect(md).toBe(['| name | ms |', '| --- | ---: |', '| a\\|b | 1 |', '| c |  |'].join('\n'));
  });
  it('renders a titled table with notes', () => {
    const md = renderTable({ title: 'T', headers: ['x'], rows: [['1']], notes: ['n'] });
    expect(md.split('\n')).toEqual(['### T', '', '| x |', '| --- |', '| 1 |', '', '- n']);
  });
});

describe('normalizeResult', () => {
  it('renders plain records as one table and keeps markdown strings', () => {
    const r = normalizeResult([{ model: 'theta', mase: 0.5 }, { model: 'naive', mase: 1.25 }]);
    expect(r.blocks[0].split('\n')[0]).toBe('| model | mase |');
    expect(r.blocks[0]).toContain('| naive | 1.250 |');
    expect(normalizeResult('  # hi \n').blocks).toEqual(['# hi']);
  });
  it('takes BenchResult tables and their peak RSS', () => {
    const r = normalizeResult({ tables: [{ title: 'A', headers: ['h'], rows: [['1']] }], peakRssBytes: 42 });
    expect(r.blocks[0].startsWith('### A')).toBe(true);
    expect(r.peakRssBytes).toBe(42);
  });
});

describe('measure', () => {
  it('runs warm-up calls untimed and the timed runs a bounded number of times', async () => {
    let calls = 0;
    const m = await measure(() => {
      calls++;
    }, { warmup: 2, runs: 4 });
    expect(calls).toBe(6);
    expect(m.n).toBe(4);
    expect(m.samples).toHaveLength(4);
    expect(m.min).toBeLessThanOrEqual(m.median);
    expect(m.median).toBeLessThanOrEqual(m.max);
  });
});

describe('topSelfTime', () => {
  it('charges samples to functions, native frames to their JS caller, and leaves idle out', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
        { id: 2, callFrame: { functionName: 'run', url: 'file:///repo/src/a.ts', lineNumber: 9 }, children: [3] },
        { id: 3, callFrame: { functionName: 'dispatch', url: '', lineNumber: -1 } },
        { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      ],
      samples: [2, 3, 3, 4],
      timeDeltas: [1000, 2000, 1000, 5000],
      startTime: 0,
      endTime: 9000,
    };
    const r = topSelfTime(profile, '/repo');
    expect(r.idleMs).toBe(5);
    expect(r.busyMs).toBe(4);
    expect(r.rows[0]).toEqual({ fn: 'native, called from run (src/a.ts)', selfMs: 3, percent: 75 });
    expect(r.rows[1]).toEqual({ fn: 'run (src/a.ts:10)', selfMs: 1, percent: 25 });
  });
});

describe('the load generator\'s lean connection', () => {
  it('sends the bytes of a real request and reads Content-Length, chunked and empty answers to their end, keeping the connection', async () => {
    const seen: { method: string; url: string; body: string; connection: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', body, connection: `${req.socket.remotePort}` });
        if (req.url === '/chunked') {
          res.write('{"a":');
          setTimeout(() => res.end('1}'), 5);
        } else if (req.url === '/empty') {
          res.writeHead(404).end();
        } else if (req.url === '/close') {
          res.setHeader('connection', 'close');
          res.end('{}');
        } else {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ echo: body }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const c = new LeanConnection(port);
    try {
      expect(await c.send(requestBytes(port, '/v1/models/m:predict', '{"instances":["é"]}'))).toBe(200);
      expect(await c.send(requestBytes(port, '/chunked'))).toBe(200);
      expect(await c.send(requestBytes(port, '/empty'))).toBe(404);
      expect(await c.send(requestBytes(port, '/v1/models/m:predict', '{}'))).toBe(200);
      await expect(c.send(requestBytes(port, '/x'))).resolves.toBe(200);
    } finally {
      c.close();
    }
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/v1/models/m:predict', '{"instances":["é"]}'],
      ['GET', '/chunked', ''],
      ['GET', '/empty', ''],
      ['POST', '/v1/models/m:predict', '{}'],
      ['GET', '/x', ''],
    ]);
    expect(new Set(seen.map((s) => s.connection)).size).toBe(1);
    // runLoad counts every answer and fails on a non-200.
    const r = await runLoad(port, '/ok', ['{"n":1}', '{"n":2}'], 4, 50, true);
    expect(r.requests).toBeGreaterThan(0);
    expect(r.latenciesMs).toHaveLength(r.requests);
    await expect(runLoad(port, '/empty', [''], 2, 20)).rejects.toThrow('/empty answered 404');
    // A server that closes the connection after an answer: the next send fails instead of hanging.
    const closing = new LeanConnection(port);
    expect(await closing.send(requestBytes(port, '/close'))).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    await expect(closing.send(requestBytes(port, '/x'))).rejects.toThrow('connection closed');
    closing.close();
    await new Promise((r) => server.close(r));
  });
});

describe('RESULTS.md sections (bench/lib/results-doc.ts)', () => {
  const order = ['forecast', 'accuracy', 'server', 'csv-read'];
  const run = (name: string, table: string, measured: string): SectionRun => ({
    name,
    title: `${name} title`,
    measured: new Date(measured),
    machine: '2 cores (Test CPU)',
    loadAverage: 3.5,
    threads: 1,
    quick: false,
    seconds: 12.5,
    blocks: [table],
    peak: '100 MiB',
  });

  it('replaces the regenerated bench section in a real file and keeps the header, summary and other sections byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-results-'));
    try {
      const path = join(dir, 'RESULTS.md');
      const handKept = '# results\n\n| bench | headline |\n| --- | --- |\n| forecast | 0.99× |\n';
      const other = '<!-- bench:accuracy -->\n## accuracy\n\n| MASE |\n| 1.264 |\n<!-- /bench:accuracy -->';
      const says = '**What it says:** inferkit is 0.91× of raw.';
      await writeFile(path, `${handKept}\n<!-- bench:forecast -->\n## forecast\n\n${says}\n\nold | 0.91×\n<!-- /bench:forecast -->\n\n${other}\n`);

      await writeSection(path, run('forecast', '| series/s |\n| 52.3 |', '2026-11-27T10:00:00Z'), order);
      const doc = await readFile(path, 'utf8');
      expect(doc.startsWith(handKept)).toBe(true);
      expect(doc).toContain(other);
      expect(doc).not.toContain('old | 0.91×');
      expect(doc).toContain('| 52.3 |');
      expect(doc).toContain('measured 2026-11-27');
      expect(doc).toContain('**Machine:** 2 cores (Test CPU) (load average 3.5');
      expect(doc).toContain('`npm run bench -- --only forecast`');
      expect(sectionNames(doc)).toEqual(['forecast', 'accuracy']);
      // The hand-written reading is kept, marked as written for the earlier run.
      expect(sectionSays(doc, 'forecast')).toBe(`${says} _(written for an earlier run: check it against the tables below)_`);

      // Regenerating again replaces, never appends a second round.
      await writeSection(path, run('forecast', '| series/s |\n| 50.1 |', '2026-11-28T10:00:00Z'), order);
      const again = await readFile(path, 'utf8');
      expect(again.match(/<!-- bench:forecast -->/g)).toHaveLength(1);
      expect(again).not.toContain('| 52.3 |');
      expect(again).toContain('measured 2026-11-28');
      expect(again.startsWith(handKept)).toBe(true);
      expect(again.match(/written for an earlier run/g)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('puts a new section in run-all order, and starts a missing file from the header', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-results-'));
    try {
      const path = join(dir, 'sub', 'RESULTS.md');
      await writeSection(path, run('csv-read', '| rows |', '2026-11-27T10:00:00Z'), order);
      await writeSection(path, run('forecast', '| f |', '2026-11-27T10:00:00Z'), order);
      await writeSection(path, run('server', '| s |', '2026-11-27T10:00:00Z'), order);
      await writeSection(path, run('not-in-order', '| x |', '2026-11-27T10:00:00Z'), order);
      const doc = await readFile(path, 'utf8');
      expect(doc.startsWith(RESULTS_HEADER)).toBe(true);
      expect(sectionNames(doc)).toEqual(['forecast', 'server', 'csv-read', 'not-in-order']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a section whose end marker is missing instead of swallowing the rest of the file', () => {
    expect(() => upsertSection('<!-- bench:forecast -->\n## forecast\n\n<!-- bench:accuracy -->\n', 'forecast', 'x')).toThrow(/no end marker/);
  });
});

describe('writeRandomCheckpoint', () => {
  it('writes a checkpoint the safetensors reader opens, with each fill, once', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'inferkit-rc-')), 'model');
    const bytes = writeRandomCheckpoint(dir, { architectures: ['X'] }, [
      ['w', [100, 50], 0.1], ['ones', [7], 'ones'], ['zeros', [3], 'zeros'], ['near', [4000], { mean: 1, std: 0.01 }],
    ]);
    expect(bytes).toBe((5000 + 7 + 3 + 4000) * 4);
    const ck = await openCheckpoint(dir);
    const w = ck.float32('w', [100, 50]);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const std = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / w.length);
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(std).toBeGreaterThan(0.09);
    expect(std).toBeLessThan(0.11);
    expect(Array.from(ck.float32('ones'))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(Array.from(ck.float32('zeros'))).toEqual([0, 0, 0]);
    const near = ck.float32('near');
    expect(Math.min(...near)).toBeGreaterThan(0.98);
    expect(Math.max(...near)).toBeLessThan(1.02);
    ck.close();
    // A complete folder is reused, not rewritten.
    expect(writeRandomCheckpoint(dir, {}, [['w', [1], 'ones']])).toBe(4);
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual({ architectures: ['X'] });
  });
});
