import { describe, expect, it } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLogLine } from './request-log.js';

/** A body nested `depth` levels, built without recursion. */
function deep(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) {
    v = [v];
  }
  return v;
}

const request = (body: unknown) => ({ body, method: 'POST', url: '/v2/models/m/infer?x=1', headers: { host: 'localhost' } }) as unknown as FastifyRequest;
const reply = { statusCode: 200, elapsedTime: 1.234 } as unknown as FastifyReply;

describe('requestLogLine', () => {
  it('writes a line for any body, one too deep to serialise included', () => {
    const line = JSON.parse(requestLogLine(request({ inputs: deep(200_000) }), reply, 'm')) as { body: string; path: string; status: number };
    expect(line).toMatchObject({ path: '/v2/models/m/infer', status: 200 });
    expect(line.body).toMatch(/^\(body not shown: /);
  });

  it('cuts long bodies', () => {
    const line = JSON.parse(requestLogLine(request({ t: 'a'.repeat(1000) }), reply, 'm')) as { body: string };
    expect(line.body).toMatch(/… \(1008 chars\)$/);
  });
});
