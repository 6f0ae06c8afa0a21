import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures/contract/load.js';
import { InferenceServiceSchema } from '../contract/inference-service.js';
import { parseContract } from '../contract/parse.js';
import { inferenceService } from './inference-service.js';
import { formatStatusTable, statusRow } from './status-row.js';

const deployed = () => parseContract(InferenceServiceSchema, loadFixture('isvc-with-status.yaml'));
const created = Date.parse('2025-10-20T08:00:00Z');

describe('statusRow', () => {
  it('computes every column from status and creationTimestamp', () => {
    const now = created + (7 * 24 + 23) * 3600_000 + 59 * 60_000;
    expect(statusRow(deployed(), now)).toEqual({
      NAME: 'huggingface-bert',
      URL: 'http://huggingface-bert.default.example.com',
      READY: 'True',
      PREV: '10',
      LATEST: '90',
      PREVROLLEDOUTREVISION: 'huggingface-bert-predictor-00001',
      LATESTREADYREVISION: 'huggingface-bert-predictor-00002',
      AGE: '7d23h',
    });
  });

  it('leaves cells empty when there is no status, and AGE <unknown> without a timestamp', () => {
    const row = statusRow(inferenceService({ name: 'new', modelId: 'm' }).service, created);
    expect(row).toEqual({
      NAME: 'new', URL: '', READY: '', PREV: '', LATEST: '', PREVROLLEDOUTREVISION: '', LATESTREADYREVISION: '', AGE: '<unknown>',
    });
  });

  it('reads READY False from the Ready condition', () => {
    const isvc = deployed();
    isvc.status = { ...isvc.status, conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionMissing' }] };
    expect(statusRow(isvc, created + 5 * 60_000)).toMatchObject({ READY: 'False', AGE: '5m' });
  });
});

describe('formatStatusTable', () => {
  it('aligns columns like kubectl: widest cell + 3 spaces', () => {
    const isvc = deployed();
    const fresh = inferenceService({ name: 'ner', modelId: 'm' }).service;
    fresh.metadata.creationTimestamp = '2025-10-28T07:14:00Z';
    const now = Date.parse('2025-10-28T07:59:00Z');
    expect(formatStatusTable([statusRow(isvc, now), statusRow(fresh, now)])).toMatchInlineSnapshot(`
      "NAME               URL                                           READY   PREV   LATEST   PREVROLLEDOUTREVISION              LATESTREADYREVISION                AGE
      huggingface-bert   http://huggingface-bert.default.example.com   True    10     90       huggingface-bert-predictor-00001   huggingface-bert-predictor-00002   7d23h
      ner                                                                                                                                                            45m
      "
    `);
  });
});
