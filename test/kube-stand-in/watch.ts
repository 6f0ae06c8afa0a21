import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store, WatchEvent } from './store.js';

/**
 * `?watch=true`: streams `{"type","object"}` JSON lines. Without `resourceVersion` (or with `0`) it
 * starts with a synthetic ADDED per existing object, like the API server; with one it replays the
 * events after it. `fieldSelector=metadata.name=X` narrows to one object.
 */
export function serveWatch(store: Store, resource: string, namespace: string | undefined, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): void {
  const selector = /^metadata\.name=(.+)$/.exec(query.get('fieldSelector') ?? '');
  const only = selector?.[1];
  const matches = (e: WatchEvent): boolean =>
    e.resource === resource && (namespace === undefined || e.object.metadata.namespace === namespace) && (only === undefined || e.object.metadata.name === only);
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  const line = (e: WatchEvent): void => {
    res.write(`${JSON.stringify({ type: e.type, object: e.object })}\n`);
  };
  const rv = query.get('resourceVersion');
  if (rv === null || rv === '' || rv === '0') {
    for (const object of store.list(resource, namespace)) {
      const e: WatchEvent = { type: 'ADDED', object, rv: Number(object.metadata.resourceVersion), resource };
      if (matches(e)) {
        line(e);
      }
    }
  } else {
    store.since(Number(rv)).filter(matches).forEach(line);
  }
  const onEvent = (e: WatchEvent): void => {
    if (matches(e)) {
      line(e);
    }
  };
  store.events.on('event', onEvent);
  const stop = (): void => {
    store.events.off('event', onEvent);
  };
  req.on('close', stop);
  res.on('close', stop);
}
