import { expect } from 'vitest';
import type { HttpAnswer } from '../integration/server-http.js';
import type { Exchange } from './exchanges.js';
import type { IntendedDifference } from './kserve-differences.js';

// How an answer of inferkit's server is compared with the one recorded from KServe's (see the conformance READMEs).

type Json = Record<string, unknown>;
type Scores = Array<Record<string, number>>;

/** Text j's own tokens of a V2 `[N, 1, T]` (or `[N, T, 2]` with `per` 2) tensor. */
function row(data: unknown[], shape: number[], j: number, count: number, per = 1): unknown[] {
  const width = shape[shape.length - (per === 1 ? 1 : 2)] * per;
  return data.slice(j * width, j * width + count * per);
}

function closeScores(ours: Scores, theirs: Scores, tolerance: number): void {
  expect(ours.length).toBe(theirs.length);
  ours.forEach((token, t) => {
    expect(Object.keys(token)).toEqual(Object.keys(theirs[t]));
    for (const [k, v] of Object.entries(theirs[t])) {
      expect(Math.abs(token[k] - v), `token ${t} class ${k}`).toBeLessThan(tolerance);
    }
  });
}

/** Text j's class ids with the positions the exchange lists in `near_ties` (either class is right there) blanked. */
function untied(e: Exchange, j: number, classes: unknown[]): unknown[] {
  const ties = new Set((e.near_ties ?? []).filter(([text]) => text === j).map(([, position]) => position));
  return ties.size === 0 ? classes : classes.map((c, t) => (ties.has(t) ? 'near-tie' : c));
}

function compareV1(e: Exchange, ours: Json, theirs: Json): void {
  const counts = e.own_tokens?.counts ?? [];
  const op = ours.predictions as unknown[][];
  const tp = theirs.predictions as unknown[][];
  expect(op).toHaveLength(tp.length);
  counts.forEach((c, j) => {
    if (Array.isArray(tp[j][0])) {
      expect(op[j][0], `text ${j}: own tokens only`).toHaveLength(c);
      expect(untied(e, j, op[j][0] as unknown[]), `text ${j}`).toEqual(untied(e, j, (tp[j][0] as unknown[]).slice(0, c)));
    } else {
      closeScores((op[j] as Scores).slice(0, c), (tp[j] as Scores).slice(0, c), e.server_args.includes('--return_raw_logits') ? 1e-4 : 2e-4);
      expect(op[j]).toHaveLength(c);
    }
  });
  const offsets = theirs.outputs as Array<{ name: string; datatype: string; shape: number[]; data: number[] }> | undefined;
  expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
  if (offsets !== undefined) {
    compareOffsets(counts, (ours.outputs as typeof offsets)[0], offsets[0]);
  }
}

function compareOffsets(counts: number[], ours: { name: string; datatype: string; shape: number[]; data: number[] }, theirs: typeof ours): void {
  expect([ours.name, ours.datatype, ours.shape.length, ours.shape[0], ours.shape[2]]).toEqual([theirs.name, theirs.datatype, 3, theirs.shape[0], 2]);
  counts.forEach((c, j) => expect(row(ours.data, ours.shape, j, c, 2), `offsets of text ${j}`).toEqual(row(theirs.data, theirs.shape, j, c, 2)));
}

function compareV2(e: Exchange, ours: Json, theirs: Json): void {
  const counts = e.own_tokens?.counts ?? [];
  const requestId = (e.request.body as { id?: string }).id;
  expect(ours.model_name).toBe(theirs.model_name);
  expect(ours.model_version ?? null).toBe(theirs.model_version);
  expect(typeof ours.id).toBe('string');
  if (requestId !== undefined) {
    expect(ours.id).toBe(requestId);
  }
  type T = { name: string; datatype: string; shape: number[]; data: unknown[] };
  const [o, ...oRest] = ours.outputs as T[];
  const [t, ...tRest] = theirs.outputs as T[];
  expect([o.name, o.datatype, o.shape[0], o.shape[1]]).toEqual([t.name, t.datatype, t.shape[0], t.shape[1]]);
  counts.forEach((c, j) => expect(untied(e, j, row(o.data, o.shape, j, c)), `text ${j}`).toEqual(untied(e, j, row(t.data, t.shape, j, c))));
  expect(oRest.map((x) => x.name)).toEqual(tRest.map((x) => x.name));
  if (tRest[0] !== undefined) {
    compareOffsets(counts, oRest[0] as T & { data: number[] }, tRest[0] as T & { data: number[] });
  }
}

function compareForecast(ours: Json, theirs: Json): void {
  expect(Object.keys(ours)).toEqual(expect.arrayContaining(Object.keys(theirs)));
  expect([ours.status, ours.model, ours.error]).toEqual([theirs.status, theirs.model, theirs.error]);
  expect(typeof ours.id).toBe('string');
  expect(Number.isInteger(ours.created_at)).toBe(true);
  const oo = ours.outputs as Json[];
  const to = theirs.outputs as Json[];
  expect(oo).toHaveLength(to.length);
  to.forEach((t, i) => {
    expect([oo[i].type, oo[i].status, oo[i].error]).toEqual([t.type, t.status, t.error]);
    const oc = oo[i].content as Json[];
    const tc = t.content as Json[];
    expect(oc).toHaveLength(tc.length);
    tc.forEach((c, k) => {
      const mine = oc[k];
      expect(Object.keys(mine)).toEqual(expect.arrayContaining(Object.keys(c)));
      expect([mine.type, mine.name, mine.frequency, mine.start_timestamp]).toEqual([c.type, c.name, c.frequency, c.start_timestamp]);
      expect((mine.mean_forecast as unknown[]).length).toBe((c.mean_forecast as unknown[]).length);
      const tq = (c.quantiles ?? {}) as Record<string, unknown[]>;
      const oq = (mine.quantiles ?? {}) as Record<string, unknown[]>;
      expect(Object.keys(oq)).toEqual(Object.keys(tq));
      for (const q of Object.keys(tq)) {
        expect(oq[q].length).toBe(tq[q].length);
      }
    });
  });
}

/** Compares one answer as far as inferkit means it to equal KServe's (own tokens only; `near_ties` positions either way). */
export function compare(e: Exchange, status: number, ours: unknown): void {
  const theirs = e.response.body;
  if (status !== 200) {
    // Error messages differ on purpose (see GENERAL_DIFFERENCES): compare the body's shape.
    if (e.kind === 'forecast_error') {
      expect(ours).toMatchObject({ status: 'error', error: { message: expect.any(String) } });
    } else if (typeof theirs === 'object' && theirs !== null && 'error' in theirs) {
      expect(ours).toEqual({ error: expect.any(String) });
    }
    return;
  }
  const o = ours as Json;
  const t = theirs as Json;
  if (e.request.path.endsWith(':predict')) {
    compareV1(e, o, t);
  } else if (e.request.path.endsWith('/infer')) {
    compareV2(e, o, t);
  } else if (e.request.path === '/v1/timeseries/forecast') {
    compareForecast(o, t);
  } else {
    expect(ours).toEqual(theirs);
  }
}

/**
 * Checks inferkit's answer `r` to exchange `e`: a listed difference answers its own documented status (never a
 * 5xx); everything else answers KServe's status, JSON, and the same body as far as {@link compare} goes.
 */
export function expectReplayed(e: Exchange, r: HttpAnswer, diff: IntendedDifference | undefined): void {
  let body: unknown = r.text;
  try {
    body = r.text.length > 0 ? r.json() : r.text;
  } catch {
    // not JSON: compared as text
  }
  if (e.response.status === 307) {
    expect([r.status, r.headers.location]).toEqual([307, '/v2']);
    return;
  }
  if (diff !== undefined && (diff.inferkit !== diff.kserve || diff.body === true)) {
    // A listed difference: inferkit answers its own documented status, and never a 5xx.
    expect(r.status, `${e.id}: ${diff.reason}`).toBe(diff.inferkit);
    expect(r.status).toBeLessThan(500 + (diff.inferkit >= 500 ? 100 : 0));
    if (diff.body !== true && r.status === 200) {
      expect(body).toBeTypeOf('object');
    }
    return;
  }
  expect(r.status, `${e.id} status (body ${r.text.slice(0, 200)})`).toBe(e.response.status);
  expect(r.headers['content-type'] ?? '').toMatch(/^application\/json/);
  compare(e, r.status, body);
}
