import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../errors.js';
import { containerService } from './container-service.js';
import { inferenceService } from './inference-service.js';
import { fromYaml, toYaml } from './manifest-yaml.js';
import { runtimeConfig } from './runtime-config.js';
import { formatStatusTable, statusRow } from './status-row.js';

// Tokens look like real hub tokens (hf_ + 20..40 alphanumerics) or are arbitrary printable text.
const token = fc.oneof(
  fc.stringMatching(/^hf_[A-Za-z0-9]{20,40}$/),
  fc.string({ minLength: 12, maxLength: 40, unit: 'grapheme-ascii' }).filter((t) => t.trim().length >= 12),
);

describe('hub token secrecy', () => {
  it('appears only in the Secret document of the YAML, and nowhere else', () => {
    fc.assert(
      fc.property(token, fc.boolean(), (hubToken, containers) => {
        const m = containers
          ? containerService({ name: 'svc', image: 'img:1', modelId: 'o/m', hubToken })
          : inferenceService({ name: 'svc', modelId: 'o/m', hubToken, resources: { gpu: 1 } });
        const docs = toYaml(m).split(/^---$/m);
        expect(docs).toHaveLength(2);
        const parsedBack = fromYaml(toYaml(m));
        expect(parsedBack[0]).toMatchObject({ kind: 'Secret', stringData: { HF_TOKEN: hubToken } });
        expect(docs[1]).not.toContain(hubToken);
        expect(JSON.stringify(m.service)).not.toContain(hubToken);
        expect(JSON.stringify(runtimeConfig(m.service), (_, v: unknown) => (v instanceof Set ? [...v] : v))).not.toContain(hubToken);
        expect(formatStatusTable([statusRow(m.service, 0)])).not.toContain(hubToken);
      }),
      { numRuns: 60 },
    );
  });

  it('never appears in validation errors, neither from the builder nor from reading YAML', () => {
    fc.assert(
      fc.property(token, (hubToken) => {
        const messages: string[] = [];
        const collect = (fn: () => unknown): void => {
          try {
            fn();
          } catch (e) {
            expect(isInferkitError(e)).toBe(true);
            messages.push(String((e as Error).message), JSON.stringify(e));
          }
        };
        collect(() => inferenceService({ name: 'Bad_Name', modelId: 'o/m', hubToken, resources: { memory: 'lots' } }));
        const yaml = toYaml(inferenceService({ name: 'svc', modelId: 'o/m', hubToken }));
        collect(() => fromYaml(yaml.replace('name: svc\n', 'name: Bad_Name\n').replace('kind: Secret', 'kind: Secrets')));
        collect(() => fromYaml(yaml.replace('HF_TOKEN: ', 'HF_TOKEN: [ ')));
        collect(() => fromYaml(yaml.replace('stringData:\n', 'stringData:\n\t')));
        expect(messages.length).toBeGreaterThanOrEqual(6);
        for (const msg of messages) {
          expect(msg).not.toContain(hubToken);
        }
      }),
      { numRuns: 60 },
    );
  });
});
