import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import { sqliteBinding } from './sqliteBinding.js';

export type Write = (db: Db) => void;

/** How often, at most, the WAL is checkpointed while writes keep coming. */
const CHECKPOINT_INTERVAL_MS = 100;
const CHECKPOINT_WORKER_URL = new URL('./checkpointWorker.mjs', import.meta.url);
/** How long close() waits for the checkpoint worker to close its connection (a loaded machine starts a thread slowly). */
const CHECKPOINT_CLOSE_TIMEOUT_MS = 10_000;

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: every write queued during one event-loop turn runs in a single SQLite transaction, and
 * each caller's promise settles only after that transaction is on disk. A reply that awaits `commit()`
 * is therefore durable.
 *
 * Why the fsync is not SQLite's own: with synchronous=FULL the WAL fsync (≈ 2.3 ms on this machine's
 * disk) runs inside COMMIT on the main thread, which then serves nobody. For a file database in WAL
 * mode the batcher's transactions run with synchronous=NORMAL (frames are written to the WAL, not yet
 * synced) and the batcher then fdatasyncs the WAL file on libuv's thread pool; the callers of a batch
 * are resolved when an fdatasync that started after their COMMIT has finished. That is exactly the
 * guarantee of FULL (the WAL, header and frames, is durable before the reply), but the main thread
 * keeps parsing, validating and matching while the disk works. While a sync runs, new writes gather
 * and go in one transaction when it ends: a transaction costs ≈ 130 µs of fixed main-thread work
 * (WAL frames for every B-tree page it dirtied) before its rows, so the batch grows with the load
 * instead of the transaction count, and latency stays within about two syncs.
 *
 * Checkpoints (copying WAL pages into the database file, with two fsyncs) would otherwise run inside
 * a COMMIT every 1000 pages and stall the main thread for milliseconds; here auto-checkpointing is off
 * on the main connection and a worker thread (checkpointWorker.mjs, its own connection) runs a PASSIVE
 * checkpoint at most every CHECKPOINT_INTERVAL_MS while writes keep coming. If the worker cannot run,
 * SQLite's auto-checkpoint is switched back on. Writes outside the batcher keep the
 * connection's synchronous=FULL (it is switched back after every batch).
 */
export class WriteBatcher {
  private queue: Write[] = [];
  private waiters: Waiter[] = [];
  private scheduled = false;
  private closed = false;
  /** Committed (not yet synced) callers, waiting for the next fdatasync. */
  private unsynced: Waiter[] = [];
  private syncing = false;
  private walFd: number | undefined;
  private readonly walPath: string | undefined;
  private readonly relaxed: Statement | undefined;
  private readonly strict: Statement | undefined;
  private checkpointer: Worker | undefined;
  /** Set to 1 by the checkpoint worker once it holds no connection (closed, or its open failed). */
  private checkpointerClosed: Int32Array | undefined;
  private checkpointing = false;
  private lastCheckpoint = 0;
  /** Committed transactions, rows, WAL syncs (and their total milliseconds), background checkpoints: for the benchmark and tests. */
  readonly stats = { transactions: 0, writes: 0, syncs: 0, checkpoints: 0, syncMs: 0 };

  constructor(private readonly db: Db) {
    const wal = !db.memory && db.name !== '' && String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    if (wal) {
      this.walPath = db.name + '-wal';
      this.relaxed = db.prepare('PRAGMA synchronous = NORMAL');
      this.strict = db.prepare('PRAGMA synchronous = FULL');
      db.pragma('wal_autocheckpoint = 0');
      this.lastCheckpoint = performance.now();
    }
  }

  /** Queues a write for this turn's transaction; resolves once it is committed and on disk. */
  commit(write: Write): Promise<void> {
    if (this.closed) return Promise.reject(new Error('write batcher is closed'));
    this.queue.push(write);
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    // While a WAL sync runs, writes gather for the next transaction (started when the sync ends).
    if (!this.scheduled && !this.syncing) this.schedule();
    return p;
  }

  private schedule(): void {
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Runs the queued writes now, in one transaction; their callers settle once the WAL is synced. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const writes = this.queue;
    const waiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    const done: Waiter[] = [];
    this.relaxed?.run();
    try {
      try {
        this.db.transaction(() => {
          for (const w of writes) w(this.db);
        })();
        this.stats.transactions++;
        this.stats.writes += writes.length;
        for (const w of waiters) done.push(w);
      } catch {
        // One bad write must not take the others down: retry each alone so only the culprit fails.
        for (let i = 0; i < writes.length; i++) {
          try {
            this.db.transaction(() => writes[i]!(this.db))();
            this.stats.transactions++;
            this.stats.writes++;
            done.push(waiters[i]!);
          } catch (err) {
            waiters[i]!.reject(err);
          }
        }
      }
    } finally {
      this.strict?.run();
    }
    if (done.length === 0) return;
    if (this.walPath === undefined) {
      // In-memory or rollback-journal database: COMMIT itself was the durability point.
      for (const w of done) w.resolve();
      return;
    }
    for (const w of done) this.unsynced.push(w);
    this.sync();
  }

  /** Starts one fdatasync of the WAL unless one is running; the running one's completion starts the next. */
  private sync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const batch = this.unsynced;
    this.unsynced = [];
    let fd: number;
    try {
      fd = this.walFd ??= openSync(this.walPath!, 'r');
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    this.syncing = true;
    const t0 = performance.now();
    fdatasync(fd, (err) => {
      this.syncing = false;
      this.stats.syncMs += performance.now() - t0;
      this.stats.syncs++;
      for (const w of batch) {
        if (err) w.reject(err);
        else w.resolve();
      }
      if (this.closed) return this.closeWal();
      if (this.unsynced.length > 0) this.sync();
      else if (this.queue.length > 0 && !this.scheduled) this.schedule();
      this.maybeCheckpoint();
    });
  }

  /** Asks the checkpoint worker for a PASSIVE checkpoint when the last one is old enough and finished. */
  private maybeCheckpoint(): void {
    if (this.checkpointing || this.closed) return;
    const now = performance.now();
    if (now - this.lastCheckpoint < CHECKPOINT_INTERVAL_MS) return;
    this.lastCheckpoint = now;
    const worker = this.checkpointWorker();
    if (!worker) return;
    this.checkpointing = true;
    worker.ref();
    worker.postMessage('checkpoint');
  }

  private checkpointWorker(): Worker | undefined {
    if (this.checkpointer) return this.checkpointer;
    let worker: Worker;
    const closed = new Int32Array(new SharedArrayBuffer(4));
    try {
      worker = new Worker(CHECKPOINT_WORKER_URL, { workerData: { file: this.db.name, sqlite: sqliteBinding(), closed }, execArgv: [] });
    } catch {
      this.autoCheckpointFallback();
      return undefined;
    }
    worker.on('message', (msg: { ok: boolean }) => {
      this.checkpointing = false;
      worker.unref();
      if (msg.ok) this.stats.checkpoints++;
    });
    const fail = () => {
      if (this.checkpointer !== worker) return;
      this.checkpointer = undefined;
      this.checkpointerClosed = undefined;
      this.checkpointing = false;
      if (!this.closed) this.autoCheckpointFallback();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    this.checkpointer = worker;
    this.checkpointerClosed = closed;
    return worker;
  }

  /** Without the worker, SQLite checkpoints inside COMMIT again (its default of 1000 pages). */
  private autoCheckpointFallback(): void {
    this.lastCheckpoint = Infinity;
    if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
  }

  private closeWal(): void {
    if (this.walFd !== undefined && !this.syncing) {
      closeSync(this.walFd);
      this.walFd = undefined;
    }
  }

  /** Flushes what is queued, makes it durable before returning, and refuses further writes. */
  close(): void {
    this.flush();
    this.closed = true;
    if (this.unsynced.length > 0) {
      const batch = this.unsynced;
      this.unsynced = [];
      try {
        fdatasyncSync((this.walFd ??= openSync(this.walPath!, 'r')));
        this.stats.syncs++;
        for (const w of batch) w.resolve();
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.closeWal();
    const worker = this.checkpointer;
    const released = this.checkpointerClosed;
    this.checkpointer = undefined;
    this.checkpointerClosed = undefined;
    if (worker && released) {
      // Waits (synchronously, as the engine's shutdown is) for the worker's connection to close, so the
      // engine's own close is the last one: it checkpoints what is left and removes the -wal and -shm
      // files. A connection still open (or a thread still starting, which opens one) would otherwise
      // checkpoint, delete or even recreate those files after the engine said it was closed.
      worker.postMessage('close');
      Atomics.wait(released, 0, 0, CHECKPOINT_CLOSE_TIMEOUT_MS);
      worker.unref();
    }
  }
}
