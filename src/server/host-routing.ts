/**
 * How a request's `Host` header picks the services it may reach:
 * - `service`: the Host is the host of a served InferenceService's `status.url` → only its model;
 * - `unknown`: the Host ends in the serving domain (`*.example.com`) but no service has it → 404,
 *   as KServe's ingress would answer;
 * - `any`: any other Host (`127.0.0.1:8080`, `localhost`, a machine name) → a direct call; the
 *   model is found by the name in the path (or the forecast request's `model`).
 */
export type HostScope = { kind: 'service'; host: string } | { kind: 'unknown'; host: string } | { kind: 'any' };

/** Lower-cases a Host header and drops its port, brackets (IPv6) and trailing dot. */
export function normalizeHost(raw: string | undefined): string {
  let h = (raw ?? '').trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end > 0 ? h.slice(1, end) : h;
  } else if (h.split(':').length === 2) {
    h = h.slice(0, h.indexOf(':'));
  }
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** The host part of a URL (`http://a.default.example.com/x` → `a.default.example.com`), or `''`. */
export function hostOfUrl(url: string): string {
  try {
    return normalizeHost(new URL(url).host);
  } catch {
    return '';
  }
}

/** Classifies a Host header against the served hosts and the serving domain. */
export function resolveHostScope(hostHeader: string | undefined, servedHosts: ReadonlySet<string>, domain: string): HostScope {
  const host = normalizeHost(hostHeader);
  if (servedHosts.has(host)) {
    return { kind: 'service', host };
  }
  const d = normalizeHost(domain);
  if (d.length > 0 && host.endsWith(`.${d}`)) {
    return { kind: 'unknown', host };
  }
  return { kind: 'any' };
}
