import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Db } from './database.js';
import { encodeOrderWrites, OrderWriteApplier, type OrderWrite } from './orderWrites.js';
import type { WriterReply, WriterRequest } from './orderWriterProtocol.js';
import type { WriteBatcher } from './writeBatcher.js';

export type OrderWriterMode = 'worker' | 'inline';

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
}

/** How long close() waits for the writer thread to commit what is left and close its connection. */
const CLOSE_TIMEOUT_MS = 15_000;

/**
 * The writer thread's entry. Compiled (dist/), the worker is the .js beside this file. From source, it is
 * the .ts, which a worker can only load once tsx's loader is registered in that thread (workers do not
 * inherit it, and ignore `--import` in execArgv): a two-line bootstrap registers it, then imports.
 */
function workerEntry(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./orderWriterWorker.js', here);
  const target = new URL('./orderWriterWorker.ts', here).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new URL('data:text/javascript,' + encodeURIComponent(`import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(target)});`));
}

/**
 * Group commit of the trading tables on a writer thread.
 *
 * Why a thread: on the POST /order path the SQLite work (binding a 26-column row, B-tree inserts, WAL
 * frames, the fsync) cost the main thread more than anything else it does per order, and the main
 * thread is the one that parses HTTP, authenticates and matches for everybody. Here the main thread
 * only hands over row data; the writer thread (orderWriterWorker.ts, its own connection) commits each
 * batch in one transaction with synchronous=FULL and acknowledges it once it is on disk, so a caller
 * awaiting `submit()` is durable exactly as with WriteBatcher.
 *
 * Group commit: the groups of one event-loop turn go as one message; the writer thread commits every
 * message waiting for it in one transaction, so while a COMMIT (and its fsync) runs, the next
 * transaction gathers whatever arrives, batches grow with the load, and the per-transaction cost is
 * shared. The main thread never waits for an acknowledgement before sending more.
 * A group (one placement's writes) is atomic; if a batch fails, the writer retries each group alone so
 * only the culprit's caller sees the error.
 *
 * Ordering: every write of the orders, trades, balances and ledger tables goes through one writer, so
 * they reach the file in the order the service made them. Other tables keep using WriteBatcher on the
 * main connection (SQLite serialises the two writers; busy_timeout covers the overlap).
 *
 * In-memory databases, or a writer thread that cannot start, fall back to 'inline': the same writes
 * through WriteBatcher on the main connection.
 */
export class OrderWriter {
  private worker: Worker | undefined;
  private replies: MessagePort | undefined;
  private ready = false;
  private pending: OrderWrite[][] = [];
  private pendingWaiters: Waiter[] = [];
  /** Batches sent and not yet acknowledged, by sequence number. */
  private readonly inflight = new Map<number, { groups: OrderWrite[][]; waiters: Waiter[] }>();
  private scheduled = false;
  private seq = 0;
  private closed = false;
  private applier: OrderWriteApplier | undefined;
  /** Batches (messages) acknowledged, writer transactions, groups committed by the writer thread, groups written inline: for tests and the benchmark. */
  readonly stats = { batches: 0, transactions: 0, groups: 0, inline: 0 };
  private lastTransaction = 0;

  constructor(
    private readonly db: Db,
    private readonly fallback: WriteBatcher,
    opts: { mode?: OrderWriterMode } = {},
  ) {
    const file = !db.memory && db.name !== '' && String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    if (file && (opts.mode ?? 'worker') === 'worker') this.spawn();
  }

  get mode(): OrderWriterMode {
    return this.worker ? 'worker' : 'inline';
  }

  private spawn(): void {
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = new Worker(workerEntry(), { workerData: { file: this.db.name, replies: port2 }, transferList: [port2] });
    } catch {
      port1.close();
      return;
    }
    port1.on('message', (msg: WriterReply) => this.onReply(msg));
    port1.unref();
    worker.on('error', () => this.onWorkerLost(worker));
    worker.on('exit', () => this.onWorkerLost(worker));
    worker.unref();
    this.worker = worker;
    this.replies = port1;
  }

  /** Queues one group of writes (atomic); resolves once it is committed and on disk. */
  submit(group: OrderWrite[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('order writer is closed'));
    if (!this.worker) {
      this.stats.inline++;
      return this.fallback.commit(() => this.inline().apply(group));
    }
    return new Promise<void>((resolve, reject) => {
      this.pending.push(group);
      this.pendingWaiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.send());
      }
    });
  }

  private inline(): OrderWriteApplier {
    return (this.applier ??= new OrderWriteApplier(this.db));
  }

  private send(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || !this.worker) return;
    const groups = this.pending;
    const waiters = this.pendingWaiters;
    this.pending = [];
    this.pendingWaiters = [];
    const seq = ++this.seq;
    this.inflight.set(seq, { groups, waiters });
    this.replies!.ref();
    const msg: WriterRequest = { type: 'batch', seq, groups: encodeOrderWrites(groups) };
    this.worker.postMessage(msg);
  }

  private onReply(msg: WriterReply): void {
    if (msg.type === 'ready') {
      this.ready = true;
      return;
    }
    const f = this.inflight.get(msg.seq);
    if (!f) return;
    this.inflight.delete(msg.seq);
    this.stats.batches++;
    if (msg.transaction !== this.lastTransaction) {
      this.lastTransaction = msg.transaction;
      this.stats.transactions++;
    }
    this.stats.groups += f.groups.length - msg.failed.length;
    const failed = new Map(msg.failed);
    f.waiters.forEach((w, i) => {
      const err = failed.get(i);
      if (err === undefined) w.resolve();
      else w.reject(new Error(err));
    });
    if (this.inflight.size === 0 && this.pending.length === 0) this.replies?.unref();
  }

  /**
   * The thread died or could not start. Before it was ready nothing of the in-flight batch reached the
   * file, so it is written inline; after, its fate is unknown, so its callers get an error rather than a
   * possible double write. Later writes go inline.
   */
  private onWorkerLost(worker: Worker): void {
    if (this.worker !== worker || this.closed) return;
    this.worker = undefined;
    this.replies?.close();
    this.replies = undefined;
    const sent = [...this.inflight.values()];
    this.inflight.clear();
    const queued = this.pending.map((g, i) => ({ g, w: this.pendingWaiters[i]! }));
    this.pending = [];
    this.pendingWaiters = [];
    if (!this.ready) queued.unshift(...sent.flatMap((f) => f.groups.map((g, i) => ({ g, w: f.waiters[i]! }))));
    else for (const f of sent) for (const w of f.waiters) w.reject(new Error('the order writer thread stopped before confirming these writes'));
    for (const { g, w } of queued) this.submit(g).then(w.resolve, w.reject);
  }

  /**
   * Commits everything submitted so far and closes the writer thread's connection, synchronously (the
   * engine's shutdown and the test harnesses are synchronous): the main thread waits on a shared flag.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const groups = this.pending;
    const waiters = this.pendingWaiters;
    this.pending = [];
    this.pendingWaiters = [];
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const msg: WriterRequest = { type: 'close', groups: encodeOrderWrites(groups), flag };
    worker.postMessage(msg);
    const outcome = Atomics.wait(flag, 0, 0, CLOSE_TIMEOUT_MS);
    // Batches sent before the close message were committed first; their replies are already in the port.
    for (let m = receiveMessageOnPort(this.replies!); m; m = receiveMessageOnPort(this.replies!)) this.onReply(m.message as WriterReply);
    this.replies?.close();
    this.replies = undefined;
    const ok = outcome !== 'timed-out' && Atomics.load(flag, 0) === 1;
    for (const w of waiters) {
      if (ok) w.resolve();
      else w.reject(new Error('the order writer could not store these writes at shutdown'));
    }
    for (const f of this.inflight.values()) for (const w of f.waiters) w.reject(new Error('the order writer thread did not confirm these writes before shutdown'));
    this.inflight.clear();
    worker.unref();
  }
}
