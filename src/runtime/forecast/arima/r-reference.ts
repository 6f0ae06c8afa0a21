import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InferkitError } from '../../../errors.js';
import type { ArimaOrder } from './arima-spec.js';

/** Where the recorded R `forecast` results live (see its README). */
export const R_REFERENCE_DIR = join(process.cwd(), '..', 'shared', 'reference', 'r-forecast');

/** Rows of one of the reference CSV files, as objects of strings (quoted fields unquoted). */
export async function readReference(file: string): Promise<Record<string, string>[]> {
  const text = await readFile(join(R_REFERENCE_DIR, file), 'utf8');
  const [head, ...lines] = text.trim().split('\n').map(splitCsvLine);
  return lines.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i]])));
}

function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') {
      quoted = !quoted;
    } else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out;
}

/** The order R printed (`ARIMA(1,0,2)(1,1,2)[12] with drift`). */
export function parseRArima(model: string, m: number): ArimaOrder {
  const match = /ARIMA\((\d),(\d),(\d)\)(?:\((\d),(\d),(\d)\)\[\d+\])?/.exec(model);
  if (match === null) {
    throw new InferkitError('internal', `not an ARIMA description: ${model}`);
  }
  const [p, d, q, P = '0', D = '0', Q = '0'] = match.slice(1);
  return { p: +p, d: +d, q: +q, P: +P, D: +D, Q: +Q, m: match[4] === undefined ? 1 : m, constant: /with (drift|non-zero mean)/.test(model) };
}
