import { describe, expect, expectTypeOf, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import { fromYaml } from '../../src/manifest/manifest-yaml.js';
import { serve } from '../../src/server/serve.js';

/** A manifest file as users keep them: the hub-token Secret beside the InferenceService. */
const YAML = `apiVersion: v1
kind: Secret
metadata:
  name: hub-token
stringData:
  HF_TOKEN: hf_not_a_real_token
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: naive
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args: [--model_name=naive, --model_id=seasonal-naive, --task=time_series_forecast]
`;

describe('what fromYaml returns goes straight into serve and remote', () => {
  it('type-checks and serves the InferenceService of a file with a Secret; remote takes its document', { timeout: 60_000 }, async () => {
    const docs = fromYaml(YAML);
    expectTypeOf(serve).toBeCallableWith(docs);
    const server = await serve(docs, { port: 0, log: () => undefined });
    try {
      await server.loaded();
      expect(server.models().map((m) => [m.name, m.ready])).toEqual([['naive', true]]);
      const model = remote({ baseUrl: server.url }, { isvc: docs[1] });
      const r = await model.forecast({ model: 'naive', inputs: [{ type: 'univariate_time_series', name: 's', series: [1, 2, 3, 4], frequency: 'D', start_timestamp: '2024-01-01' }], options: { horizon: 2 } });
      expect(r.outputs[0].content[0]).toMatchObject({ start_timestamp: '2024-01-05', mean_forecast: [4, 4] });
      expect(() => remote({ baseUrl: server.url }, { isvc: docs[0] })).toThrow(/isvc is a Secret \("hub-token"\), not an InferenceService/);
    } finally {
      await server.close();
    }
  });
});
