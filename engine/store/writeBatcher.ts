import type { Db } from './database.js';

export type Write = (db: Db) => void;

/**
 * Group commit: every write queued during one event-loop turn runs in a single SQLite transaction
 * (one fsync), and each caller's promise settles only after that transaction has committed. A reply
 * that awaits `commit()` is therefore durable, at the cost of one fsync per turn rather than per row.
 */
export class WriteBatcher {
  private queue: Write[] = [];
  private waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  private closed = false;
  /** Committed transactions and rows, for the benchmark and tests. */
  readonly stats = { transactions: 0, writes: 0 };

  constructor(private readonly db: Db) {}

  /** Queues a write for this turn's transaction; resolves once it is committed. */
  commit(write: Write): Promise<void> {
    if (this.closed) return Promise.reject(new Error('write batcher is closed'));
    this.queue.push(write);
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return p;
  }

  /** Runs the queued writes now, in one transaction. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const writes = this.queue;
    const waiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    try {
      this.db.transaction(() => {
        for (const w of writes) w(this.db);
      })();
      this.stats.transactions++;
      this.stats.writes += writes.length;
      for (const w of waiters) w.resolve();
    } catch (e) {
      // One bad write must not take the others down: retry each alone so only the culprit fails.
      for (let i = 0; i < writes.length; i++) {
        try {
          this.db.transaction(() => writes[i]!(this.db))();
          this.stats.transactions++;
          this.stats.writes++;
          waiters[i]!.resolve();
        } catch (err) {
          waiters[i]!.reject(err);
        }
      }
      void e;
    }
  }

  /** Flushes what is queued and refuses further writes. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
