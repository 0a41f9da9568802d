// Worker thread of WriteBatcher: WAL checkpoints on a connection of its own, so the copy of WAL pages
// into the database file and its two fsyncs never block the engine's main thread.
// Plain ESM JavaScript so it loads the same under tsx, plain node and a bundled build.
// workerData: { file, sqlite, closed } (sqlite: better-sqlite3 options from sqliteBinding.ts, the addon's real path when packaged;
// closed: an Int32Array on a SharedArrayBuffer, set to 1 once this thread holds no connection).
// Message in: 'checkpoint' or 'close'.  Message out: { ok, busy, log, checkpointed } or { ok: false, error }.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** The main thread's close() waits on this flag: the database's files are left alone once it is set. */
function released() {
  Atomics.store(workerData.closed, 0, 1);
  Atomics.notify(workerData.closed, 0);
}

let db;
let checkpoint;
try {
  db = new Database(workerData.file, { ...workerData.sqlite, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // The checkpointer syncs the WAL before copying and the database file after (synchronous=NORMAL or FULL).
  db.pragma('synchronous = FULL');
  checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
} catch (e) {
  if (db?.open) db.close();
  released();
  throw e;
}

parentPort.on('message', (msg) => {
  if (msg === 'close') {
    try {
      db.close();
    } finally {
      released();
      parentPort.close();
    }
    return;
  }
  try {
    const r = checkpoint.get();
    parentPort.postMessage({ ok: true, busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e && e.message ? e.message : e) });
  }
});
