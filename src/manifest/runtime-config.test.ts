import { describe, expect, it } from 'vitest';
import { loadFixture, validationError } from '../../test/fixtures/contract/load.js';
import { InferenceServiceSchema } from '../contract/inference-service.js';
import { parseContract } from '../contract/parse.js';
import { containerService } from './container-service.js';
import { inferenceService } from './inference-service.js';
import { runtimeConfig } from './runtime-config.js';

const fixture = (name: string) => parseContract(InferenceServiceSchema, loadFixture(name));

describe('runtimeConfig', () => {
  it('reads the model form: name, id, flag, protocol v1 by default, resources', () => {
    const c = runtimeConfig(fixture('isvc-model-v1.yaml'));
    expect(c).toMatchObject({
      form: 'model',
      modelName: 'bert',
      modelId: 'dslim/bert-base-NER',
      disableLowerCase: true,
      httpPort: 8080,
      protocol: 'v1',
      modelDir: '/mnt/models',
    });
    expect(c.resources?.limits?.['nvidia.com/gpu']).toBe('1');
  });

  it('reads protocolVersion v2 and the forecast task', () => {
    expect(runtimeConfig(fixture('isvc-model-v2.yaml')).protocol).toBe('v2');
    const f = runtimeConfig(fixture('isvc-forecast.yaml'));
    expect(f).toMatchObject({ task: 'time_series_forecast', modelName: 'chronos-bolt', disableLowerCase: false });
  });

  it('reads container args, image and --http_port', () => {
    const c = runtimeConfig(fixture('isvc-containers.yaml'));
    expect(c).toMatchObject({ form: 'containers', httpPort: 8080, image: 'kserve/huggingfaceserver:latest', modelName: 'bert' });
    const custom = runtimeConfig(containerService({ name: 'x', image: 'i', httpPort: 9001, args: ['--protocol=v2'] }).service);
    expect(custom).toMatchObject({ httpPort: 9001, protocol: 'v2', modelName: 'x' });
  });

  it('defaults modelName to metadata.name and takes the model id from an hf:// storageUri', () => {
    const built = inferenceService({ name: 'ner', storageUri: 'hf://dslim/bert-base-NER:abc123' }).service;
    const model = { ...built.spec.predictor.model, modelFormat: { name: 'huggingface' }, args: [] };
    const isvc = { ...built, spec: { predictor: { model } } };
    expect(runtimeConfig(isvc)).toMatchObject({ modelName: 'ner', modelId: 'dslim/bert-base-NER', modelRevision: 'abc123' });
  });

  it('lets --model_id override the storageUri and the last repeated arg win', () => {
    const isvc = inferenceService({ name: 'ner', storageUri: 'hf://a/b', modelId: 'c/d', args: ['--model_name=final', '--max_length=64'] }).service;
    expect(runtimeConfig(isvc)).toMatchObject({ modelName: 'final', modelId: 'c/d', maxLength: 64 });
  });

  it('finds the Secret the hub token comes from', () => {
    const isvc = inferenceService({ name: 'g', modelId: 'o/m', hubToken: 't' }).service;
    expect(runtimeConfig(isvc).hubTokenSecret).toEqual({ name: 'g-hub-token', key: 'HF_TOKEN' });
  });

  it('names a bad --http_port or --max_length', () => {
    const bad = containerService({ name: 'x', image: 'i', args: ['--http_port=http'] }).service;
    expect(validationError(() => runtimeConfig(bad)).message).toBe(
      'spec.predictor.containers[0].args: --http_port: expected a positive integer up to 65535, got "http"',
    );
    const len = inferenceService({ name: 'x', modelId: 'm', args: ['--max_length=-1'] }).service;
    expect(validationError(() => runtimeConfig(len)).issues[0].path).toBe('spec.predictor.model.args');
  });

  it('refuses an arg that needs a value given bare, and a flag given a value other than true/false, as KServe\'s argparse does', () => {
    const bare = inferenceService({ name: 'x', modelId: 'theta', args: ['--season', '--max_model_len', '--disable_lower_case', '--dtype', '--return_probabilities=yes', '--return_raw_logits=False'] }).service;
    expect(validationError(() => runtimeConfig(bare)).issues).toEqual([
      { path: 'spec.predictor.model.args', message: '--season needs a value (--season=…)' },
      { path: 'spec.predictor.model.args', message: '--max_model_len needs a value (--max_model_len=…)' },
      { path: 'spec.predictor.model.args', message: '--return_probabilities is a flag: write --return_probabilities (or --return_probabilities=true / --return_probabilities=false), got "yes"' },
    ]);
    const off = inferenceService({ name: 'x', modelId: 'm', args: ['--disable_lower_case=TRUE', '--return_probabilities=false'] }).service;
    expect(runtimeConfig(off)).toMatchObject({ disableLowerCase: true, returnProbabilities: false });
  });
});
