/**
 * Runs tasks one at a time per key, in arrival order; tasks of different keys run concurrently.
 * The relayer keys it by wallet (a Safe's or proxy's nonce is read, checked and reserved without a race)
 * and by sending account (its chain nonce is taken and the transaction sent without a race).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    // Forget idle keys so the map does not grow with every wallet ever seen.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Keys with queued or running work (for tests and diagnostics). */
  get activeKeys(): number {
    return this.tails.size;
  }
}
