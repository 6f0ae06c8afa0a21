import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { toYaml } from '../../src/manifest/manifest-yaml.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { runCli } from '../fixtures/run-cli.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

// Issue 28 N3: canary credentials in every place the attack found them; no output surface may show one.
const HUB = 'hf_CanaryHubToken0123456789abcdefXYZ';
const CANARIES = {
  glued: 'hf_CanaryGluedName0123456789abcdefXY',
  valueSuffix: 'hf_CanaryValueSuffix0123456789abcdef',
  numbered: 'canary-numbered-opaque-7731',
  bearer: 'canaryBearerOpaque7731xyz',
  nameSuffix: 'hf_CanaryNameSuffix0123456789abcdefg',
  userinfo: 'canaryUserinfoPw7731',
  annotation: 'canary-annotation-opaque-7731',
  annotationShape: 'hf_CanaryAnnotation0123456789abcdefg',
  loadError: 'canaryLoadErrorPw7731',
  body: 'hf_CanaryRequestBody0123456789abcdefg',
};
const ALL = [HUB, ...Object.values(CANARIES)];

function leaked(text: string): string[] {
  return ALL.filter((c) => text.includes(c));
}

function leaky(): InferenceService {
  const svc = isvc('leaky', { modelName: 'leaky', v2: true });
  svc.metadata.annotations = {
    'example.com/hub-token': CANARIES.annotation,
    'example.com/notes': `mirror token ${CANARIES.annotationShape}`,
    'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: { predictor: { model: { env: [{ name: 'HF_TOKEN', value: HUB }] } } } }),
  };
  const model = svc.spec.predictor.model as unknown as Record<string, unknown>;
  model.env = [
    { name: 'HF_TOKEN', value: HUB },
    { name: 'HFTOKEN', value: CANARIES.glued },
    { name: 'HF_TOKEN_VALUE', value: CANARIES.valueSuffix },
    { name: 'HF_ACCESS_TOKEN_1', value: CANARIES.numbered },
    { name: 'HUB_AUTH', value: `Bearer ${CANARIES.bearer}` },
    { name: 'HF_TOKEN_NAME', value: CANARIES.nameSuffix },
    { name: 'MODEL_MIRROR', value: `https://bot:${CANARIES.userinfo}@mirror.example.org/models` },
    { name: 'LOG_LEVEL', value: 'info' },
  ];
  return svc;
}

let server: RunningServer;
let dir: string;
const logs: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-canary-'));
  const loaders = fixtureLoaders(await nerFixtureDir());
  server = await serve([leaky(), isvc('broken', { modelName: 'broken', v2: true })], {
    port: 0,
    logRequests: true,
    log: (line) => logs.push(line),
    loadRetry: { attempts: 1 },
    loaders: {
      ...loaders,
      token_classification: async (ctx) => {
        if (ctx.config.modelName === 'broken') {
          throw new Error(`cannot download https://bot:${CANARIES.loadError}@mirror.example.org/broken: ECONNREFUSED`);
        }
        return loaders.token_classification?.(ctx) ?? Promise.reject(new Error('no loader'));
      },
    },
  });
  await server.loaded();
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('canary credentials never leave the server or the CLI (issue 28 N3)', () => {
  it('GET /inferkit/v1/services masks every canary and keeps ordinary values', async () => {
    const a = await http(server.url, '/inferkit/v1/services');
    expect(a.status).toBe(200);
    expect(leaked(a.text)).toEqual([]);
    expect(a.text).toContain('"example.com/notes":"mirror token <masked>"');
    expect(a.text).toContain('https://<masked>@mirror.example.org/models');
    expect(a.text).toContain('"value":"info"');
    expect(a.text).toContain('ECONNREFUSED');
  });

  it('error answers and log lines (request bodies, load failures) carry no canary', async () => {
    const failed = await http(server.url, '/v2/models/broken/infer', { body: v2('x') });
    expect(failed.status).toBe(503);
    expect(failed.text).toContain('https://<masked>@mirror.example.org/broken');
    const ok = await http(server.url, '/v2/models/leaky/infer', { body: v2(`my token is ${CANARIES.body}`) });
    expect(ok.status).toBe(200);
    expect(leaked(failed.text + ok.text)).toEqual([]);
    expect(logs.some((l) => l.includes('failed to load'))).toBe(true);
    expect(logs.some((l) => l.includes('my token is <masked>'))).toBe(true);
    expect(leaked(logs.join('\n'))).toEqual([]);
  });

  it.each(['yaml', 'json', 'wide', 'table'])('inferkit get -o %s shows no canary', async (output) => {
    const r = await runCli(['get', '--server', server.url, ...(output === 'table' ? [] : ['-o', output])]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('leaky');
    expect(leaked(r.stdout + r.stderr)).toEqual([]);
  });

  it("toYaml(…, { secrets: 'mask' }) masks them; validate reports each one without printing it", async () => {
    expect(leaked(toYaml([leaky()], { secrets: 'mask' }))).toEqual([]);
    const file = join(dir, 'leaky.yaml');
    await writeFile(file, toYaml([leaky()]));
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(leaked(out)).toEqual([]);
    for (const i of [0, 1, 2, 3, 4, 5, 6]) {
      expect(out).toContain(`spec.predictor.model.env[${i}].value`);
    }
    expect(out).toContain('annotations["example.com/hub-token"]: annotation example.com/hub-token holds a credential');
    expect(out).toContain('annotations["example.com/notes"]: holds a Hugging Face token');
    expect(out).toContain('annotations["kubectl.kubernetes.io/last-applied-configuration"]: holds a Hugging Face token');
    expect(out).not.toContain('env[7]');
  });
});
