/**
 * How token predictions become entities, with the semantics of the well-known token-classification
 * pipelines: `none` = one entity per token; `simple` = tokens merged by tags;
 * `first` | `average` | `max` = tokens of one word get one label first (the first token's, the
 * averaged probabilities' argmax, or the most confident token's), then words are merged by tags.
 *
 * Tag schemes (IOB2, BIOES and BILOU, mixed freely): `B-` begins an entity; `I-` continues an open
 * entity of its type; `E-`/`L-` continue it and close it; `S-`/`U-` are a one-unit entity. A tag that
 * cannot continue (`I-`/`E-`/`L-` after another type or after a closed entity) begins a new one.
 * A label with no prefix (`PER`, `O`) is its type and behaves like `I-`: adjacent units of the
 * same type form one entity.
 */
export type AggregationStrategy = 'none' | 'simple' | 'first' | 'average' | 'max';

/** One token's prediction (`aggregation: 'none'`). `start`/`end`: UTF-16 indices into the text. */
export interface TokenEntity {
  /** Label name from `id2label`, e.g. `B-PER`. */
  entity: string;
  /** Softmax probability of that label. */
  score: number;
  /** Token position in the model input (`[CLS]` is 0). */
  index: number;
  /** `text.slice(start, end)`. */
  word: string;
  start: number;
  end: number;
}

/** A merged entity. `start`/`end`: UTF-16 indices into the original text; `word` = that span. */
export interface GroupedEntity {
  /** Entity type without the tag prefix (`B-`, `I-`, `E-`, `L-`, `S-`, `U-`), e.g. `PER`. */
  entity_group: string;
  /** Mean score of the merged tokens or words. */
  score: number;
  word: string;
  start: number;
  end: number;
}

/** An entity of either kind. */
export type Entity = TokenEntity | GroupedEntity;

/** Model output for one text, as {@link groupEntities} reads it. */
export interface TokenPredictions {
  text: string;
  /** Softmax probabilities, float32 [tokens, labels]. */
  probs: Float32Array;
  /** `[start, end)` UTF-16 offsets per token. */
  offsets: ReadonlyArray<readonly [number, number]>;
  /** Word index per token; null marks special tokens. */
  wordIds: ReadonlyArray<number | null>;
  /** Label names by class id. */
  labels: readonly string[];
}

interface Scored {
  label: number;
  score: number;
  start: number;
  end: number;
  index: number;
}

function argmax(p: Float32Array, from: number, n: number): number {
  let best = 0;
  for (let c = 1; c < n; c++) {
    if (p[from + c] > p[from + best]) {
      best = c;
    }
  }
  return best;
}

/** Entities of one text; labels in `ignoreLabels` (default `O`) are left out after grouping. */
export function groupEntities(
  pred: TokenPredictions,
  strategy: AggregationStrategy,
  ignoreLabels: readonly string[] = ['O'],
): Entity[] {
  const n = pred.labels.length;
  const tokens: Scored[] = [];
  pred.wordIds.forEach((w, t) => {
    if (w === null) {
      return;
    }
    const label = argmax(pred.probs, t * n, n);
    tokens.push({ label, score: pred.probs[t * n + label], start: pred.offsets[t][0], end: pred.offsets[t][1], index: t });
  });
  const ignored = new Set(ignoreLabels);
  if (strategy === 'none') {
    return tokens
      .filter((s) => !ignored.has(pred.labels[s.label]))
      .map((s) => ({ entity: pred.labels[s.label], score: s.score, index: s.index, word: pred.text.slice(s.start, s.end), start: s.start, end: s.end }));
  }
  const units = strategy === 'simple' ? tokens : words(pred, tokens, strategy);
  return mergeByTags(units, pred).filter((e) => !ignored.has(e.entity_group));
}

/** Tokens of one word collapsed to one labelled unit, per strategy. */
function words(pred: TokenPredictions, tokens: Scored[], strategy: 'first' | 'average' | 'max'): Scored[] {
  const n = pred.labels.length;
  const out: Scored[] = [];
  let i = 0;
  while (i < tokens.length) {
    let j = i + 1;
    while (j < tokens.length && pred.wordIds[tokens[j].index] === pred.wordIds[tokens[i].index]) {
      j++;
    }
    const group = tokens.slice(i, j);
    const span = { start: group[0].start, end: group[group.length - 1].end, index: group[0].index };
    if (strategy === 'first') {
      out.push({ ...span, label: group[0].label, score: group[0].score });
    } else if (strategy === 'max') {
      const top = group.reduce((a, b) => (b.score > a.score ? b : a));
      out.push({ ...span, label: top.label, score: top.score });
    } else {
      const mean = new Float32Array(n);
      for (const g of group) {
        for (let c = 0; c < n; c++) {
          mean[c] += pred.probs[g.index * n + c] / group.length;
        }
      }
      const label = argmax(mean, 0, n);
      out.push({ ...span, label, score: mean[label] });
    }
    i = j;
  }
  return out;
}

/** Position of a unit inside an entity, from its tag prefix. */
type TagRole = 'begin' | 'inside' | 'end' | 'single';

const ROLES: Readonly<Record<string, TagRole>> = { B: 'begin', I: 'inside', E: 'end', L: 'end', S: 'single', U: 'single' };

function splitTag(label: string): { role: TagRole; type: string } {
  const role = label.length > 2 && label[1] === '-' ? ROLES[label[0]] : undefined;
  return role === undefined ? { role: 'inside', type: label } : { role, type: label.slice(2) };
}

/** Units merge into entities by tag (rules on {@link AggregationStrategy}). */
function mergeByTags(units: Scored[], pred: TokenPredictions): GroupedEntity[] {
  const out: GroupedEntity[] = [];
  let current: Scored[] = [];
  let currentType = '';
  let open = false;
  const flush = (): void => {
    if (current.length === 0) {
      return;
    }
    const start = current[0].start;
    const end = current[current.length - 1].end;
    const score = current.reduce((s, u) => s + u.score, 0) / current.length;
    out.push({ entity_group: currentType, score, word: pred.text.slice(start, end), start, end });
    current = [];
  };
  for (const u of units) {
    const { role, type } = splitTag(pred.labels[u.label]);
    const continues = open && type === currentType && (role === 'inside' || role === 'end');
    if (!continues) {
      flush();
      currentType = type;
    }
    current.push(u);
    open = role === 'begin' || role === 'inside';
  }
  flush();
  return out;
}
