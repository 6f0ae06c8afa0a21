import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, rawExchange, v2 } from './server-http.js';

let server: RunningServer;
const lines: string[] = [];
const SECRET_PATH = '/home/analyst/.cache/inferkit/models/org--gone/onnx/model.onnx';

beforeAll(async () => {
  const dir = await nerFixtureDir();
  const loaders = fixtureLoaders(dir);
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true }), isvc('gone', { modelName: 'gone', args: ['--model_id=org/gone'] })], {
    loaders: {
      ...loaders,
      token_classification: async (c) => {
        if (c.config.modelName === 'gone') {
          throw new Error(`ENOENT: no such file or directory, open '${SECRET_PATH}'`);
        }
        return (loaders.token_classification as NonNullable<typeof loaders.token_classification>)(c);
      },
    },
    port: 0,
    limits: { requestTimeoutMs: 800, headersTimeoutMs: 800 },
    loadRetry: { attempts: 1 },
    log: (l) => lines.push(l),
  });
  await server.loaded();
});
afterAll(() => server?.close());

/** Writes `text` on a raw connection and resolves with everything the server sent until it closed. */
const raw = (text: string, ms = 3000): Promise<string> => rawExchange(server.port, text, ms);

/** Status and parsed body of a raw HTTP answer. */
function parse(answer: string): { status: number; body: unknown; length: number } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
  const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  return { status, body: JSON.parse(text) as unknown, length: text.length };
}

const errorForm = { error: expect.any(String) as unknown };

describe("errors raised by the framework or Node use the contract's {error} form", () => {
  it('414: a path segment longer than the router allows (short body, path not echoed)', async () => {
    const a = parse(await raw(`GET /v2/models/${'a'.repeat(2000)}/ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    expect(a.status).toBe(414);
    expect(a.body).toEqual(errorForm);
    expect((a.body as { error: string }).error).toMatch(/longer than 1024 characters/);
    expect(a.length).toBeLessThan(300);
  });

  it('431: headers (or a URL) too large', async () => {
    for (const request of [`GET /v2 HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, `GET /v2/models/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`]) {
      const a = parse(await raw(request));
      expect(a.status).toBe(431);
      expect(a.body).toEqual(errorForm);
      expect((a.body as { error: string }).error).toMatch(/headers are larger than the server accepts/);
    }
  });

  it('400: a missing Host, a malformed request line, a bad percent-encoding, conflicting framing', async () => {
    const noHost = parse(await raw('GET /v2 HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect([noHost.status, noHost.body]).toEqual([400, errorForm]);
    expect((noHost.body as { error: string }).error).toMatch(/no Host header/);
    for (const request of ['GARBAGE\r\n\r\n', 'GET /v2/models/%E0%A4%A/ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 'POST /v2/models/bert2/infer HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n']) {
      const a = parse(await raw(request));
      expect(a.status, request).toBe(400);
      expect(a.body, request).toEqual(errorForm);
    }
  });

  it('408: a request not received within the request timeout', async () => {
    const a = parse(await raw('POST /v2/models/bert2/infer HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\n{"inputs":'));
    expect(a.status).toBe(408);
    expect(a.body).toEqual(errorForm);
  });
});

describe('error bodies never show absolute file paths', () => {
  it('a failed load is reported by name only over HTTP, in full in the log', async () => {
    const answers = [
      await http(server.url, '/v2/models/gone/ready'),
      await http(server.url, '/v1/models/gone:predict', { body: { instances: ['x'] } }),
      await http(server.url, '/v2/models/gone/infer', { body: v2('x') }),
      await http(server.url, '/inferkit/v1/services'),
      await http(server.url, '/v2/health/ready'),
    ];
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 200, 200]);
    for (const a of answers) {
      expect(a.text).not.toContain('/home/analyst');
    }
    expect(answers[0].json()).toEqual({ name: 'gone', ready: false, reason: "ENOENT: no such file or directory, open '…/model.onnx'" });
    expect(lines.some((l) => l.includes(SECRET_PATH) && /gone/.test(l))).toBe(true);
  });
});
