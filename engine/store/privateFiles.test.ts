import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from './database.js';
import { loadOrCreateSecrets } from './secrets.js';

const mode = (p: string) => statSync(p).mode & 0o777;
const root = mkdtempSync(join(tmpdir(), 'private-files-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a fresh data directory is 0700 and its secrets and SQLite files (db, -wal, -shm) are 0600', () => {
  const dir = join(root, 'fresh');
  loadOrCreateSecrets(dir);
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  db.exec('CREATE TABLE IF NOT EXISTS t (x)');
  db.prepare('INSERT INTO t VALUES (1)').run();
  try {
    assert.equal(mode(dir), 0o700);
    for (const f of ['secrets.json', 'exchange.sqlite', 'exchange.sqlite-wal', 'exchange.sqlite-shm']) assert.equal(mode(join(dir, f)), 0o600, f);
  } finally {
    db.close();
  }
});

test('modes loosened between two starts are tightened again at the next start', () => {
  const dir = join(root, 'loosened');
  loadOrCreateSecrets(dir);
  openDatabase(join(dir, 'exchange.sqlite')).close();
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'secrets.json'), 0o644);
  chmodSync(join(dir, 'exchange.sqlite'), 0o644);
  const again = loadOrCreateSecrets(dir);
  const db = openDatabase(join(dir, 'exchange.sqlite'));
  db.close();
  assert.ok(again.operatorToken);
  assert.equal(mode(dir), 0o700);
  assert.equal(mode(join(dir, 'secrets.json')), 0o600);
  assert.equal(mode(join(dir, 'exchange.sqlite')), 0o600);
});
