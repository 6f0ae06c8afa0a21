import { describe, expect, it } from 'vitest';
import { InferkitError, ValidationError } from '../errors.js';
import { toErrorResponse } from './to-error-response.js';

describe('toErrorResponse', () => {
  it('maps codes to statuses with KServe {"error"} bodies', () => {
    expect(toErrorResponse(new ValidationError([{ path: 'instances', message: 'expected a list' }]))).toEqual({
      status: 400,
      code: 'invalid_request',
      body: { error: 'instances: expected a list' },
    });
    expect(toErrorResponse(new InferkitError('model_not_found', 'no')).status).toBe(404);
    expect(toErrorResponse(new InferkitError('model_not_ready', 'loading')).status).toBe(503);
    expect(toErrorResponse(new InferkitError('method_not_allowed', 'x')).status).toBe(405);
  });
  it('turns Fastify request errors into 400/413, never 415', () => {
    const fst = (code: string, statusCode: number) => Object.assign(new Error('m'), { code, statusCode });
    expect(toErrorResponse(fst('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)).status).toBe(400);
    expect(toErrorResponse(fst('FST_ERR_CTP_BODY_TOO_LARGE', 413)).status).toBe(413);
  });
  it('answers 500 only for real faults', () => {
    expect(toErrorResponse(new Error('bug'))).toEqual({ status: 500, code: 'internal', body: { error: 'bug' } });
  });
});
