import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../errors.js';
import { parseCsv, parseCsvFrame, readCsv, toCsv, writeCsv } from './csv.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';

/** The message of what `f` throws (an InferkitError `invalid_request`). */
function failure(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isInferkitError(e) && e.code === 'invalid_request', String(e)).toBe(true);
    return (e as Error).message;
  }
  throw new TypeError('did not throw');
}

async function tempFile(name: string, text: string): Promise<string> {
  const path = join(tempDir('inferkit-csv-'), name);
  await writeFile(path, text);
  return path;
}

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
    const dir = tempDir('inferkit-csv-');
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

describe('strict CSV: errors name the line and column instead of changing the data', () => {
  it('an unclosed quote names where the cell opens, not the end of the file it swallowed', async () => {
    const text = 'id,value\na,1\nb,"2\nc,3\nd,4\n';
    expect(failure(() => parseCsvFrame(text))).toMatch(/^CSV: line 3, column 2: a quoted cell is never closed/);
    const path = await tempFile('unclosed.csv', text);
    await expect(readCsv(path)).rejects.toThrow(`${path}: line 3, column 2: a quoted cell is never closed`);
  });

  it('a duplicate header is an error (no column dropped), in text and in a streamed file', async () => {
    expect(failure(() => parseCsv('id,value,value\na,1,2\n'))).toBe('CSV: line 1, column 3: duplicate header "value" (also column 2); rename one of them');
    const path = await tempFile('dup.csv', 'id,value,id\na,1,b\n');
    await expect(readCsv(path)).rejects.toThrow(`${path}: line 1, column 3: duplicate header "id" (also column 1)`);
  });

  it('ragged rows: a missing cell names the missing column, extra cells the first extra column', async () => {
    expect(failure(() => parseCsv('id,timestamp,value\na,2024-01-01,1\nb,2024-01-02\n'))).toBe('CSV: line 3, column 3: 2 cells, the header has 3: column "value" is missing');
    const path = await tempFile('ragged.csv', 'id,value\na,1\nb,2\nc,3,4\n');
    await expect(readCsv(path)).rejects.toThrow(`${path}: line 4, column 3: 3 cells, the header has 2: 1 cell(s) more than the header`);
  });

  it('a stray quote inside an unquoted cell is an error naming its place', () => {
    expect(failure(() => parseCsv('id,note\na,5" screen\n'))).toMatch(/^CSV: line 2, column 2: stray quote/);
  });
});

describe('CSV typing', () => {
  it('hex, binary, octal and Infinity stay text; a column of decimals (signs, exponents, NaN/NA as missing) becomes numbers', () => {
    const rows = parseCsv('hex,bin,oct,inf,num\n0x1A,0b101,0o17,Infinity,-1.5e3\n2,1,7,1,NaN\n3,0,0,2,.5\n');
    expect(rows[0]).toEqual({ hex: '0x1A', bin: '0b101', oct: '0o17', inf: 'Infinity', num: -1500 });
    expect(rows[1]).toEqual({ hex: '2', bin: '1', oct: '7', inf: '1', num: null });
    expect(rows[2].num).toBe(0.5);
  });

  it('a header-only file keeps its columns (text and streamed), an empty file has none', async () => {
    expect(parseCsvFrame('id,timestamp,value\n').columns).toEqual(['id', 'timestamp', 'value']);
    const frame = await readCsv(await tempFile('head.csv', 'id,timestamp,value\r\n'));
    expect([frame.columns, frame.shape]).toEqual([['id', 'timestamp', 'value'], [0, 3]]);
    expect(parseCsvFrame('').shape).toEqual([0, 0]);
  });

  it('reads another delimiter (pandas\' sep), in text and streamed', async () => {
    expect(parseCsvFrame('id;value\na;1,5\n', { delimiter: ';' }).toRows()).toEqual([{ id: 'a', value: '1,5' }]);
    const frame = await readCsv(await tempFile('semi.csv', 'id;value\na;2\n'), { delimiter: ';' });
    expect(frame.toRows()).toEqual([{ id: 'a', value: 2 }]);
  });

  it("a blank header cell (pandas' index column) is named like pandas names it", () => {
    expect(parseCsvFrame(',y\n0,1.5\n1,2\n').toRows()).toEqual([{ 'Unnamed: 0': 0, y: 1.5 }, { 'Unnamed: 0': 1, y: 2 }]);
  });
});
