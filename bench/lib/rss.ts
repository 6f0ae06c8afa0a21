/** Peak resident set size seen while a {@link RssSampler} ran. */
export interface RssPeak {
  /** Highest `process.memoryUsage.rss()` sampled, bytes. */
  peakBytes: number;
  /** RSS when sampling started, bytes. */
  startBytes: number;
}

/**
 * Samples `process.memoryUsage.rss()` every `intervalMs` (a timer that does not keep the process
 * alive). ONNX Runtime runs off the main thread, so its allocations are seen; long synchronous
 * JavaScript is only seen at its edges, hence the extra sample on `stop()`.
 */
export class RssSampler {
  #timer: NodeJS.Timeout | undefined;
  #peak = 0;
  #start = 0;

  /** Starts sampling (restarts the peak). */
  start(intervalMs = 10): this {
    this.stop();
    this.#start = process.memoryUsage.rss();
    this.#peak = this.#start;
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref();
    return this;
  }

  /** Takes one sample now. */
  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.#peak) {
      this.#peak = rss;
    }
  }

  /** Stops sampling and returns the peak. */
  stop(): RssPeak {
    if (this.#timer) {
      this.sample();
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    return { peakBytes: this.#peak, startBytes: this.#start };
  }
}

/** Runs `fn` while sampling RSS; returns its result and the peak. */
export async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; rss: RssPeak }> {
  const sampler = new RssSampler().start();
  try {
    const value = await fn();
    return { value, rss: sampler.stop() };
  } finally {
    sampler.stop();
  }
}
