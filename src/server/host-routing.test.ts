import { describe, expect, it } from 'vitest';
import { hostOfUrl, normalizeHost, resolveHostScope } from './host-routing.js';

describe('normalizeHost', () => {
  it('drops port, case, brackets and a trailing dot', () => {
    expect(normalizeHost('Bert.Default.Example.com:8080')).toBe('bert.default.example.com');
    expect(normalizeHost('bert.default.example.com.')).toBe('bert.default.example.com');
    expect(normalizeHost('[::1]:8080')).toBe('::1');
    expect(normalizeHost(undefined)).toBe('');
  });
});

describe('hostOfUrl', () => {
  it('takes the host of status.url', () => {
    expect(hostOfUrl('http://a.ns.example.com/v1')).toBe('a.ns.example.com');
    expect(hostOfUrl('not a url')).toBe('');
  });
});

describe('resolveHostScope', () => {
  const hosts = new Set(['a.default.example.com']);
  it('service for a served host, unknown under the domain, any otherwise', () => {
    expect(resolveHostScope('A.default.example.com:80', hosts, 'example.com')).toEqual({ kind: 'service', host: 'a.default.example.com' });
    expect(resolveHostScope('b.default.example.com', hosts, 'example.com')).toEqual({ kind: 'unknown', host: 'b.default.example.com' });
    expect(resolveHostScope('127.0.0.1:8080', hosts, 'example.com')).toEqual({ kind: 'any' });
    expect(resolveHostScope('localhost', hosts, 'example.com')).toEqual({ kind: 'any' });
  });
});
