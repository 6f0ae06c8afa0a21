import { PALETTE, escapeHtml, withAlpha } from './figure.js';

/** An entity span over a text: grouped (`entity_group`) or per token (`entity`, e.g. `B-PER`). */
export interface HighlightEntity {
  /** UTF-16 start index into the text. */
  start: number;
  /** UTF-16 end index (exclusive). */
  end: number;
  entity_group?: string;
  entity?: string;
  score?: number;
}

/** Options of `entityHtml`. */
export interface EntityHtmlOptions {
  /** Colour per entity type (`PER`, `ORG`, …); others get palette colours in order of appearance. */
  colors?: Readonly<Record<string, string>>;
  /** Show the score beside the label. @default false */
  scores?: boolean;
}

const DEFAULT_COLORS: Readonly<Record<string, string>> = { PER: '#1f77b4', ORG: '#2ca02c', LOC: '#ff7f0e', MISC: '#9467bd' };

/** `B-PER` / `I-PER` → `PER`; grouped entities keep their group. */
export function entityType(e: HighlightEntity): string {
  return e.entity_group ?? (e.entity ?? 'ENT').replace(/^[BIES]-/, '');
}

function colorFor(type: string, options: EntityHtmlOptions, assigned: Map<string, string>): string {
  const fixed = options.colors?.[type] ?? DEFAULT_COLORS[type];
  if (fixed) {
    return fixed;
  }
  let c = assigned.get(type);
  if (!c) {
    assigned.set(type, (c = PALETTE[(assigned.size + 4) % PALETTE.length]));
  }
  return c;
}

/**
 * The text as HTML with each entity highlighted and labelled (`<mark>`), every piece of text escaped.
 * Spans are clamped to the text; an entity overlapping an earlier one is skipped.
 */
export function entityHtml(text: string, entities: readonly HighlightEntity[], options: EntityHtmlOptions = {}, assigned = new Map<string, string>()): string {
  const spans = [...entities]
    .map((e) => ({ e, start: Math.max(0, Math.min(text.length, e.start)), end: Math.max(0, Math.min(text.length, e.end)) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let html = '';
  let at = 0;
  for (const { e, start, end } of spans) {
    if (start < at) {
      continue;
    }
    const type = entityType(e);
    const color = colorFor(type, options, assigned);
    const score = options.scores && typeof e.score === 'number' ? ` ${e.score.toFixed(2)}` : '';
    html += escapeHtml(text.slice(at, start));
    html +=
      `<mark style="background:${withAlpha(color, 0.18)};border:1px solid ${color};border-radius:4px;padding:0 3px">` +
      `${escapeHtml(text.slice(start, end))}<sup style="color:${color};font-weight:bold;font-size:0.7em;margin-left:2px">${escapeHtml(type + score)}</sup></mark>`;
    at = end;
  }
  return `<div style="line-height:1.9;font-family:sans-serif">${html}${escapeHtml(text.slice(at))}</div>`;
}

/** Several texts with their entities, one highlighted block each, colours consistent across them. */
export function entitiesHtml(items: ReadonlyArray<{ text: string; entities: readonly HighlightEntity[] }>, options: EntityHtmlOptions = {}): string {
  const assigned = new Map<string, string>();
  return items.map((i) => entityHtml(i.text, i.entities, options, assigned)).join('\n');
}
