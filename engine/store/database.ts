import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations/index.js';
import { makePrivateFile } from './privateFiles.js';
import { sqliteBinding } from './sqliteBinding.js';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the engine's SQLite file and brings its schema up to date.
 * WAL with synchronous=FULL: a committed transaction is on disk when commit returns. The group commit
 * of writeBatcher runs its own transactions at NORMAL and fdatasyncs the WAL off the main thread before
 * any caller is answered (the same guarantee), and checkpoints from a worker thread.
 */
export function openDatabase(file: string): Db {
  const onDisk = file !== ':memory:';
  if (onDisk) {
    mkdirSync(dirname(file), { recursive: true });
    // SQLite gives the -wal and -shm files the database file's mode: make that 0600 before it opens.
    makePrivateFile(file, true);
  }
  const db = new Database(file, sqliteBinding());
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  if (onDisk) for (const side of ['-wal', '-shm']) makePrivateFile(file + side);
  return db;
}

/** Applies the numbered migrations that this file has not seen yet, each in its own transaction. */
export function migrate(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  let count = 0;
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    })();
    count++;
  }
  return count;
}
