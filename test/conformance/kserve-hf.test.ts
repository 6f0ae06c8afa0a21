import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExchanges } from './exchanges.js';
import { expectReplayed } from './kserve-compare.js';
import { INTENDED_DIFFERENCES } from './kserve-differences.js';
import { ReplayServers } from './kserve-replay.js';

// Replays every request recorded from KServe's Hugging Face server against inferkit serving the same
// model (ONNX export of the same weights) with the same runtime args, and compares the answers.
const exchanges = loadExchanges();
const servers = new ReplayServers();
afterAll(() => servers.close());

describe('inferkit serve against answers recorded from KServe huggingfaceserver 0.20', () => {
  it('every intended difference names a recorded exchange and the statuses it was recorded with', () => {
    const byId = new Map(exchanges.map((e) => [e.id, e]));
    for (const [id, d] of Object.entries(INTENDED_DIFFERENCES)) {
      expect(byId.get(id)?.response.status, id).toBe(d.kserve);
      expect(d.reason.length, id).toBeGreaterThan(10);
    }
    expect(exchanges).toHaveLength(134);
    const readme = readFileSync(join(process.cwd(), 'src/server/README.md'), 'utf8');
    for (const [id, d] of Object.entries(INTENDED_DIFFERENCES)) {
      expect(readme, `src/server/README.md lists ${id}`).toContain(`| \`${id}\` | ${d.kserve} | ${d.inferkit}`);
    }
  });

  it.each(exchanges.map((e) => [e.id, e] as const))('%s', async (_id, e) => {
    expectReplayed(e, await servers.send(e), INTENDED_DIFFERENCES[e.id]);
  });
});
