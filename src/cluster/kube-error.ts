import { HttpError, InferkitError } from '../errors.js';

interface KubeStatusBody {
  kind?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; causes?: Array<{ reason?: string; message?: string; field?: string }> };
}

function parseBody(body: unknown): KubeStatusBody | undefined {
  let v = body;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return typeof v === 'object' && v !== null && (v as KubeStatusBody).kind === 'Status' ? (v as KubeStatusBody) : undefined;
}

/**
 * Turns what `@kubernetes/client-node` throws into an InferkitError: an API answer with a
 * Kubernetes `Status` body becomes an {@link HttpError} whose message is the server's (with each
 * `details.causes[]` field named) and whose `param` is the first cause's field; a refused connection
 * becomes `network`. `what` says what was being done (`apply inferenceservice/x`).
 */
export function toKubeError(e: unknown, what: string, server?: string): InferkitError {
  if (e instanceof InferkitError) {
    return e;
  }
  const err = e as { code?: unknown; body?: unknown; message?: string; cause?: { code?: string } };
  if (typeof err.code === 'number') {
    const status = parseBody(err.body);
    const causes = status?.details?.causes ?? [];
    const fields = causes.filter((c) => c.field !== undefined).map((c) => `${c.field}: ${c.message ?? c.reason ?? 'invalid'}`);
    const head = status?.message ?? `HTTP ${err.code}`;
    const text = fields.length > 0 && !fields.every((f) => head.includes(f)) ? `${head} (${fields.join('; ')})` : head;
    const reason = status?.reason ? ` [${status.reason}]` : '';
    return new HttpError(err.code, server ?? '', status ?? err.body, `${what}: ${text}${reason}`, { cause: e, param: causes.find((c) => c.field)?.field });
  }
  const message = err.message ?? String(e);
  const network = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|fetch failed|socket hang up/i.test(`${message} ${err.cause?.code ?? ''}`);
  return new InferkitError(network ? 'network' : 'internal', `${what}: ${network && server ? `cannot reach the Kubernetes API server at ${server}: ` : ''}${message.split('\n')[0]}`, { cause: e });
}
