import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from './database.js';
import { WriteBatcher } from './writeBatcher.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('WriteBatcher', () => {
  let dir: string;
  let db: Db;
  let writes: WriteBatcher;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'write-batcher-'));
    db = openDatabase(join(dir, 'exchange.sqlite'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
    writes = new WriteBatcher(db);
  });

  afterEach(() => {
    writes.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (v: string) => writes.commit((d) => void d.prepare('INSERT INTO t (v) VALUES (?)').run(v));

  it('resolves a commit only after the WAL holding it was fdatasynced, and the row is visible to another connection', async () => {
    await insert('a');
    assert.equal(writes.stats.transactions, 1);
    assert.equal(writes.stats.syncs, 1);
    const other = new Database(db.name, { readonly: true });
    try {
      assert.equal(other.prepare('SELECT COUNT(*) FROM t').pluck().get(), 1);
    } finally {
      other.close();
    }
  });

  it('puts the writes of one turn in one transaction', async () => {
    await Promise.all([insert('a'), insert('b'), insert('c')]);
    assert.equal(writes.stats.transactions, 1);
    assert.equal(writes.stats.writes, 3);
  });

  it('gathers the writes that arrive while a sync runs into the next single transaction', async () => {
    const first = insert('a');
    await nextTurn(); // the first transaction committed; its sync is running
    const later = [insert('b')];
    await nextTurn();
    later.push(insert('c'));
    await Promise.all([first, ...later]);
    assert.equal(writes.stats.transactions, 2);
    assert.equal(writes.stats.writes, 3);
  });

  it('keeps the connection at synchronous=FULL outside its own transactions', async () => {
    await insert('a');
    assert.equal(db.pragma('synchronous', { simple: true }), 2);
  });

  it('rejects only the write that fails; the others of its batch commit', async () => {
    const results = await Promise.allSettled([insert('a'), insert('a'), insert('b')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(db.prepare('SELECT COUNT(*) FROM t').pluck().get(), 2);
  });

  it('checkpoints the WAL from its worker thread, not inside COMMIT', async () => {
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
    const start = performance.now();
    let i = 0;
    while (writes.stats.checkpoints === 0 && performance.now() - start < 5000) {
      await insert('v' + i++);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.ok(writes.stats.checkpoints >= 1, 'a background checkpoint ran');
  });

  it('makes what is queued durable on close and refuses writes afterwards', async () => {
    const p = insert('a');
    writes.close();
    await p;
    await assert.rejects(insert('b'), /closed/);
  });

  it('closes the checkpoint worker\'s connection before close returns: after the database closes, nothing touches its files', async () => {
    // Past the checkpoint interval, the next commit starts the worker and asks it for a checkpoint.
    await new Promise((resolve) => setTimeout(resolve, 150));
    await insert('a');
    writes.close();
    db.close();
    // The engine's connection closed last: it checkpointed the WAL and removed the -wal and -shm files.
    assert.deepEqual(readdirSync(dir), ['exchange.sqlite']);
    const touched: string[] = [];
    const watcher = watch(dir, (event, name) => touched.push(`${event} ${name}`));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      watcher.close();
    }
    assert.deepEqual(touched, [], 'no file of the database changed after it was closed');
    assert.deepEqual(readdirSync(dir), ['exchange.sqlite']);
  });

  it('resolves at COMMIT for a database without a WAL file', async () => {
    const mem = new Database(':memory:');
    mem.exec('CREATE TABLE t (v TEXT)');
    const w = new WriteBatcher(mem);
    await w.commit((d) => void d.prepare('INSERT INTO t VALUES (?)').run('x'));
    assert.equal(w.stats.transactions, 1);
    assert.equal(w.stats.syncs, 0);
    w.close();
    mem.close();
  });
});
