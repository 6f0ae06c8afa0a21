/**
 * A first-come, first-served async lock: {@link LoadMutex.lock} resolves, once every earlier holder has
 * released, with the function that releases it (calling it twice releases once).
 */
export class LoadMutex {
  #tail: Promise<void> = Promise.resolve();

  /** Waits for the lock; resolves with its release. */
  async lock(): Promise<() => void> {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      let done = false;
      release = () => {
        if (!done) {
          done = true;
          resolve();
        }
      };
    });
    const before = this.#tail;
    this.#tail = before.then(() => held);
    await before;
    return release;
  }
}
