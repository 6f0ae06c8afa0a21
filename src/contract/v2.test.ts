import { describe, expect, it } from 'vitest';
import { fixtureObject, loadFixture, validationError } from '../../test/fixtures/contract/load.js';
import { parseContract } from './parse.js';
import {
  shapeSize,
  V2InferRequestSchema,
  V2InferResponseSchema,
  V2LiveSchema,
  V2ModelMetadataSchema,
  V2ModelReadySchema,
  V2ReadySchema,
  V2ServerMetadataSchema,
} from './v2.js';

describe('V2InferRequestSchema', () => {
  it('parses the interface example: BYTES texts with shape [N]', () => {
    const req = parseContract(V2InferRequestSchema, loadFixture('v2-request.json'));
    expect(req.inputs[0]).toMatchObject({ name: 'input-0', shape: [2], datatype: 'BYTES' });
    expect(req.inputs[0].data).toHaveLength(2);
  });

  it('rejects a shape that does not match the data length, naming the tensor', () => {
    const req = fixtureObject('v2-request.json');
    (req.inputs as Array<{ shape: number[] }>)[0].shape = [3];
    const err = validationError(() => parseContract(V2InferRequestSchema, req, 'V2 request'));
    expect(err.issues).toEqual([{ path: 'inputs[0].data', message: 'has 2 elements but shape [3] needs 3' }]);
    expect(err.message).toMatchInlineSnapshot(`"V2 request: inputs[0].data: has 2 elements but shape [3] needs 3"`);
  });

  it('rejects non-string data in a BYTES tensor at its index', () => {
    const req = { inputs: [{ name: 'input-0', shape: [2], datatype: 'BYTES', data: ['a', 7] }] };
    expect(() => parseContract(V2InferRequestSchema, req)).toThrow('inputs[0].data[1]: expected a string for datatype BYTES');
  });

  it('rejects an unknown datatype and a negative dimension', () => {
    const req = { inputs: [{ name: 'x', shape: [-1], datatype: 'STRING', data: [] }] };
    const paths = validationError(() => parseContract(V2InferRequestSchema, req)).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['inputs[0].shape[0]', 'inputs[0].datatype']));
  });

  it('flattens nested data row-major before checking it against the shape', () => {
    const req = { inputs: [{ name: 'x', shape: [2, 2], datatype: 'INT64', data: [[1, 2], [3, 4]] }] };
    expect(parseContract(V2InferRequestSchema, req).inputs[0].data).toEqual([1, 2, 3, 4]);
  });

  it('keeps request id, parameters and unknown fields', () => {
    const req = { ...fixtureObject('v2-request.json'), id: 'r-1', parameters: { a: 1 }, trace: true };
    expect(parseContract(V2InferRequestSchema, req)).toMatchObject({ id: 'r-1', parameters: { a: 1 }, trace: true });
  });
});

describe('V2InferResponseSchema', () => {
  it('parses the example response: INT64 output of shape [N, 1, T], flat row-major', () => {
    const res = parseContract(V2InferResponseSchema, loadFixture('v2-response.json'));
    expect(res.model_version).toBeNull();
    expect(res.parameters).toBeNull();
    const out = res.outputs[0];
    expect(out).toMatchObject({ name: 'output-0', datatype: 'INT64', shape: [2, 1, 11], parameters: null });
    expect(out.data).toHaveLength(shapeSize(out.shape));
  });

  it('rejects an output whose data does not fill its shape', () => {
    const res = fixtureObject('v2-response.json');
    (res.outputs as Array<{ data: number[] }>)[0].data.pop();
    expect(() => parseContract(V2InferResponseSchema, res)).toThrow('outputs[0].data: has 21 elements but shape [2, 1, 11] needs 22');
  });
});

describe('V2 health and metadata bodies', () => {
  it('parse', () => {
    expect(parseContract(V2LiveSchema, loadFixture('v2-health-live.json'))).toEqual({ live: true });
    expect(parseContract(V2ReadySchema, loadFixture('v2-health-ready.json'))).toEqual({ ready: true });
    expect(parseContract(V2ModelReadySchema, loadFixture('v2-model-ready.json'))).toEqual({ name: 'bert', ready: true });
    expect(parseContract(V2ServerMetadataSchema, loadFixture('v2-server-metadata.json')).extensions).toEqual([]);
    const meta = parseContract(V2ModelMetadataSchema, loadFixture('v2-model-metadata.json'));
    expect(meta.inputs[0]).toEqual({ name: 'input-0', datatype: 'BYTES', shape: [-1] });
  });

  it('name the missing field', () => {
    expect(() => parseContract(V2ReadySchema, { ready: 'yes' })).toThrow(/^ready: /);
    expect(() => parseContract(V2ModelMetadataSchema, { name: 'bert', inputs: [], outputs: [] })).toThrow(/^platform: /);
  });
});
