import type { ForecastResponse, TimeSeries } from '../contract/forecast.js';
import type { V1PredictResponse } from '../contract/v1.js';
import type { V2InferResponse } from '../contract/v2.js';

/** Labels of class ids, in dslim/bert-base-NER's order (the fixture model uses the same). */
export const DEMO_LABELS = ['O', 'B-MISC', 'I-MISC', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC'];

function label(id: number, labels: readonly string[]): string {
  return id < 0 ? '·' : (labels[id] ?? String(id));
}

/** One line per instance: the class ids, then their labels (`[CLS]`/`[SEP]` positions included). */
export function formatV1Answer(texts: readonly string[], response: V1PredictResponse, labels: readonly string[] = DEMO_LABELS): string[] {
  return response.predictions.flatMap((entry, i) => {
    const ids = Array.isArray(entry) && Array.isArray(entry[0]) ? (entry[0] as number[]) : [];
    return [`  "${texts[i] ?? ''}"`, `    ids    ${JSON.stringify(entry)}`, `    labels ${ids.map((id) => label(id, labels)).join(' ')}`];
  });
}

/** The V2 response's header fields and its `[N, 1, T]` output, one row per text (-1 = past its tokens). */
export function formatV2Answer(texts: readonly string[], response: V2InferResponse, labels: readonly string[] = DEMO_LABELS): string[] {
  const lines = [`  model_name=${response.model_name} model_version=${String(response.model_version ?? null)} id=${response.id}`];
  for (const out of response.outputs) {
    lines.push(`  output ${out.name} ${out.datatype} shape=[${out.shape.join(', ')}]`);
    const t = out.shape[out.shape.length - 1] ?? 0;
    const data = out.data as number[];
    texts.forEach((text, i) => {
      const row = data.slice(i * t, (i + 1) * t);
      lines.push(`  "${text}"`, `    data   ${JSON.stringify(row)}`, `    labels ${row.filter((id) => id >= 0).map((id) => label(id, labels)).join(' ')}`);
    });
  }
  return lines;
}

/** Top-level status and usage, then per output its status, start and the mean/quantile paths. */
export function formatForecastAnswer(response: ForecastResponse): string[] {
  const lines = [
    `  id=${response.id} status=${response.status} model=${response.model} error=${JSON.stringify(response.error ?? null)}`,
    `  usage ${JSON.stringify(response.usage ?? null)}`,
  ];
  for (const out of response.outputs) {
    lines.push(`  output ${out.id} status=${out.status}${out.error ? ` error=${out.error.message}` : ''}`);
    for (const fc of out.content) {
      lines.push(`    ${fc.name} (${fc.type}, ${fc.frequency}) starts ${fc.start_timestamp}`);
      lines.push(`      mean  ${short(fc.mean_forecast)}`);
      for (const [q, path] of Object.entries(fc.quantiles ?? {})) {
        lines.push(`      q${q.padEnd(4)} ${short(path)}`);
      }
    }
  }
  return lines;
}

function short(series: TimeSeries): string {
  const fmt = (v: unknown): string => (typeof v === 'number' ? String(Math.round(v * 10) / 10) : Array.isArray(v) ? `[${v.map(fmt).join(', ')}]` : String(v));
  const head = series.slice(0, 6).map(fmt).join(', ');
  return `[${head}${series.length > 6 ? `, … (${series.length} steps)` : ''}]`;
}
