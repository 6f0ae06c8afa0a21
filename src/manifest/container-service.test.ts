import { describe, expect, it } from 'vitest';
import { validationError } from '../../test/fixtures/contract/load.js';
import { containerService } from './container-service.js';
import { toYaml } from './manifest-yaml.js';

describe('containerService', () => {
  it('writes the containers form with --http_port and the container port', () => {
    const m = containerService({
      name: 'bert-container',
      image: 'kserve/huggingfaceserver:latest',
      modelId: 'dslim/bert-base-NER',
      modelName: 'bert',
      httpPort: 8081,
      resources: { cpu: '1', memory: '2Gi' },
    });
    expect(toYaml(m)).toMatchInlineSnapshot(`
      "apiVersion: serving.kserve.io/v1beta1
      kind: InferenceService
      metadata:
        name: bert-container
      spec:
        predictor:
          containers:
            - name: kserve-container
              image: kserve/huggingfaceserver:latest
              args:
                - --model_name=bert
                - --model_id=dslim/bert-base-NER
                - --http_port=8081
              resources:
                limits:
                  cpu: "1"
                  memory: 2Gi
                requests:
                  cpu: "1"
                  memory: 2Gi
              ports:
                - containerPort: 8081
                  protocol: TCP
      "
    `);
  });

  it('defaults to port 8080 and container name kserve-container', () => {
    const c = containerService({ name: 'x', image: 'img:1' }).service.spec.predictor.containers?.[0];
    expect(c?.args).toEqual(['--model_name=x', '--http_port=8080']);
    expect(c?.name).toBe('kserve-container');
  });

  it('references the hub token Secret from the container env', () => {
    const m = containerService({ name: 'x', image: 'img:1', modelId: 'org/gated', hubToken: 'hf_secret_value' });
    expect(m.secret?.stringData).toEqual({ HF_TOKEN: 'hf_secret_value' });
    expect(m.service.spec.predictor.containers?.[0].env?.[0]).toEqual({
      name: 'HF_TOKEN',
      valueFrom: { secretKeyRef: { name: 'x-hub-token', key: 'HF_TOKEN' } },
    });
  });

  it('names bad fields', () => {
    expect(validationError(() => containerService({ name: 'x', image: 'i', httpPort: 70000 })).issues[0].path).toBe('httpPort');
    expect(validationError(() => containerService({ name: 'x', image: '' })).issues[0].path).toBe('spec.predictor.containers[0].image');
  });
});
