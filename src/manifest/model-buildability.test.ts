import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateManifest } from './validate-manifest.js';

const manifest = (id: string, task = 'time_series_forecast'): string => `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: timesfm
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=timesfm
        - --model_id=${id}
        - --task=${task}
`;

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const folder = (config: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'inferkit-arch-'));
  made.push(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
};

describe('inferkit validate: can inferkit build the named forecaster, before any download', () => {
  it("KServe's TimesFM manifest (google/timesfm-2.0-500m-pytorch) and the 2.5 transformers repo validate clean", async () => {
    for (const id of ['google/timesfm-2.0-500m-pytorch', 'google/timesfm-2.5-200m-transformers']) {
      const r = await validateManifest(manifest(id));
      expect(r.errors, id).toEqual([]);
      expect(r.warnings, id).toEqual([]);
    }
  });

  it("a TimesFM repo in the timesfm library's own layout is an error naming the repos that work", async () => {
    const r = await validateManifest(manifest('google/timesfm-2.5-200m-pytorch'));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toMatch(/timesfm library's own layout.*google\/timesfm-2\.0-500m-pytorch.*google\/timesfm-2\.5-200m-transformers/);
  });

  it('an unknown TimesFM repo is a warning: its config.json decides at load', async () => {
    const r = await validateManifest(manifest('someone/timesfm-finetuned'));
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/TimesFmModelForPrediction and TimesFm2_5ModelForPrediction/);
  });

  it("a folder whose config.json names an unknown architecture is an error naming architectures, model_type and the supported list", async () => {
    const dir = folder({ architectures: ['TimesFm3ModelForPrediction'], model_type: 'timesfm3' });
    const r = await validateManifest(manifest(dir));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain('"TimesFm3ModelForPrediction"');
    expect(r.errors[0].message).toContain('"timesfm3"');
    expect(r.errors[0].message).toContain('TimesFmModelForPrediction, TimesFm2_5ModelForPrediction');
    expect(r.errors[0].message).not.toContain(dir);
  });

  it('the TimesFM conformance folders validate clean; a token classifier folder is not a forecaster', async () => {
    for (const v of ['2.0', '2.5']) {
      const r = await validateManifest(manifest(join(process.cwd(), `../shared/conformance/timesfm-${v}/model`)));
      expect(r.errors, v).toEqual([]);
    }
    const bert = await validateManifest(manifest(folder({ architectures: ['BertForTokenClassification'], model_type: 'bert' })));
    expect(bert.errors[0]?.message).toMatch(/inferkit builds forecast graphs for/);
  });
});
