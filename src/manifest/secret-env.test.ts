import { describe, expect, it } from 'vitest';
import { findInlineSecrets } from './find-inline-secrets.js';
import { isSecretEnvName, maskManifestSecrets, MASKED_SECRET } from './secret-env.js';

describe('isSecretEnvName', () => {
  it('names credentials by their last word, or a secret word anywhere, in any case or spelling', () => {
    for (const name of ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'TOKEN', 'PASSWORD', 'OPENAI_API_KEY', 'MY_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWD', 'SECRET_KEY_BASE', 'GOOGLE_APPLICATION_CREDENTIALS_JSON', 'hfToken', 'apiKey', 'auth-token', 'APIKEY', 'PRIVATE_KEY', 'HTTP_AUTHORIZATION', 'SSH_PASSPHRASE']) {
      expect(isSecretEnvName(name), name).toBe(true);
    }
  });

  it('leaves ordinary settings alone (no substring false positives)', () => {
    for (const name of ['LOG_LEVEL', 'TOKENIZERS_PARALLELISM', 'MAX_NEW_TOKENS', 'AUTHOR', 'KEYBOARD', 'SECRETARY_NAME', 'PASSWORD_FILE', 'HF_TOKEN_PATH', 'API_KEY_FILE', 'STORAGE_URI', '']) {
      expect(isSecretEnvName(name), name).toBe(false);
    }
  });
});

describe('one predicate for validation and masking', () => {
  const doc = {
    spec: {
      predictor: {
        model: {
          env: [
            { name: 'HF_TOKEN', value: 'hf_clear' },
            { name: 'TOKENIZERS_PARALLELISM', value: 'false' },
            { name: 'OPENAI_API_KEY', value: 'sk-1' },
            { name: 'MY_TOKEN', value: '$(FROM_SECRET)' },
            { name: 'GH_TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
          ],
        },
        containers: [{ name: 'c', env: [{ name: 'DB_PASSWORD', value: 'pw' }], args: ['--hf_token=hf_x', '--api-key', 'k1', '--model_id=org/m', '--verbose', '--max_length', '64'] }],
      },
    },
  };

  it('masks exactly what validation reports as a credential in clear', () => {
    const masked = maskManifestSecrets(doc);
    const env = masked.spec.predictor.model.env;
    expect(env.map((e) => ('value' in e ? e.value : undefined))).toEqual([MASKED_SECRET, 'false', MASKED_SECRET, '$(FROM_SECRET)', undefined]);
    expect(env[4]).toEqual(doc.spec.predictor.model.env[4]);
    expect(masked.spec.predictor.containers[0].env[0].value).toBe(MASKED_SECRET);
    expect(masked.spec.predictor.containers[0].args).toEqual(['--hf_token=<masked>', '--api-key', '<masked>', '--model_id=org/m', '--verbose', '--max_length', '64']);
    expect(doc.spec.predictor.model.env[0].value).toBe('hf_clear');
    const reported = findInlineSecrets(doc).map((i) => i.path);
    expect(reported).toEqual(['spec.predictor.model.env[0].value', 'spec.predictor.model.env[2].value', 'spec.predictor.containers[0].env[0].value']);
  });

  it("masks every value of a Secret's data and stringData, in a list too, keeping keys and the original", () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { HF_TOKEN: 'aGZfeA==', OTHER: 'eA==' }, stringData: { A: 'x' } };
    const [m] = maskManifestSecrets([secret]);
    expect(m).toEqual({ ...secret, data: { HF_TOKEN: MASKED_SECRET, OTHER: MASKED_SECRET }, stringData: { A: MASKED_SECRET } });
    expect(secret.data.HF_TOKEN).toBe('aGZfeA==');
  });
});

describe('credentials recognised by shape (issue 28 N3)', () => {
  it('names: glued, qualified and numbered credential names are secret; settings are not', () => {
    for (const name of ['HFTOKEN', 'HF_TOKEN_VALUE', 'HF_ACCESS_TOKEN_1', 'HUB_AUTH', 'GHTOKEN', 'API_KEY_B64']) {
      expect(isSecretEnvName(name), name).toBe(true);
    }
    for (const name of ['HF_TOKEN_NAME', 'AUTH_MODE', 'TOKENIZER', 'MAX_TOKENS_1', 'MONKEY']) {
      expect(isSecretEnvName(name), name).toBe(false);
    }
  });

  it('masks a hub token, a Bearer credential and URI userinfo wherever they stand, and reports each path', () => {
    const doc = {
      metadata: { annotations: { 'example.com/hf-token': 'opaque1234', 'example.com/about': 'uses Basic authentication' } },
      spec: {
        predictor: {
          model: {
            storageUri: 'https://user:pw1234@models.example.org/m',
            env: [{ name: 'HF_TOKEN_NAME', value: 'hf_abcdefghijklmnopqrstuvwxyz12' }, { name: 'HDR', value: 'Bearer abc123def456' }],
            args: ['--mirror=s3://AKIAABCDEFGHIJKLMNOP:x@bucket/m'],
          },
        },
      },
    };
    const m = maskManifestSecrets(doc);
    expect(m.metadata.annotations).toEqual({ 'example.com/hf-token': MASKED_SECRET, 'example.com/about': 'uses Basic authentication' });
    expect(m.spec.predictor.model.storageUri).toBe('https://<masked>@models.example.org/m');
    expect(m.spec.predictor.model.env.map((e) => e.value)).toEqual([MASKED_SECRET, 'Bearer <masked>']);
    expect(m.spec.predictor.model.args).toEqual(['--mirror=s3://<masked>@bucket/m']);
    expect(findInlineSecrets(doc).map((i) => i.path)).toEqual([
      'metadata.annotations["example.com/hf-token"]',
      'spec.predictor.model.storageUri',
      'spec.predictor.model.env[0].value',
      'spec.predictor.model.env[1].value',
      'spec.predictor.model.args[0]',
    ]);
  });
});
