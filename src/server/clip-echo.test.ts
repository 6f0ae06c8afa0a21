import { describe, expect, it } from 'vitest';
import { clipQuoted, clipText } from './clip-echo.js';

describe('clipText', () => {
  it('keeps short text and cuts long text at 200 characters with an ellipsis', () => {
    expect(clipText('abc')).toBe('abc');
    expect(clipText('x'.repeat(500))).toBe(`${'x'.repeat(200)}…`);
  });
});

describe('clipQuoted', () => {
  it('cuts only quoted values over 200 characters', () => {
    expect(clipQuoted('unknown frequency "Q"; expected D')).toBe('unknown frequency "Q"; expected D');
    expect(clipQuoted(`model "${'m'.repeat(300)}" is not served; "ok"`)).toBe(`model "${'m'.repeat(200)}…" is not served; "ok"`);
    // An escape counts as one character and is never split.
    expect(clipQuoted(`a "${'\\"'.repeat(300)}" b`)).toBe(`a "${'\\"'.repeat(200)}…" b`);
  });
});
