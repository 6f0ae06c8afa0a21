import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API (src/index.ts)', () => {
  it('exposes the notebook workflow end to end from the root entry', () => {
    const fns = [
      'inferenceService', 'containerService', 'toYaml', 'fromYaml', 'runtimeConfig', 'serviceHostname', 'statusRow',
      'resolveModel', 'loadTokenClassifier', 'loadChronosBolt', 'seasonalNaive', 'theta', 'autoEts', 'selectEts', 'etsForecast', 'mstl', 'mstlDecompose', 'localForecaster',
      'serve', 'remote', 'frameToInputs', 'forecastToFrame', 'batchForecast', 'forecastFigure', 'renderPng',
      'evaluate', 'loadDataset', 'writeNerFixtureRepo', 'parseContract', 'isInferkitError',
      'validateManifest', 'parseManifest', 'findInlineSecrets', 'cluster', 'availableCpus',
      'crossValidation', 'crossValidationFigure', 'scoreFigure', 'seasonalPeriods', 'parseFrequency', 'formatFrequency', 'readFrameSeries',
      'displayFrame', 'frameHtml', 'isUnivariate', 'seriesValues', 'displayFigure', 'figureOutputHtml', 'createBaseline', 'startWorkerBaseline',
    ] as const;
    for (const name of fns) {
      expect(typeof api[name], name).toBe('function');
    }
  });

  it('round-trips a manifest through the root entry without touching the network', () => {
    const m = api.inferenceService({ name: 'bert', modelId: 'dslim/bert-base-NER', protocol: 'v2' });
    const docs = api.fromYaml(api.toYaml(m));
    expect(docs).toHaveLength(1);
    const isvc = api.InferenceServiceSchema.parse(docs[0]);
    expect(api.runtimeConfig(isvc)).toMatchObject({ modelName: 'bert', modelId: 'dslim/bert-base-NER', protocol: 'v2' });
    expect(api.serviceHostname(isvc)).toBe('bert.default.example.com');
  });

  it('validates a manifest against KServe\'s CRD schema from the root entry', async () => {
    const text = api.toYaml(api.inferenceService({ name: 'bert', modelId: 'o/m' })).replace('modelFormat:', 'modelFromat:');
    const r = await api.validateManifest(text);
    expect(r.errors).toContainEqual({
      path: 'documents[0].spec.predictor.model.modelFromat', message: 'unknown field "modelFromat"; did you mean "modelFormat"?',
    });
  });
});
