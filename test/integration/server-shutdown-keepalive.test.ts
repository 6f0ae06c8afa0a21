import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server/serve.js';
import { fixtureLoaders, isvc, nerFixtureDir, v2 } from './server-http.js';

/** One keep-alive request through `agent`: the status and Connection header, or the error code. */
function post(agent: Agent, port: number, body: string): Promise<{ status: number; connection?: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/v2/models/bert2/infer', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

describe('graceful shutdown under keep-alive load (issue 28 M6)', () => {
  it('16 pooled keep-alive clients see no reset: in-flight answers carry Connection: close, then the listener is gone', async () => {
    const dir = await nerFixtureDir();
    const server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], { loaders: fixtureLoaders(dir), port: 0, limits: { keepAliveTimeoutMs: 60_000 } });
    await server.loaded();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const body = JSON.stringify(v2('paris is nice'));
    const outcomes: Array<{ status: number; connection?: string } | { error: string }> = [];
    let closing: Promise<void> | undefined;
    const client = async (): Promise<void> => {
      // Each client sends until its connection is refused (the listener is closed), at most 400 times.
      for (let i = 0; i < 400; i++) {
        const o = await post(agent, server.port, body);
        outcomes.push(o);
        if ('error' in o && o.error === 'ECONNREFUSED') {
          return;
        }
        if (outcomes.length === 200) {
          closing = server.close();
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    await closing;
    agent.destroy();
    const errors = outcomes.filter((o): o is { error: string } => 'error' in o).map((o) => o.error);
    expect(errors.filter((e) => e !== 'ECONNREFUSED')).toEqual([]);
    const answered = outcomes.filter((o): o is { status: number; connection?: string } => 'status' in o);
    expect(answered.every((o) => o.status === 200 || o.status === 503)).toBe(true);
    expect(answered.some((o) => o.connection === 'close')).toBe(true);
  }, 60_000);
});
