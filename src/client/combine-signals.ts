/** A signal that aborts when any of its sources does; `dispose()` detaches it from them. */
export interface CombinedSignal {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Combines abort signals (like `AbortSignal.any`, which this project's typings lack) and lets the
 * caller detach, so that a long-lived client signal does not collect one listener per request.
 */
export function combineSignals(sources: ReadonlyArray<AbortSignal | undefined>): CombinedSignal {
  const controller = new AbortController();
  const attached: Array<[AbortSignal, () => void]> = [];
  const dispose = (): void => {
    for (const [s, f] of attached) {
      s.removeEventListener('abort', f);
    }
    attached.length = 0;
  };
  for (const s of sources) {
    if (s === undefined) {
      continue;
    }
    if (s.aborted) {
      controller.abort(s.reason);
      dispose();
      break;
    }
    const f = (): void => {
      controller.abort(s.reason);
      dispose();
    };
    s.addEventListener('abort', f, { once: true });
    attached.push([s, f]);
  }
  return { signal: controller.signal, dispose };
}
