/** Options of {@link createHubFetch}. */
export interface HubFetchOptions {
  /** Hub base URL; the token is only sent to this origin. */
  hubUrl: string;
  accessToken?: string;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * A fetch that adds `Authorization: Bearer <token>` to requests for the hub's origin only (so a
 * redirect or link to another host never receives it) and applies the abort signal. Used for
 * @huggingface/hub calls and our downloads alike, so the token lives in one place.
 */
export function createHubFetch(options: HubFetchOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  const origin = new URL(options.hubUrl).origin;
  const token = options.accessToken;
  const hubFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (token && new URL(url).origin === origin) {
      headers.set('Authorization', `Bearer ${token}`);
    } else {
      headers.delete('Authorization');
    }
    return base(input, { ...init, headers, signal: init?.signal ?? options.signal });
  };
  return hubFetch as typeof fetch;
}
