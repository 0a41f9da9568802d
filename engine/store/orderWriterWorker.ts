// The writer thread of OrderWriter: its own connection to the database file, one transaction per
// batch of write groups, durable (synchronous=FULL: the WAL is fsynced in COMMIT) before the batch is
// acknowledged. It blocks only itself while the disk works.
import Database from 'better-sqlite3';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { decodeOrderWrites, OrderWriteApplier, type OrderWrite } from './orderWrites.js';
import type { WriterReply, WriterRequest } from './orderWriterProtocol.js';
import { sqliteBinding } from './sqliteBinding.js';

const { file, replies } = workerData as { file: string; replies: MessagePort };
const db = new Database(file, sqliteBinding());
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
const applier = new OrderWriteApplier(db);
const port = parentPort!;
let transactions = 0;

/** Commits the groups in one transaction; if that fails, each alone, so only a culprit group fails. */
function commit(groups: OrderWrite[][]): Array<[number, string]> {
  try {
    db.transaction(() => {
      for (const g of groups) applier.apply(g);
    })();
    return [];
  } catch {
    const failed: Array<[number, string]> = [];
    groups.forEach((g, i) => {
      try {
        db.transaction(() => applier.apply(g))();
      } catch (e) {
        failed.push([i, (e as Error).message]);
      }
    });
    return failed;
  }
}

/**
 * Every batch that is already waiting goes into the same transaction: while one COMMIT (and its fsync)
 * runs, the main thread keeps sending, so under load each transaction carries what arrived meanwhile.
 */
function commitBatches(first: Extract<WriterRequest, { type: 'batch' }>): Extract<WriterRequest, { type: 'close' }> | undefined {
  const batches = [first];
  let close: Extract<WriterRequest, { type: 'close' }> | undefined;
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
    const msg = m.message as WriterRequest;
    if (msg.type === 'close') {
      close = msg;
      break;
    }
    batches.push(msg);
  }
  const decoded = batches.map((b) => decodeOrderWrites(b.groups));
  const failed = commit(decoded.flat());
  transactions++;
  let offset = 0;
  for (let i = 0; i < batches.length; i++) {
    const n = decoded[i]!.length;
    const mine = failed.filter(([g]) => g >= offset && g < offset + n).map(([g, e]): [number, string] => [g - offset, e]);
    const reply: WriterReply = { type: 'done', seq: batches[i]!.seq, failed: mine, transaction: transactions };
    replies.postMessage(reply);
    offset += n;
  }
  return close;
}

/** The last groups, then the connection; the main thread waits on `flag` synchronously. */
function closeWriter(msg: Extract<WriterRequest, { type: 'close' }>): void {
  let status = 1;
  try {
    if (commit(decodeOrderWrites(msg.groups)).length > 0) status = 2;
    db.close();
  } catch {
    status = 2;
  }
  Atomics.store(msg.flag, 0, status);
  Atomics.notify(msg.flag, 0);
  // `replies` stays open: the main thread drains it after the flag, then closes it.
  port.close();
}

port.on('message', (msg: WriterRequest) => {
  const close = msg.type === 'batch' ? commitBatches(msg) : msg;
  if (close) closeWriter(close);
});

const ready: WriterReply = { type: 'ready' };
replies.postMessage(ready);
