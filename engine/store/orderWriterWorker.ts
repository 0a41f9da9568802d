// The writer thread of OrderWriter: its own connection to the database file, one transaction per
// batch of write groups, durable (synchronous=FULL: the WAL is fsynced in COMMIT) before the batch is
// acknowledged. It blocks only itself while the disk works.
import Database from 'better-sqlite3';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { decodeOrderWrites, OrderWriteApplier, type OrderWrite } from './orderWrites.js';
import type { WriterReply, WriterRequest } from './orderWriterProtocol.js';

const { file, replies } = workerData as { file: string; replies: MessagePort };
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
const applier = new OrderWriteApplier(db);
const port = parentPort!;

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

port.on('message', (msg: WriterRequest) => {
  if (msg.type === 'batch') {
    const reply: WriterReply = { type: 'done', seq: msg.seq, failed: commit(decodeOrderWrites(msg.groups)) };
    replies.postMessage(reply);
    return;
  }
  // close: the last groups, then the connection; the main thread waits on `flag` synchronously.
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
});

const ready: WriterReply = { type: 'ready' };
replies.postMessage(ready);
