import { InferkitError } from '../errors.js';

/**
 * kubectl's `-o jsonpath=TEMPLATE` on `data`: text outside braces is copied; `{.a.b}`, `{.items[*].metadata.name}`,
 * `{.items[0]}`, `{.items[-1:]}`, `{['key.with.dots']}`, `{.status.conditions[?(@.type=="Ready")].status}`,
 * `{range .items[*]}…{end}` (inside, paths start at the item; `@` is the item), and `{"\n"}` / `{'\t'}` literals.
 * Several results of one expression are joined by a space; objects and arrays are written as JSON, strings as
 * they are. Throws an InferkitError `invalid_request` (param `output`) for a template it cannot read.
 */
export function jsonPath(template: string, data: unknown): string {
  const tokens = tokenize(template);
  let i = 0;
  const run = (current: unknown, untilEnd: boolean): string => {
    let out = '';
    while (i < tokens.length) {
      const t = tokens[i++];
      if (t.kind === 'text') {
        out += t.text;
      } else if (t.expr === 'end') {
        if (!untilEnd) {
          throw bad(template, '{end} without {range}');
        }
        return out;
      } else if (t.expr.startsWith('range ')) {
        const items = evaluate(t.expr.slice(6).trim(), current, data, template);
        const body = i;
        if (items.length === 0) {
          skipRange(tokens, template, (n) => (i = n), body);
        }
        for (const item of items) {
          i = body;
          out += run(item, true);
        }
      } else {
        out += evaluate(t.expr, current, data, template).map(show).join(' ');
      }
    }
    if (untilEnd) {
      throw bad(template, '{range} without {end}');
    }
    return out;
  };
  return run(data, false);
}

type Token = { kind: 'text'; text: string } | { kind: 'expr'; expr: string };

function bad(template: string, why: string): InferkitError {
  return new InferkitError('invalid_request', `-o jsonpath: ${why} in ${JSON.stringify(template)}`, { param: 'output' });
}

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    if (open < 0) {
      tokens.push({ kind: 'text', text: template.slice(at) });
      break;
    }
    if (open > at) {
      tokens.push({ kind: 'text', text: template.slice(at, open) });
    }
    const close = closingBrace(template, open);
    if (close < 0) {
      throw bad(template, 'unclosed {');
    }
    const expr = template.slice(open + 1, close).trim();
    const literal = /^(["'])(.*)\1$/s.exec(expr);
    tokens.push(literal ? { kind: 'text', text: literal[2].replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\r/g, '\r') } : { kind: 'expr', expr });
    at = close + 1;
  }
  return tokens;
}

/** The `}` closing the `{` at `open`, skipping quoted text (a filter may compare with `"}"`). */
function closingBrace(s: string, open: number): number {
  let quote = '';
  for (let k = open + 1; k < s.length; k++) {
    const c = s[k];
    if (quote) {
      quote = c === quote ? '' : quote;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '}') {
      return k;
    }
  }
  return -1;
}

function skipRange(tokens: Token[], template: string, set: (n: number) => void, from: number): void {
  let depth = 1;
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'expr' && t.expr.startsWith('range ')) {
      depth++;
    } else if (t.kind === 'expr' && t.expr === 'end' && --depth === 0) {
      set(k + 1);
      return;
    }
  }
  throw bad(template, '{range} without {end}');
}

const SEGMENT = /^(?:\.\.?([A-Za-z0-9_$-]+|\*)|\[\*\]|\[(-?\d*)(?::(-?\d*))?\]|\[(["'])(.*?)\4\]|\[\?\((.*?)\)\])/;

/** Values a path selects from `current` (`$` starts at the root). */
function evaluate(path: string, current: unknown, root: unknown, template: string): unknown[] {
  let rest = path;
  let nodes: unknown[] = [current];
  if (rest.startsWith('$')) {
    nodes = [root];
    rest = rest.slice(1);
  } else if (rest.startsWith('@')) {
    rest = rest.slice(1);
  }
  while (rest.length > 0 && !(rest === '.' && nodes.length === 1)) {
    const m = SEGMENT.exec(rest);
    if (!m) {
      throw bad(template, `cannot read ${JSON.stringify(rest)}`);
    }
    rest = rest.slice(m[0].length);
    nodes = nodes.flatMap((n) => step(n, m, template));
  }
  return nodes.filter((n) => n !== undefined);
}

function step(node: unknown, m: RegExpExecArray, template: string): unknown[] {
  const [whole, key, from, to, , quoted, filter] = m;
  if (whole === '[*]' || key === '*') {
    return Array.isArray(node) ? node : node !== null && typeof node === 'object' ? Object.values(node) : [];
  }
  if (key !== undefined || quoted !== undefined) {
    return node !== null && typeof node === 'object' && !Array.isArray(node) ? [(node as Record<string, unknown>)[key ?? quoted]] : [];
  }
  if (filter !== undefined) {
    return Array.isArray(node) ? node.filter((item) => matches(item, filter, template)) : [];
  }
  if (!Array.isArray(node)) {
    return [];
  }
  const at = (s: string | undefined, fallback: number): number => (s === undefined || s === '' ? fallback : Number(s) < 0 ? node.length + Number(s) : Number(s));
  if (to === undefined && !whole.includes(':')) {
    return [node[at(from, 0)]];
  }
  return node.slice(at(from, 0), at(to, node.length));
}

/** A filter `@.a.b == "x"` (also `!=`, `<`, `>`, `<=`, `>=`, numbers) or `@.a` (present and not false). */
function matches(item: unknown, filter: string, template: string): boolean {
  const m = /^\s*(@[^=!<>\s]*)\s*(?:(==|!=|<=|>=|<|>)\s*(?:(["'])(.*?)\3|(-?\d+(?:\.\d+)?)|(true|false)))?\s*$/.exec(filter);
  if (!m) {
    throw bad(template, `cannot read the filter ${JSON.stringify(filter)}`);
  }
  const [, path, op, , text, num, bool] = m;
  const values = evaluate(path, item, item, template);
  if (op === undefined) {
    return values.some((v) => v !== false && v !== null);
  }
  const want: unknown = text ?? (num !== undefined ? Number(num) : bool === 'true');
  return values.some((v) => {
    switch (op) {
      case '==': return v === want;
      case '!=': return v !== want;
      case '<': return (v as number) < (want as number);
      case '>': return (v as number) > (want as number);
      case '<=': return (v as number) <= (want as number);
      default: return (v as number) >= (want as number);
    }
  });
}

function show(v: unknown): string {
  if (typeof v === 'string') {
    return v;
  }
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}
