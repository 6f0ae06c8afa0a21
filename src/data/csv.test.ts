import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv, readCsv, toCsv, writeCsv } from './csv.js';

describe('parseCsv / toCsv', () => {
  it('handles quotes, CRLF, empty cells and numeric columns; keeps timestamps as written', () => {
    const rows = parseCsv('\uFEFFid,timestamp,value,note\r\n"a, b",2024-01-01T00:00:00+02:00,1.5,"say ""hi"""\r\nc,2024-01-02,,\n');
    expect(rows).toEqual([
      { id: 'a, b', timestamp: '2024-01-01T00:00:00+02:00', value: 1.5, note: 'say "hi"' },
      { id: 'c', timestamp: '2024-01-02', value: null, note: null },
    ]);
    expect(toCsv(rows)).toBe('id,timestamp,value,note\n"a, b",2024-01-01T00:00:00+02:00,1.5,"say ""hi"""\nc,2024-01-02,,\n');
  });

  it('round-trips a frame through a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-csv-'));
    const df = await readCsv(join(process.cwd(), 'datasets/eu_stock_markets.csv'));
    expect(df.columns).toEqual(['t', 'DAX', 'SMI', 'CAC', 'FTSE']);
    expect(df.shape).toEqual([1860, 5]);
    await writeCsv(df, join(dir, 'out.csv'));
    const back = parseCsv(await readFile(join(dir, 'out.csv'), 'utf8'));
    expect(back[0]).toEqual({ t: 1, DAX: 1628.75, SMI: 1678.1, CAC: 1772.8, FTSE: 2443.6 });
    expect(back).toHaveLength(1860);
    expect(toCsv([{ when: new Date(Date.UTC(2024, 0, 1)) }])).toBe('when\n2024-01-01T00:00:00Z\n');
  });
});
