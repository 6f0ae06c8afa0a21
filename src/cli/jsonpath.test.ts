import { describe, expect, it } from 'vitest';
import { jsonPath } from './jsonpath.js';

const list = {
  kind: 'List',
  items: [
    { metadata: { name: 'bert', labels: { 'app.kubernetes.io/name': 'ner' } }, status: { url: 'http://bert.default.example.com', conditions: [{ type: 'PredictorReady', status: 'True' }, { type: 'Ready', status: 'False' }] } },
    { metadata: { name: 'chronos' }, status: { url: 'http://chronos.default.example.com', conditions: [{ type: 'Ready', status: 'True' }] } },
  ],
};

describe('jsonPath (kubectl -o jsonpath)', () => {
  it('reads fields, wildcards, indexes, slices, quoted keys and filters as kubectl does', () => {
    expect(jsonPath('{.items[*].metadata.name}', list)).toBe('bert chronos');
    expect(jsonPath('{.items[0].status.url}', list)).toBe('http://bert.default.example.com');
    expect(jsonPath('{.items[-1:].metadata.name}', list)).toBe('chronos');
    expect(jsonPath("{.items[0].metadata.labels['app.kubernetes.io/name']}", list)).toBe('ner');
    expect(jsonPath('{.items[*].status.conditions[?(@.type=="Ready")].status}', list)).toBe('False True');
    expect(jsonPath('{$.kind}', list)).toBe('List');
    expect(jsonPath('{.items[1].metadata}', list)).toBe('{"name":"chronos"}');
    expect(jsonPath('name: {.items[0].metadata.name}', list)).toBe('name: bert');
    expect(jsonPath('{.items[0].nothing}', list)).toBe('');
  });

  it('repeats a range per item, with literals', () => {
    expect(jsonPath('{range .items[*]}{.metadata.name}{"\\t"}{.status.url}{"\\n"}{end}', list)).toBe('bert\thttp://bert.default.example.com\nchronos\thttp://chronos.default.example.com\n');
    expect(jsonPath('{range .items[?(@.metadata.name=="none")]}x{end}done', list)).toBe('done');
  });

  it('names what it cannot read', () => {
    expect(() => jsonPath('{.items[', list)).toThrow(/-o jsonpath: unclosed \{/);
    expect(() => jsonPath('{range .items[*]}{.x}', list)).toThrow(/\{range\} without \{end\}/);
    expect(() => jsonPath('{.items%}', list)).toThrow(/cannot read "%"/);
  });
});
