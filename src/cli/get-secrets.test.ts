import { describe, expect, it } from 'vitest';
import type { InferenceService } from '../contract/inference-service.js';
import { formatGet } from './get.js';

const TOKEN = 'hf_clearTokenValue123456';
const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'bert', namespace: 'default' },
  spec: {
    predictor: {
      model: {
        modelFormat: { name: 'huggingface' },
        args: ['--model_name=bert'],
        env: [
          { name: 'HF_TOKEN', value: TOKEN },
          { name: 'LOG_LEVEL', value: 'info' },
        ],
      },
    },
  },
} as unknown as InferenceService;

describe('inferkit get -o yaml|json (cluster or local server)', () => {
  it('masks credentials written in clear and keeps other values', () => {
    for (const output of ['yaml', 'json'] as const) {
      for (const single of [true, false]) {
        const text = formatGet([isvc], output, Date.now(), { single });
        expect(text, output).not.toContain(TOKEN);
        expect(text, output).toContain('<masked>');
        expect(text, output).toContain('info');
      }
    }
    expect(JSON.stringify(isvc)).toContain(TOKEN);
  });
});
