/**
 * The server's message in an error body: `{"error": "…"}` (V1/V2), `{"error": {"message": …}}`
 * (a ForecastResponse with `status: "error"`), FastAPI's `{"detail": …}`, or the raw text
 * (truncated). Empty when there is none.
 */
export function errorMessageOf(body: unknown, text: string): string {
  if (typeof body === 'object' && body !== null) {
    const o = body as { error?: unknown; detail?: unknown; message?: unknown };
    if (typeof o.error === 'string') {
      return o.error;
    }
    if (typeof o.error === 'object' && o.error !== null) {
      const m = (o.error as { message?: unknown }).message;
      if (typeof m === 'string') {
        return m;
      }
    }
    if (typeof o.detail === 'string') {
      return o.detail;
    }
    if (o.detail !== undefined) {
      return truncate(JSON.stringify(o.detail));
    }
    if (typeof o.message === 'string') {
      return o.message;
    }
  }
  return truncate(text.trim());
}

function truncate(s: string, max = 300): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
